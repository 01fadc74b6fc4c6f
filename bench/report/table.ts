import type { ResultRow } from './row';

function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function formatRatio(row: ResultRow): string {
  if (row.ratio === undefined || Number.isNaN(row.ratio)) return '—';
  if (row.ratioKind === 'difference') return `${row.ratio >= 0 ? '+' : ''}${row.ratio.toFixed(2)} ${row.unit}`;
  if (row.ratioKind === 'times') return `${row.ratio.toFixed(1)}×`;
  return `${(row.ratio * 100).toFixed(0)}%`;
}

function met(row: ResultRow): string {
  if (row.failed !== undefined) return 'FAILED';
  if (row.met === undefined) return row.goal === '—' ? '' : 'n/a';
  return row.met ? 'yes' : 'not met';
}

function note(row: ResultRow): string {
  if (row.failed === undefined) return row.note ?? '';
  return `could not be measured: ${row.failed}${row.note ? `; ${row.note}` : ''}`;
}

/** The rows as a GitHub-flavoured markdown table (readable in a terminal too). */
export function markdownTable(rows: readonly ResultRow[]): string {
  const header = ['figure', 'unit', 'ours', 'peer or limit', 'ratio', 'goal', 'met?', 'spread / note'];
  const lines = rows.map((row) => [
    `${row.part}: ${row.figure}`,
    row.unit,
    formatNumber(row.ours),
    row.peer === undefined ? '—' : `${formatNumber(row.peer)}${row.peerName ? ` (${row.peerName})` : ''}`,
    formatRatio(row),
    row.goal,
    met(row),
    note(row),
  ]);
  const escape = (cell: string) => cell.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...lines.map((cells) => `| ${cells.map(escape).join(' | ')} |`)].join('\n');
}
