import type * as vscode from 'vscode';
import { optionalPartClass } from './optionalPart';
import { USAGE_MIME_TYPE, usagePayloadBytes, type ReplyUsage } from './core/usagePayload';

/**
 * The part that tells VS Code's Chat how many tokens a reply used (`vscode.LanguageModelDataPart`), or undefined
 * where VS Code has no data parts.
 */
export function usageDataPart(usage: ReplyUsage): vscode.LanguageModelResponsePart | undefined {
  const DataPart = optionalPartClass<[Uint8Array, string]>('LanguageModelDataPart');
  return DataPart && new DataPart(usagePayloadBytes(usage), USAGE_MIME_TYPE);
}
