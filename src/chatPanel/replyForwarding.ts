import { DisposableStore, type IDisposable } from '../common/lifecycle';
import type { ChatController } from './core/chatController';
import { usageTotals } from './core/conversation';
import type { HostToWebview } from './core/protocol';
import { assistantView, chatCostField } from './core/webviewViews';

/** Forwards the replies streaming in the conversation a page shows (text, tool calls, the end) to that page. */
export function forwardReplies(controller: ChatController, shown: () => string | undefined, post: (message: HostToWebview) => void): IDisposable {
  const subscriptions = new DisposableStore();
  subscriptions.add(
    controller.onDidStream((delta) => {
      if (delta.conversationId === shown()) post({ type: 'delta', ...delta });
    }),
  );
  subscriptions.add(
    controller.onDidChangeToolCalls((update) => {
      if (update.conversationId === shown()) post({ type: 'toolCalls', ...update });
    }),
  );
  subscriptions.add(
    controller.onDidChangeRateLimit((update) => {
      if (update.conversationId === shown()) post({ type: 'rateLimit', ...update });
    }),
  );
  subscriptions.add(
    controller.onDidFinish(({ conversationId, requestId, message }) => {
      const conversation = controller.store.get(conversationId);
      if (conversationId !== shown() || !conversation) return;
      const ended = { requestId, conversationId, message: assistantView(message), usage: usageTotals(conversation), ...chatCostField(conversation) };
      post(message.status === 'done' ? { type: 'done', ...ended } : { type: 'error', ...ended });
    }),
  );
  return subscriptions;
}
