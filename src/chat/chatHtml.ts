import { randomBytes } from 'crypto';
import * as vscode from 'vscode';

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
  const nonce = randomBytes(18).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'chat.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${style.toString()}">
  <title>Promptreel Chat</title>
</head>
<body>
  <main id="app" aria-busy="true"><p class="loading">Loading the chat…</p></main>
  <script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
