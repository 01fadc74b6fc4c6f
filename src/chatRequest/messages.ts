import { sanitizeToolSchema } from './toolSchema';
import type { ChatMessage, ChatTool, ContentPart } from '../api/chat/request';
import { t } from '../api/l10n';

// The VS Code message parts, as plain tagged data: `vscodeParts.ts` maps the real classes to these, so the
// conversion to the chat-completions wire format runs (and is unit-tested) in plain Node.

export type PlainPart =
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; callId: string; name: string; input: unknown }
  | { kind: 'tool-result'; callId: string; parts: PlainPart[] }
  | { kind: 'data'; mimeType: string; data: Uint8Array };

export type PlainRole = 'user' | 'assistant' | 'system';

export interface PlainMessage {
  role: PlainRole;
  parts: PlainPart[];
  name?: string;
}

/** Images and instructions are converted as they are: what the model takes decides later (buildChatRequest). */
export interface ConversionOptions {
  /** The reasoning of the earlier turn that made these tool calls (sent back for DeepSeek-style models). */
  reasoningOf?: (callIds: readonly string[]) => string | undefined;
}

const OPENAI_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * VS Code messages to chat-completions messages. A user message's tool results become `tool` messages placed
 * right after the assistant's `tool_calls` (as the API requires), before any text of that user message.
 */
export function toChatMessages(messages: readonly PlainMessage[], options: ConversionOptions = {}): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const name = message.name && OPENAI_NAME.test(message.name) ? { name: message.name } : {};
    switch (message.role) {
      case 'system': {
        const text = textOf(message.parts);
        if (text) out.push({ role: 'system', content: text, ...name });
        break;
      }
      case 'assistant': {
        const text = textOf(message.parts);
        const calls = message.parts.filter((part) => part.kind === 'tool-call');
        if (!text && calls.length === 0) break;
        const reasoning = calls.length ? options.reasoningOf?.(calls.map((call) => call.callId)) : undefined;
        out.push({
          role: 'assistant',
          content: text || null,
          ...name,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(calls.length
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.callId,
                  type: 'function' as const,
                  function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
                })),
              }
            : {}),
        });
        break;
      }
      case 'user': {
        for (const part of message.parts) {
          if (part.kind === 'tool-result') out.push({ role: 'tool', tool_call_id: part.callId, content: toolResultText(part.parts) });
        }
        const content = userContent(message.parts);
        if (content !== undefined) out.push({ role: 'user', content, ...name });
        break;
      }
    }
  }
  return out;
}

/** The text of a message's text parts, joined as they came (parts are fragments of one text). */
export function textOf(parts: readonly PlainPart[]): string {
  return parts
    .filter((part) => part.kind === 'text')
    .map((part) => part.text)
    .join('');
}

function userContent(parts: readonly PlainPart[]): string | ContentPart[] | undefined {
  const content: ContentPart[] = [];
  let hasImage = false;
  for (const part of parts) {
    if (part.kind === 'text') {
      appendText(content, part.text);
    } else if (part.kind === 'data') {
      if (isImage(part.mimeType)) {
        hasImage = true;
        content.push({ type: 'image_url', image_url: { url: dataUrl(part.mimeType, part.data) } });
      } else if (isTextual(part.mimeType)) {
        appendText(content, new TextDecoder().decode(part.data));
      }
      // Other data (e.g. cache hints some callers attach) means nothing to a chat-completions service.
    }
  }
  if (content.length === 0) return parts.some((part) => part.kind === 'tool-result') ? undefined : '';
  if (!hasImage) return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return content;
}

function appendText(content: ContentPart[], text: string): void {
  if (!text) return;
  const last = content[content.length - 1];
  if (last?.type === 'text') last.text += text;
  else content.push({ type: 'text', text });
}

/** A tool result is text for the model: text parts as they are, textual data decoded, anything else as JSON. */
function toolResultText(parts: readonly PlainPart[]): string {
  return parts
    .map((part) => {
      switch (part.kind) {
        case 'text':
          return part.text;
        case 'data':
          return isTextual(part.mimeType) ? new TextDecoder().decode(part.data) : `[${part.mimeType} data, ${part.data.byteLength} bytes]`;
        case 'tool-result':
          return toolResultText(part.parts);
        case 'tool-call':
          return JSON.stringify({ tool: part.name, input: part.input });
      }
    })
    .join('');
}

export function isImage(mimeType: string): boolean {
  return /^image\//i.test(mimeType);
}

function isTextual(mimeType: string): boolean {
  return /^text\//i.test(mimeType) || /[/+]json$/i.test(mimeType);
}

function dataUrl(mimeType: string, data: Uint8Array): string {
  return `data:${mimeType.toLowerCase()};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

export interface PlainTool {
  name: string;
  description: string;
  inputSchema?: object;
}

/** VS Code tools as chat-completions `tools`; a tool without a schema takes an empty object. */
export function toChatTools(tools: readonly PlainTool[], options: { strictSchemas?: boolean } = {}): ChatTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: isRecord(tool.inputSchema) ? sanitizeToolSchema(tool.inputSchema, options.strictSchemas) : { type: 'object', properties: {} },
    },
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ToolArgumentsError extends Error {
  constructor(
    readonly toolName: string,
    readonly rawArguments: string,
  ) {
    // Shown by the chat that called the model (VS Code's error under the answer).
    super(t('The model called the tool "{0}" with arguments that are not a JSON object: {1}', toolName, rawArguments.slice(0, 200)));
    this.name = 'ToolArgumentsError';
  }
}

/** The input of a streamed tool call: its JSON arguments, which must be an object (empty text counts as `{}`). */
export function parseToolInput(name: string, rawArguments: string): Record<string, unknown> {
  if (!rawArguments.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawArguments);
  } catch {
    throw new ToolArgumentsError(name, rawArguments);
  }
  if (!isRecord(parsed)) throw new ToolArgumentsError(name, rawArguments);
  return parsed;
}
