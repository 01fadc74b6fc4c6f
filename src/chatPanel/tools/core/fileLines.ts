/** At most this many lines are read at once (the model asks for the next range). */
export const MAX_LINES = 2_000;

export interface LineRange {
  startLine?: number;
  endLine?: number;
}

/**
 * Lines of a text with their numbers (`  12\ttext`, as `cat -n` prints them), headed by where they are from. A range
 * past the end is said, not an error; more than `MAX_LINES` are cut with where to go on.
 */
export function numberedLines(label: string, text: string, range: LineRange = {}): string {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  const start = Math.max(1, range.startLine ?? 1);
  if (start > total) return `${label} has ${total} line${total === 1 ? '' : 's'}: nothing at line ${start}.`;
  const wantedEnd = Math.min(total, Math.max(start, range.endLine ?? total));
  const end = Math.min(wantedEnd, start + MAX_LINES - 1);
  const width = String(end).length;
  const body = lines
    .slice(start - 1, end)
    .map((line, index) => `${String(start + index).padStart(width)}\t${line}`)
    .join('\n');
  const whole = start === 1 && end === total;
  const heading = whole ? `${label} (${total} line${total === 1 ? '' : 's'}):` : `${label}, lines ${start}-${end} of ${total}:`;
  const more = end < wantedEnd ? `\n[… lines ${end + 1}-${wantedEnd} not shown: read them with startLine ${end + 1}]` : '';
  return `${heading}\n${body}${more}`;
}
