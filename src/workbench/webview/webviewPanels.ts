// What VS Code must know of Promptreel's webviews from the start (their options, the serializers that bring their
// panels back after a reload), apart from the host that serves a page: that loads with the page's feature.
import * as vscode from 'vscode';
import { describeError, type ComponentLogger } from '../../common/logger';

/** Scripts on, command links off; resources from the extension's `media/` and `dist/` and the folders given only. */
export function webviewOptions(extensionUri: vscode.Uri, resourceRoots: readonly vscode.Uri[] = []): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist'), ...resourceRoots],
  };
}

/**
 * Brings the panels of `viewType` back after a window reload: `restore` gets the panel and the state its page saved
 * (unchecked: the webview's protocol knows its shape); a panel that cannot be restored is closed, and the failure logged.
 */
export function registerPanelSerializer(
  viewType: string,
  restore: (panel: vscode.WebviewPanel, state: unknown) => Promise<void> | void,
  log: ComponentLogger,
): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(viewType, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
      try {
        await restore(panel, state);
      } catch (error) {
        log.error(`Could not restore a ${viewType} panel: ${describeError(error)}`);
        panel.dispose();
      }
    },
  });
}
