import * as vscode from 'vscode';
import { USAGE_MIME_TYPE, usagePayloadBytes, type ReplyUsage } from './core/usagePayload';

type DataPartConstructor = new (data: Uint8Array, mimeType: string) => object;

/**
 * `vscode.LanguageModelDataPart` is newer than the API this extension targets (1.104): looked up at run time, so
 * older VS Code versions simply get no usage part.
 */
function dataPartConstructor(): DataPartConstructor | undefined {
  const candidate: unknown = (vscode as unknown as Record<string, unknown>)['LanguageModelDataPart'];
  return typeof candidate === 'function' ? (candidate as DataPartConstructor) : undefined;
}

/** The part that tells VS Code's Chat how many tokens a reply used, or undefined where VS Code has no data parts. */
export function usageDataPart(usage: ReplyUsage): vscode.LanguageModelResponsePart | undefined {
  const DataPart = dataPartConstructor();
  if (!DataPart) return undefined;
  // Not in the 1.104 union of response parts, but the progress of the versions that have the class accepts it.
  return new DataPart(usagePayloadBytes(usage), USAGE_MIME_TYPE) as vscode.LanguageModelResponsePart;
}
