import type { ResultRow } from './row';
import { markdownTable } from './table';

/**
 * docs/performance.md holds the bench's figures between these two markers, one section per part, each starting with
 * `<!-- bench:part <id> -->`. `npm run bench -- --write-docs` rewrites the sections of the parts it measured and keeps
 * the others (with their own stamps); everything outside the markers is written by hand and never touched.
 */
export const DOC_BEGIN = '<!-- bench:begin -->';
export const DOC_END = '<!-- bench:end -->';
const PART_MARKER = /^<!-- bench:part (\S+) -->$/gm;

/** Where and on what a run was measured. */
export interface RunStamp {
  /** ISO 8601. */
  startedAt: string;
  commit: string;
  machine: { cpus: number; cpuModel: string; node: string; loadAverageAtStart: number[] };
  command: string;
}

export interface PartFigures {
  id: string;
  title: string;
  rows: readonly ResultRow[];
}

export function stampLine(stamp: RunStamp): string {
  const date = `${stamp.startedAt.slice(0, 10)} ${stamp.startedAt.slice(11, 16)} UTC`;
  const { cpus, cpuModel, node, loadAverageAtStart } = stamp.machine;
  return (
    `Measured ${date} at ${stamp.commit} on ${cpus} × ${cpuModel}, Node ${node}, ` +
    `load average ${loadAverageAtStart.map((load) => load.toFixed(2)).join(' ')} at start (\`${stamp.command}\`).`
  );
}

export function partSection(part: PartFigures, stamp: RunStamp): string {
  return `<!-- bench:part ${part.id} -->\n### ${part.title} (\`npm run bench -- --only ${part.id}\`)\n\n${stampLine(stamp)}\n\n${markdownTable(part.rows)}\n`;
}

/**
 * `doc` with the sections of `written` (id → section text) put in place of those with the same id, in the order of
 * `order` (the bench's parts); a section whose id the bench no longer has is dropped. Throws when the markers are
 * missing or out of order: the bench never guesses where its figures go.
 */
export function replacePartSections(doc: string, written: ReadonlyMap<string, string>, order: readonly string[]): string {
  const begin = doc.indexOf(DOC_BEGIN);
  const end = doc.indexOf(DOC_END);
  if (begin < 0 || end < 0 || end < begin || doc.indexOf(DOC_BEGIN, begin + 1) >= 0 || doc.indexOf(DOC_END, end + 1) >= 0) {
    throw new Error(`the document needs exactly one ${DOC_BEGIN} followed by one ${DOC_END}, on lines of their own`);
  }
  const inside = doc.slice(begin + DOC_BEGIN.length, end);
  const sections = new Map<string, string>();
  const markers = [...inside.matchAll(PART_MARKER)];
  const lead = markers.length ? inside.slice(0, markers[0].index) : inside;
  markers.forEach((marker, i) => {
    const next = markers[i + 1]?.index ?? inside.length;
    sections.set(marker[1], inside.slice(marker.index, next).trim());
  });
  for (const [id, text] of written) {
    if (!order.includes(id)) throw new Error(`no part ${id} in the bench`);
    sections.set(id, text.trim());
  }
  const blocks = [lead.trim(), ...order.map((id) => sections.get(id) ?? '')].filter(Boolean);
  return `${doc.slice(0, begin)}${DOC_BEGIN}\n${blocks.map((block) => `\n${block}\n`).join('')}\n${doc.slice(end)}`;
}
