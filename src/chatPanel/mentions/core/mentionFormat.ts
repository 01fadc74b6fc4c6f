// Sizes and labels as chips and the popup show them.

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

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
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
