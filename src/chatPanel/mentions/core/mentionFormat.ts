import { formatMessage, t as translate, type L10nArg } from '../../../api/l10n';

// Sizes and labels as chips and the popup show them.

/**
 * Writes a message: `t` itself for what the chat shows (the user's language), `english` for what the model reads.
 * Text both read (a mention's label and detail) is written once, with the writer as a parameter named `t`.
 */
export type Words = (message: string, ...args: L10nArg[]) => string;

export const userLanguage: Words = translate;
export const english: Words = (message, ...args) => formatMessage(message, args);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `${tokens}`;
  if (tokens < 100_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${Math.round(tokens / 1000)}k`;
}

/** `src/app.ts:3-7`, `src/app.ts:3`, or the path alone for a whole file. */
export function locationLabel(path: string, startLine?: number, endLine?: number): string {
  if (startLine === undefined) return path;
  return endLine === undefined || endLine === startLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`;
}

export function lineCount(count: number, t: Words = translate): string {
  return count === 1 ? t('1 line') : t('{0} lines', count);
}

export function fileCount(count: number, t: Words = translate): string {
  return count === 1 ? t('1 file') : t('{0} files', count);
}

/** `a, b, c` (the separator as the language writes it). */
export function listText(parts: readonly string[], t: Words = translate): string {
  return parts.length === 0 ? '' : parts.reduce((list, part) => t('{0}, {1}', list, part));
}

/** The text of a file is sent; a file with NUL bytes in its first 8 KB is taken for binary, as git does. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Terminal output without colours and cursor moves (CSI, OSC and the lone escapes). */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g, '').replace(/\r(?!\n)/g, '');
}
