import type * as vscode from 'vscode';

/** An AbortSignal that follows a CancellationToken, so cancelling in VS Code reaches the socket. */
export function abortOn(token: vscode.CancellationToken): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}
