// How the History view words time and groups chats. No DOM here: unit tests run it in plain Node (in English).

import { pageLocale, t } from '../../../webviewPage/l10n';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const HISTORY_GROUPS = ['Pinned', 'Today', 'Yesterday', 'Previous 7 days', 'Previous 30 days', 'Older'] as const;
export type HistoryGroupLabel = (typeof HISTORY_GROUPS)[number];

export interface HistoryGroup<T> {
  label: HistoryGroupLabel;
  items: T[];
}

/** The group's heading as the page shows it (the labels themselves are ids). */
export function groupHeading(label: HistoryGroupLabel): string {
  switch (label) {
    case 'Pinned':
      return t('Pinned');
    case 'Today':
      return t('Today');
    case 'Yesterday':
      return t('Yesterday');
    case 'Previous 7 days':
      return t('Previous 7 days');
    case 'Previous 30 days':
      return t('Previous 30 days');
    case 'Older':
      return t('Older');
  }
}

let dateFormats: { dayAndMonth: Intl.DateTimeFormat; withYear: Intl.DateTimeFormat; weekday: Intl.DateTimeFormat } | undefined;

/** In the page's language, made once (on first use: the page has its `lang` by then). */
function formats(): NonNullable<typeof dateFormats> {
  if (!dateFormats) {
    const locale = pageLocale();
    dateFormats = {
      dayAndMonth: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }),
      withYear: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', year: 'numeric' }),
      weekday: new Intl.DateTimeFormat(locale, { weekday: 'long' }),
    };
  }
  return dateFormats;
}

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
  if (elapsed < MINUTE) return t('just now');
  const today = startOfDay(now);
  if (elapsed < HOUR) return t('{0} min ago', Math.floor(elapsed / MINUTE));
  if (updatedAt >= today) return t('{0} h ago', Math.floor(elapsed / HOUR));
  if (updatedAt >= startOfDay(today - 1)) return t('yesterday');
  if (updatedAt >= today - 6 * DAY) return formats().weekday.format(updatedAt);
  return new Date(updatedAt).getFullYear() === new Date(now).getFullYear() ? formats().dayAndMonth.format(updatedAt) : formats().withYear.format(updatedAt);
}

/** `1 message`, `4 messages`, `0 chats`: each its own message (plurals differ between languages). */
export function countOf(count: number, noun: 'message' | 'chat'): string {
  if (noun === 'message') return count === 1 ? t('1 message') : t('{0} messages', count);
  return count === 1 ? t('1 chat') : t('{0} chats', count);
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
