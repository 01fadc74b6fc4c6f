import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AssistantMessage, Conversation } from '../../../src/chatPanel/core/model';
import type { ChatSession } from '../../../src/chatPanel/webview/chatSession';
import type { AssistantMessageView, HostToWebview, ReplyEnd } from '../../../src/chatPanel/webview/protocol';
import type { PromptreelTestApi } from '../../../src/extension';
import { setSetting, testApi } from '../support/extension';
import { chatRequests, lastChatBody, type ServiceScenario, type SentBody } from '../support/connectedService';
import { waitFor } from '../support/waitFor';

export { chatRequests, lastChatBody, setSetting, testApi, waitFor, type SentBody };

/** The chat's scenario: the chat model set; after the block, every reply stopped and the Chat view hidden. */
export const CHAT: ServiceScenario = {
  settings: { 'chat.model': 'promptreel-chat' },
  teardown: async () => {
    (await testApi()).chat.controller.stopAll();
    // Hide the Chat view: a visible one reloads its model list when the key or address changes (other suites count requests).
    await vscode.commands.executeCommand('workbench.view.explorer');
  },
};

/** A fresh conversation in the store (options as given). */
export async function newConversation(options: Conversation['options'] = {}): Promise<Conversation> {
  const api = await testApi();
  return api.chat.store.create(options);
}

/** Records every message a webview host posts (what the webview was told). */
export function recordPosts(host: ChatSession): { messages: HostToWebview[]; dispose(): void } {
  const messages: HostToWebview[] = [];
  const subscription = host.onDidPost((message) => messages.push(message));
  return { messages, dispose: () => subscription.dispose() };
}

/** The reply a `done` or `error` message says ended, as the page was told it. */
export function endedReply(end: ReplyEnd): AssistantMessageView {
  const reply = end.conversation.messages.find((message) => message.id === end.messageId);
  assert.ok(reply && reply.role === 'assistant', 'the end names a reply of the chat it carries');
  return reply;
}

/**
 * The posts that told the page a reply had ended, by type: its `done` or `error`, an update of the chat showing the
 * reply no longer streaming, and a list showing the chat no longer answering with the reply in it.
 */
export function endsTold(messages: readonly HostToWebview[], conversationId: string, replyId: string): string[] {
  return messages.flatMap((message) => {
    if (message.type === 'done' || message.type === 'error') return [message.type];
    if (message.type === 'conversations') {
      const summary = message.conversations.find((candidate) => candidate.id === conversationId);
      const replied = summary && !summary.busy && summary.messageCount >= 2;
      return replied ? [message.type] : [];
    }
    const view = message.type === 'conversation' ? message.conversation : message.type === 'snapshot' ? message.snapshot.conversation : undefined;
    const reply = view?.messages.find((candidate) => candidate.id === replyId);
    return reply?.role === 'assistant' && reply.status !== 'streaming' ? [message.type] : [];
  });
}

/**
 * The Chat view's host once its real webview has said `ready` and been answered. A page loads (again, when the view
 * was hidden: its host's `ready` is still true from the last load), says `ready`, and the host answers with a
 * snapshot, then the model list and the prices it loads: the test starts after them, or they would come in its middle.
 */
export async function readyViewHost(api: PromptreelTestApi): Promise<ChatSession> {
  const { view } = api.chat;
  if (view.visible && view.host?.ready) return view.reveal();
  const answered = new Set<ChatSession>();
  const listening = new Map<ChatSession, vscode.Disposable>();
  const listen = (host: ChatSession) => {
    if (!listening.has(host))
      listening.set(
        host,
        host.onDidPost((message) => message.type === 'snapshot' && answered.add(host)),
      );
  };
  if (view.host) listen(view.host);
  try {
    const host = await view.reveal();
    listen(host);
    await waitFor(() => host.ready && answered.has(host), { timeoutMs: 30_000, what: 'the chat webview to say ready, and its snapshot' });
    await waitFor(() => !api.chat.models.view.loading, { timeoutMs: 30_000, what: 'the model list the page asked for' });
    await api.connection.prices.prices();
    return host;
  } finally {
    for (const disposable of listening.values()) disposable.dispose();
  }
}

export function assistantAt(conversation: Conversation | undefined, index: number): AssistantMessage {
  const message = conversation?.messages[index];
  assert.ok(message && message.role === 'assistant', `message ${index} is a reply`);
  return message;
}
