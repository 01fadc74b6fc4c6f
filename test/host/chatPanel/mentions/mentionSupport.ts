import * as assert from 'node:assert/strict';
import type { ChatSession } from '../../../../src/chatPanel/webview/chatSession';
import type { ContextBudgetView, DraftView, HostToWebview, MentionSuggestionView } from '../../../../src/chatPanel/webview/protocol';
import { recordPosts, waitFor } from '../chatTestSupport';

let nextRequest = 1_000;

/** Types `@query` as the page would: the entries the host answers with (the last answer for that query). */
export async function suggestions(host: ChatSession, query: string, { waitForSymbols = false } = {}): Promise<MentionSuggestionView[]> {
  const posts = recordPosts(host);
  const requestId = nextRequest++;
  try {
    await host.handleMessage({ type: 'mentionQuery', requestId, query });
    const answers = () =>
      posts.messages.filter((m): m is Extract<HostToWebview, { type: 'mentionResults' }> => m.type === 'mentionResults' && m.requestId === requestId);
    await waitFor(() => answers().length >= (waitForSymbols ? 2 : 1), { timeoutMs: 20_000, what: `suggestions for "${query}"` });
    return answers().at(-1)!.items;
  } finally {
    posts.dispose();
  }
}

/** Picks the first entry whose label matches, as a click in the popup does; resolves with the draft the page is told. */
export async function pick(host: ChatSession, query: string, label: string | RegExp, options: { waitForSymbols?: boolean } = {}): Promise<DraftView> {
  const items = await suggestions(host, query, options);
  const item = items.find((candidate) => (typeof label === 'string' ? candidate.label === label : label.test(candidate.label)));
  assert.ok(item, `"${String(label)}" is offered for "${query}": ${items.map((candidate) => candidate.label).join(', ')}`);
  return addAndWait(host, { type: 'addMention', key: item.key });
}

/** Sends an intent that changes the draft and waits for the draft the page is told next. */
export async function addAndWait(host: ChatSession, message: Parameters<ChatSession['handleMessage']>[0]): Promise<DraftView> {
  const posts = recordPosts(host);
  try {
    await host.handleMessage(message);
    await waitFor(() => posts.messages.some((m) => m.type === 'draft'), { timeoutMs: 20_000, what: 'the draft to change' });
    return (posts.messages.filter((m) => m.type === 'draft').at(-1) as Extract<HostToWebview, { type: 'draft' }>).draft;
  } finally {
    posts.dispose();
  }
}

/** The budget the page was told last after `action`. */
export async function budgetAfter(host: ChatSession, action: () => Promise<unknown>): Promise<ContextBudgetView> {
  const posts = recordPosts(host);
  try {
    await action();
    await waitFor(() => posts.messages.some((m) => m.type === 'budget'), { timeoutMs: 10_000, what: 'a budget' });
    return (posts.messages.filter((m) => m.type === 'budget').at(-1) as Extract<HostToWebview, { type: 'budget' }>).budget;
  } finally {
    posts.dispose();
  }
}

/** Removes every chip, image and selection of the draft. */
export async function clearDraft(host: ChatSession): Promise<void> {
  for (const mention of [...host.composerDraft.mentions]) await host.handleMessage({ type: 'removeMention', id: mention.id });
  while (host.composerDraft.images.length) await host.handleMessage({ type: 'removeImage', index: 0 });
  await host.handleMessage({ type: 'clearContext' });
}
