import type { ChatMessage } from '../../api/chat/request';

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

/** What Complete at Cursor and Rewrite Selection ask: shaped into a request by the chat-request layer, like every chat. */
export interface EditorPrompt {
  instructions: string;
  messages: ChatMessage[];
}

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

export function completionPrompt(input: CompletionInput): EditorPrompt {
  const user = [header(input), '<file>', `${input.before}${CURSOR_MARKER}${input.after}`, '</file>'].join('\n');
  return { instructions: COMPLETION_INSTRUCTIONS, messages: [{ role: 'user', content: user }] };
}

export function rewritePrompt(input: RewriteInput): EditorPrompt {
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
  return { instructions: REWRITE_INSTRUCTIONS, messages: [{ role: 'user', content: user }] };
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
