import type { UsageRecord } from './usageModel';

// The usage view's Export CSV…: one row per request, RFC 4180 (CRLF, text fields quoted, quotes doubled). The column
// names stay English: they are read by spreadsheets and scripts, not only by people.

export const CSV_HEADER = [
  'time',
  'model',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'charged_usd',
  'latency_s',
  'stream',
  'from_this_machine',
  'request_id',
] as const;

/** The whole file: the header, then each row as given (the view's order, newest first). */
export function usageCsv(rows: readonly UsageRecord[]): string {
  const lines = [CSV_HEADER.join(','), ...rows.map(csvLine)];
  return `${lines.join('\r\n')}\r\n`;
}

function csvLine(row: UsageRecord): string {
  return [
    text(new Date(row.at).toISOString()),
    text(row.model),
    count(row.promptTokens),
    count(row.completionTokens),
    count(row.cachedTokens),
    row.usd === undefined ? '' : String(Number(row.usd.toPrecision(12))),
    count(row.latencySeconds),
    row.stream === undefined ? '' : row.stream ? 'yes' : 'no',
    row.fromThisMachine ? 'yes' : 'no',
    text(row.requestId ?? ''),
  ].join(',');
}

function count(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '' : String(value);
}

/**
 * A text cell, quoted. One a spreadsheet would run as a formula (it starts with = + - @, or a tab or carriage return
 * that some strip first) gets a leading apostrophe: a model name or a request id comes from the gateway.
 */
export function text(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
