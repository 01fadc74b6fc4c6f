import type { ConversationSearchResultView, ConversationSummaryView } from '../protocol';
import { pageLocale, t } from '../../../webviewPage/l10n';
import { el } from '../../../webviewPage/dom';
import { countOf, markedRuns, relativeTime } from './historyFormat';
import { icon } from './icons';

/** One row of the History view: a saved chat, with what a search found in it. */
export interface HistoryEntry {
  id: string;
  title: string;
  updatedAt: number;
  pinned: boolean;
  busy: boolean;
  /** Unknown for a search result of a chat the list does not hold yet. */
  messageCount?: number;
  snippet?: string;
  titleMatches: [number, number][];
  snippetMatches: [number, number][];
}

export function entryOfSummary(summary: ConversationSummaryView): HistoryEntry {
  return { ...summary, titleMatches: [], snippetMatches: [] };
}

export function entryOfResult(result: ConversationSearchResultView, summary: ConversationSummaryView | undefined): HistoryEntry {
  return {
    id: result.id,
    title: result.title,
    updatedAt: result.updatedAt,
    pinned: result.pinned,
    busy: summary?.busy ?? false,
    ...(summary ? { messageCount: summary.messageCount } : {}),
    ...(result.snippet !== undefined ? { snippet: result.snippet } : {}),
    titleMatches: result.titleMatches,
    snippetMatches: result.snippetMatches,
  };
}

export interface RowState {
  selected: boolean;
  current: boolean;
  now: number;
}

/**
 * A row: its checkbox, the chat (a button that opens it: title, when, how long, the snippet), and Pin and Export
 * over its end while it is hovered or has the focus. The controls carry `data-action`; the History view listens on
 * the list.
 */
export function historyRow(entry: HistoryEntry, state: RowState): HTMLElement {
  const title = entry.title || t('Untitled chat');
  const meta = [
    relativeTime(entry.updatedAt, state.now),
    entry.messageCount === undefined ? undefined : countOf(entry.messageCount, 'message'),
    entry.busy ? t('answering…') : undefined,
  ].filter((part): part is string => part !== undefined);
  const check = el('input', { className: 'history-check', attrs: { type: 'checkbox', 'aria-label': t('Select "{0}"', title), 'data-action': 'select' } });
  check.checked = state.selected;
  const pin = el('button', {
    className: 'history-icon-button history-pin',
    attrs: {
      type: 'button',
      'data-action': 'pin',
      'aria-pressed': String(entry.pinned),
      'aria-label': entry.pinned ? t('Unpin "{0}"', title) : t('Pin "{0}"', title),
      title: entry.pinned ? t('Unpin') : t('Pin to the top'),
    },
  });
  pin.append(icon('pin'));
  const exporter = el('button', {
    className: 'history-icon-button',
    attrs: { type: 'button', 'data-action': 'export', 'aria-label': t('Export "{0}" (Markdown or JSON)', title), title: t('Export (Markdown or JSON)') },
  });
  exporter.append(icon('export'));
  return el(
    'li',
    {
      className: 'history-row',
      dataset: { id: entry.id, pinned: String(entry.pinned), current: String(state.current), selected: String(state.selected) },
    },
    [
      check,
      el(
        'button',
        { className: 'history-open', attrs: { type: 'button', 'data-action': 'open', title: new Date(entry.updatedAt).toLocaleString(pageLocale()) } },
        [
          el('span', { className: 'history-title' }, [marked(title, entry.titleMatches)]),
          el('span', { className: 'history-meta' }, [
            entry.pinned ? el('span', { className: 'history-pinned', attrs: { title: t('Pinned') } }, [icon('pin')]) : undefined,
            meta.join(' · '),
            state.current ? el('span', { className: 'history-badge', text: t('open') }) : undefined,
          ]),
          entry.snippet ? el('span', { className: 'history-snippet' }, [marked(entry.snippet, entry.snippetMatches)]) : undefined,
        ],
      ),
      el('span', { className: 'history-actions' }, [pin, exporter]),
    ],
  );
}

/** A list of rows under its heading (`Pinned`, `Today`, …); search results come as one list without one. */
export function historyGroup(label: string | undefined, rows: HTMLElement[]): HTMLElement[] {
  const list = el('ul', { className: 'history-items', attrs: label ? { 'aria-label': label } : {} }, rows);
  return label ? [el('h3', { className: 'history-group', text: label, attrs: { 'aria-hidden': 'true' } }), list] : [list];
}

/** The text with the found words in `<mark>`, built from text nodes (never HTML). */
function marked(text: string, ranges: readonly [number, number][]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const run of markedRuns(text, ranges)) fragment.append(run.marked ? el('mark', { text: run.text }) : document.createTextNode(run.text));
  return fragment;
}
