import type * as vscode from 'vscode';
import { optionalPartClass } from './optionalPart';

/**
 * The reasoning of a reply as `vscode.LanguageModelThinkingPart`, which VS Code's Chat shows as thinking; undefined
 * where VS Code has no such class (the reasoning then stays out of the answer, as before).
 */
export function thinkingPart(text: string): vscode.LanguageModelResponsePart | undefined {
  const ThinkingPart = optionalPartClass<[string]>('LanguageModelThinkingPart');
  return ThinkingPart && new ThinkingPart(text);
}
