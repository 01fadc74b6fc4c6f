import * as vscode from 'vscode';

type ThinkingPartConstructor = new (value: string) => object;

/**
 * `vscode.LanguageModelThinkingPart` is newer than the API this extension targets (1.104): looked up at run time,
 * no proposed API enabled. Where VS Code has it, its Chat shows a reply's reasoning as thinking; elsewhere the
 * reasoning stays out of the answer, as before.
 */
export function thinkingPart(text: string): vscode.LanguageModelResponsePart | undefined {
  const candidate: unknown = (vscode as unknown as Record<string, unknown>)['LanguageModelThinkingPart'];
  if (typeof candidate !== 'function') return undefined;
  // The progress of a provider accepts thinking parts in the VS Code versions that have the class.
  return new (candidate as ThinkingPartConstructor)(text) as vscode.LanguageModelResponsePart;
}
