import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { PlainMessage, PlainPart, PlainRole, PlainTool } from '../chatRequest/messages';

// Maps VS Code's message classes to the plain shapes of messages.ts. Parts this code does not know (e.g. thinking
// parts of newer VS Code versions) are dropped: a chat-completions service could not take them anyway.

/** `LanguageModelDataPart` is newer than the VS Code API this extension targets: recognised by its shape. */
const dataPartSchema = z.object({ mimeType: z.string(), data: z.instanceof(Uint8Array) });

/** VS Code 1.104 has User = 1 and Assistant = 2; newer versions add System = 3. */
const SYSTEM_ROLE = 3;

export function toPlainMessage(message: vscode.LanguageModelChatRequestMessage): PlainMessage {
  return {
    role: toPlainRole(message.role),
    parts: message.content.flatMap((part) => toPlainParts(part)),
    ...(message.name ? { name: message.name } : {}),
  };
}

function toPlainRole(role: vscode.LanguageModelChatMessageRole): PlainRole {
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if (Number(role) === SYSTEM_ROLE) return 'system';
  return 'user';
}

export function toPlainParts(part: unknown): PlainPart[] {
  if (part instanceof vscode.LanguageModelTextPart) return [{ kind: 'text', text: part.value }];
  if (part instanceof vscode.LanguageModelToolCallPart) return [{ kind: 'tool-call', callId: part.callId, name: part.name, input: part.input }];
  if (part instanceof vscode.LanguageModelToolResultPart)
    return [{ kind: 'tool-result', callId: part.callId, parts: part.content.flatMap((inner) => toPlainParts(inner)) }];
  if (part instanceof vscode.LanguageModelPromptTsxPart) return [{ kind: 'text', text: JSON.stringify(part.value) }];
  if (typeof part === 'string') return [{ kind: 'text', text: part }];
  const data = dataPartSchema.safeParse(part);
  if (data.success) return [{ kind: 'data', mimeType: data.data.mimeType, data: data.data.data }];
  return [];
}

export function toPlainTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): PlainTool[] {
  return (tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, ...(tool.inputSchema ? { inputSchema: tool.inputSchema } : {}) }));
}
