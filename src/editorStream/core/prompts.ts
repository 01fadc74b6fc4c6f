import type { ChatMessage, ChatRequest } from '../../api';
import type { ModelCapabilities } from '../../config/schema';
import type { ChatSampling } from '../../config/chatSampling';
import { reasoningParameters } from '../../chatRequest/reasoning';

/** Text sent around the cursor or the selection: enough context for a model, small enough to stay cheap. */
export const CONTEXT_BEFORE_CHARS = 6000;
export const CONTEXT_AFTER_CHARS = 1500;

/** Where the text comes from: shown to the model so it knows the language and conventions. */
export interface SourceInfo {
  fileName: string;
  languageId: string;
}

export interface CompletionInput extends SourceInfo {
  /** The text before the cursor (already clipped). */
  before: string;
  /** The text after the cursor (already clipped). */
  after: string;
}

export interface RewriteInput extends SourceInfo {
  instruction: string;
  selection: string;
  before: string;
  after: string;
}

/** The model and the sampling values of `promptreel.chat.*`, reduced to what the model accepts. */
export type RequestOptions = ChatSampling;

export const CURSOR_MARKER = '<CURSOR>';

const COMPLETION_INSTRUCTIONS = [
  'You are a code completion engine inside a text editor.',
  `The user sends a file with the marker ${CURSOR_MARKER} where the cursor is.`,
  `Reply with only the text to insert at ${CURSOR_MARKER}, so that the file continues naturally.`,
  'No explanations, no Markdown, no code fences; do not repeat the text before or after the cursor.',
].join(' ');

const REWRITE_INSTRUCTIONS = [
  'You rewrite a selected part of a file inside a text editor, following the instruction of the user.',
  'Reply with only the text that replaces the selection: no explanations, no Markdown, no code fences,',
  'nothing from outside the selection. Keep the indentation and style of the surrounding code.',
].join(' ');

export function completionRequest(input: CompletionInput, options: RequestOptions, capabilities: ModelCapabilities | undefined): ChatRequest {
  const user = [header(input), '<file>', `${input.before}${CURSOR_MARKER}${input.after}`, '</file>'].join('\n');
  return request([instructionsMessage(COMPLETION_INSTRUCTIONS, capabilities), { role: 'user', content: user }], options, capabilities);
}

export function rewriteRequest(input: RewriteInput, options: RequestOptions, capabilities: ModelCapabilities | undefined): ChatRequest {
  const user = [
    header(input),
    `Instruction: ${input.instruction}`,
    '',
    'Text before the selection (context only, do not repeat it):',
    '<before>',
    input.before,
    '</before>',
    'The selected text to rewrite:',
    '<selection>',
    input.selection,
    '</selection>',
    'Text after the selection (context only, do not repeat it):',
    '<after>',
    input.after,
    '</after>',
  ].join('\n');
  return request([instructionsMessage(REWRITE_INSTRUCTIONS, capabilities), { role: 'user', content: user }], options, capabilities);
}

/** The last `max` characters, starting at a line boundary when one is near (a cut line confuses models). */
export function clipBefore(text: string, max = CONTEXT_BEFORE_CHARS): string {
  if (text.length <= max) return text;
  const clipped = text.slice(text.length - max);
  const lineStart = clipped.indexOf('\n');
  return lineStart >= 0 && lineStart < max / 4 ? clipped.slice(lineStart + 1) : clipped;
}

/** The first `max` characters, ending at a line boundary when one is near. */
export function clipAfter(text: string, max = CONTEXT_AFTER_CHARS): string {
  if (text.length <= max) return text;
  const clipped = text.slice(0, max);
  const lineEnd = clipped.lastIndexOf('\n');
  return lineEnd >= 0 && lineEnd > (max * 3) / 4 ? clipped.slice(0, lineEnd + 1) : clipped;
}

function header(source: SourceInfo): string {
  return `File: ${source.fileName} (language: ${source.languageId})`;
}

/** Sent as `developer` only where the user declared that the model accepts it. */
function instructionsMessage(content: string, capabilities: ModelCapabilities | undefined): ChatMessage {
  return capabilities?.developerRole ? { role: 'developer', content } : { role: 'system', content };
}

function request(messages: ChatMessage[], options: RequestOptions, capabilities: ModelCapabilities | undefined): ChatRequest {
  const body: ChatRequest = { model: options.model, messages, ...reasoningParameters(capabilities) };
  if (capabilities?.sampling !== false) {
    body.temperature = options.temperature;
    body.top_p = options.topP;
    if (options.frequencyPenalty !== 0) body.frequency_penalty = options.frequencyPenalty;
    if (options.presencePenalty !== 0) body.presence_penalty = options.presencePenalty;
  }
  const maxTokens = options.maxTokens ?? undefined;
  if (maxTokens !== undefined) body.max_tokens = capabilities?.maxOutputTokens ? Math.min(maxTokens, capabilities.maxOutputTokens) : maxTokens;
  return body;
}
