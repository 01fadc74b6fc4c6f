/** Whole sentences one after another: a space between them, none after a full-width mark (Chinese puts none). */
export function sentences(...parts: (string | undefined)[]): string {
  return parts
    .filter((part): part is string => part !== undefined && part.trim() !== '')
    .join(' ')
    .replace(/([。！？]) /g, '$1');
}
