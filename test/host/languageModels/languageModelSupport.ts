import * as vscode from 'vscode';
import { setSetting, testApi } from '../support/extension';
import { lastChatBody } from '../support/connectedService';

export { lastChatBody, setSetting, testApi };

/** Promptreel's models as VS Code hands them to any extension. */
export function promptreelModels(): Thenable<vscode.LanguageModelChat[]> {
  return vscode.lm.selectChatModels({ vendor: 'promptreel' });
}

export async function promptreelModel(id: string): Promise<vscode.LanguageModelChat> {
  const model = (await promptreelModels()).find((candidate) => candidate.id === id);
  if (!model) throw new Error(`VS Code lists no promptreel model "${id}"`);
  return model;
}

export interface CollectedResponse {
  texts: string[];
  toolCalls: vscode.LanguageModelToolCallPart[];
  text: string;
}

/** Reads a response stream to its end, keeping text chunks apart (to see that they streamed). */
export async function collectResponse(response: vscode.LanguageModelChatResponse): Promise<CollectedResponse> {
  const texts: string[] = [];
  const toolCalls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
    else if (part instanceof vscode.LanguageModelToolCallPart) toolCalls.push(part);
  }
  return { texts, toolCalls, text: texts.join('') };
}

/**
 * `vscode.LanguageModelDataPart.image(bytes, mime)` of VS Code versions newer than the typings (1.104), or
 * undefined when this VS Code has none.
 */
export function imagePart(bytes: Uint8Array, mimeType: string): unknown {
  const candidate: unknown = (vscode as unknown as Record<string, unknown>).LanguageModelDataPart;
  if (typeof candidate !== 'function' || !('image' in candidate) || typeof candidate.image !== 'function') return undefined;
  const image = candidate.image as (data: Uint8Array, mime: string) => unknown;
  return image.call(candidate, bytes, mimeType);
}

export { recordMessages, type MessageRecorder as MessageStub } from '../support/recordMessages';
