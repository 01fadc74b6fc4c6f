// How the History view words time and groups chats. No DOM here: unit tests run it in plain Node.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const HISTORY_GROUPS = ['Pinned', 'Today', 'Yesterday', 'Previous 7 days', 'Previous 30 days', 'Older'] as const;
export type HistoryGroupLabel = (typeof HISTORY_GROUPS)[number];

export interface HistoryGroup<T> {
  label: HistoryGroupLabel;
  items: T[];
}

const DAY_AND_MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const WITH_YEAR = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const WEEKDAY = new Intl.DateTimeFormat('en-US', { weekday: 'long' });

/** Local midnight of the day `time` falls in. */
function startOfDay(time: number): number {
  const date = new Date(time);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** The date group of a chat changed last at `updatedAt` (calendar days, local time; a time ahead of `now` is today). */
export function dateGroup(updatedAt: number, now: number): Exclude<HistoryGroupLabel, 'Pinned'> {
  const today = startOfDay(now);
  if (updatedAt >= today) return 'Today';
  if (updatedAt >= startOfDay(today - 1)) return 'Yesterday';
  if (updatedAt >= today - 7 * DAY) return 'Previous 7 days';
  if (updatedAt >= today - 30 * DAY) return 'Previous 30 days';
  return 'Older';
}

/** Pinned chats first, then by date; each group keeps the order it was given (the host's: newest first). */
export function groupHistory<T extends { pinned: boolean; updatedAt: number }>(items: readonly T[], now: number): HistoryGroup<T>[] {
  const groups = new Map<HistoryGroupLabel, T[]>();
  for (const item of items) {
    const label = item.pinned ? 'Pinned' : dateGroup(item.updatedAt, now);
    const group = groups.get(label) ?? [];
    group.push(item);
    groups.set(label, group);
  }
  return HISTORY_GROUPS.flatMap((label) => {
    const group = groups.get(label);
    return group ? [{ label, items: group }] : [];
  });
}

/** When a chat last changed, as a person says it: `just now`, `5 min ago`, `3 h ago`, `yesterday`, `Monday`, `Mar 12`. */
export function relativeTime(updatedAt: number, now: number): string {
  const elapsed = now - updatedAt;
  if (elapsed < MINUTE) return 'just now';
  const today = startOfDay(now);
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min ago`;
  if (updatedAt >= today) return `${Math.floor(elapsed / HOUR)} h ago`;
  if (updatedAt >= startOfDay(today - 1)) return 'yesterday';
  if (updatedAt >= today - 6 * DAY) return WEEKDAY.format(updatedAt);
  return new Date(updatedAt).getFullYear() === new Date(now).getFullYear() ? DAY_AND_MONTH.format(updatedAt) : WITH_YEAR.format(updatedAt);
}

/** `1 message`, `4 messages`. */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `text` cut into runs, each marked or not, from `[start, end)` ranges (sorted, not overlapping). */
export function markedRuns(text: string, ranges: readonly (readonly [number, number])[]): { text: string; marked: boolean }[] {
  const runs: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const [rawStart, rawEnd] of ranges) {
    const start = Math.max(at, Math.min(rawStart, text.length));
    const end = Math.max(start, Math.min(rawEnd, text.length));
    if (start > at) runs.push({ text: text.slice(at, start), marked: false });
    if (end > start) runs.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) runs.push({ text: text.slice(at), marked: false });
  return runs;
}
