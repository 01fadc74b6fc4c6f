import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { escapeHtml, newNonce, webviewPage } from '../common/webviewPage';
import { pageLanguage, pageStrings } from '../workbench/l10n';

/** The only folders a chat webview may load from. */
export function chatResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')];
}

export function chatWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: chatResourceRoots(extensionUri) };
}

/**
 * The page of the chat webview: nothing but our stylesheet and our script (by nonce) may load; no inline script,
 * no inline style, no network. Conversations arrive later by message (the `ready` handshake).
 */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewPage({
    title: t('Promptreel Chat'),
    cspSource: webview.cspSource,
    nonce: newNonce(),
    allow: { fonts: true },
    style: { href: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css')).toString() },
    script: { src: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'chat.js')).toString() },
    body: `<main id="app" aria-busy="true"><p class="loading">${escapeHtml(t('Loading the chat…'))}</p></main>`,
    l10n: { language: pageLanguage(), strings: pageStrings() },
  });
}
