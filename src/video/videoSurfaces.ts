import { CommandIds, VIDEO_TOOL_NAME, ViewIds } from '../common/contributions';
import * as vscode from 'vscode';
import type { ComponentLogger } from '../common/logger';
import type { LazyFeature } from '../workbench/lazyFeature';
import { registerPanelSerializer } from '../workbench/webview/webviewPanels';
import type { VideoFlows } from './videoFlows';

/**
 * What VS Code must know of the video flows from activation on: the commands, the agent's tool, and the gallery,
 * players and storyboard editors it restores after a reload. The flows' code loads when one of them is first used.
 */
export function registerVideoSurfaces(flows: LazyFeature<VideoFlows>, log: ComponentLogger): vscode.Disposable {
  return vscode.Disposable.from(
    flows.registerCommands(Object.values(CommandIds.video), (loaded) => loaded.commandHandlers),
    vscode.lm.registerTool<unknown>(VIDEO_TOOL_NAME, {
      prepareInvocation: async (options) => (await flows.get()).tool.prepareInvocation(options),
      invoke: async (options, token) => (await flows.get()).tool.invoke(options, token),
    }),
    registerPanelSerializer(ViewIds.videoGallery, async (panel) => (await flows.get()).gallery.restore(panel), log),
    registerPanelSerializer(ViewIds.videoPlayer, async (panel, state) => (await flows.get()).player.restore(panel, state), log),
    registerPanelSerializer(ViewIds.filmEditor, async (panel, state) => (await flows.get()).films.restore(panel, state), log),
  );
}
