import { DisposableStore, type IDisposable } from '../common/lifecycle';
import type { ChatController } from './core/chatController';
import { usageTotals } from './core/conversation';
import type { HostToWebview } from './core/protocol';

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
    controller.onDidFinish(({ conversationId, requestId, message }) => {
      const conversation = controller.store.get(conversationId);
      if (conversationId !== shown() || !conversation) return;
      const usage = usageTotals(conversation);
      post(
        message.status === 'done' ? { type: 'done', requestId, conversationId, message, usage } : { type: 'error', requestId, conversationId, message, usage },
      );
    }),
  );
  return subscriptions;
}
