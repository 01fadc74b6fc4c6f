import * as vscode from 'vscode';

/**
 * A response part class newer than the API this extension targets (1.104), looked up at run time (no proposed API
 * enabled); undefined where the running VS Code does not have it.
 */
export function optionalPartClass<A extends unknown[]>(name: string): (new (...args: A) => vscode.LanguageModelResponsePart) | undefined {
  const candidate: unknown = (vscode as unknown as Record<string, unknown>)[name];
  // Not in the 1.104 union of response parts, but the progress of the versions that have the class accepts it.
  return typeof candidate === 'function' ? (candidate as new (...args: A) => vscode.LanguageModelResponsePart) : undefined;
}
