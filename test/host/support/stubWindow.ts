import * as vscode from 'vscode';

export type WindowStubs = Partial<Pick<typeof vscode.window, 'showQuickPick' | 'showSaveDialog' | 'showOpenDialog'>>;

/** Answers the extension's quick picks and file dialogs (tests and extension share one `vscode` API object). */
export function stubWindow(stubs: WindowStubs): { restore(): void } {
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = Object.keys(stubs).map((name) => [name, window[name]] as const);
  Object.assign(window, stubs);
  return { restore: () => originals.forEach(([name, original]) => (window[name] = original)) };
}
