import type { Conversation } from './model';
import type { ConversationSearchResultView } from '../webview/protocol';

// The history search: every word of the query must be found in the chat (its title or the text of its messages,
// case-insensitive, not necessarily in one message). Chats whose title holds every word come first; then the newest.

export type ConversationSearchResult = ConversationSearchResultView;

/** About this many characters of a message are shown around the first match. */
export const SNIPPET_LENGTH = 80;
const MAX_RESULTS = 200;

/** The words of a query, lower-cased, without repeats; none for a blank query. */
export function queryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0);
  return [...new Set(words)];
}

export function searchConversations(conversations: readonly Conversation[], query: string, limit = MAX_RESULTS): ConversationSearchResult[] {
  const patterns = queryWords(query).map((word) => new RegExp(escapeRegExp(word), 'iu'));
  if (patterns.length === 0) return [];
  const results: ConversationSearchResult[] = [];
  for (const conversation of conversations) {
    const result = match(conversation, patterns);
    if (result) results.push(result);
  }
  results.sort((a, b) => rank(a) - rank(b) || b.updatedAt - a.updatedAt);
  return results.slice(0, limit);
}

function match(conversation: Conversation, patterns: RegExp[]): ConversationSearchResult | undefined {
  const inTitle = patterns.map((pattern) => pattern.test(conversation.title));
  // A word not in the title must be in some message.
  for (let index = 0; index < patterns.length; index++) {
    if (!inTitle[index] && !conversation.messages.some((message) => patterns[index].test(message.text))) return undefined;
  }
  const matchIn = inTitle.every(Boolean) ? 'title' : 'text';
  const snippet = firstSnippet(conversation, patterns);
  return {
    id: conversation.id,
    title: conversation.title,
    updatedAt: conversation.updatedAt,
    pinned: conversation.pinned === true,
    matchIn,
    titleMatches: matchRanges(conversation.title, patterns),
    ...(snippet !== undefined ? { snippet } : {}),
    snippetMatches: snippet === undefined ? [] : matchRanges(snippet, patterns),
  };
}

/** Every `[start, end)` where a word of the query stands in `text`, in order, overlapping ones merged. */
export function matchRanges(text: string, patterns: readonly RegExp[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const pattern of patterns) {
    const everywhere = new RegExp(pattern.source, 'giu');
    for (const found of text.matchAll(everywhere)) ranges.push([found.index, found.index + found[0].length]);
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

function rank(result: ConversationSearchResult): number {
  return result.matchIn === 'title' ? 0 : 1;
}

/** The words around the earliest match in the first message (in chat order) that holds any word of the query. */
function firstSnippet(conversation: Conversation, patterns: RegExp[]): string | undefined {
  for (const message of conversation.messages) {
    let first: { index: number; length: number } | undefined;
    for (const pattern of patterns) {
      const found = pattern.exec(message.text);
      if (found && (!first || found.index < first.index)) first = { index: found.index, length: found[0].length };
    }
    if (first) return snippetAround(message.text, first.index, first.length);
  }
  return undefined;
}

/**
 * About `SNIPPET_LENGTH` characters of `text` around the match at `index`: a third before it, cut at word boundaries
 * where one is near, whitespace collapsed, `…` where text was left out.
 */
export function snippetAround(text: string, index: number, length: number, size = SNIPPET_LENGTH): string {
  let start = Math.max(0, index - Math.floor((size - length) / 3));
  let end = Math.min(text.length, start + Math.max(size, length));
  start = Math.max(0, Math.min(start, end - size));
  if (start > 0) {
    const space = text.slice(start, index).search(/\s/);
    if (space >= 0 && space < 15) start += space + 1;
  }
  if (end < text.length) {
    const tail = text.slice(index + length, end);
    const space = tail.search(/\s\S*$/);
    if (space >= 0 && tail.length - space < 15) end = index + length + space;
  }
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
