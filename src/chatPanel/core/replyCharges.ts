import type { ChargedCost, ReplyRef } from '../../connection/account/core/chargedCosts';
import type { Event } from '../../common/emitter';
import { Disposable } from '../../common/lifecycle';
import type { ConversationStore } from './conversationStore';
import type { AssistantMessage } from './model';

/** What the chat needs of the connection's charged costs (ChargedCosts). */
export interface ChargeSource {
  readonly onDidChange: Event<void>;
  forReply(reply: ReplyRef): ChargedCost | undefined;
}

/** Replies older than this are not looked up: the service's log (and this machine's record) no longer hold them. */
const LOOKUP_DAYS = 30;

/**
 * Writes what the service's log of the key says each reply really cost into the reply (kept with the chat, shown
 * beside the estimate), when a read of the log brings it.
 */
export class ReplyCharges extends Disposable {
  constructor(
    private readonly store: ConversationStore,
    private readonly charges: ChargeSource,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this._register(charges.onDidChange(() => this.update()));
  }

  private update(): void {
    const since = this.now() - LOOKUP_DAYS * 86_400_000;
    for (const summary of this.store.list()) {
      const conversation = this.store.get(summary.id);
      if (!conversation) continue;
      let changed = false;
      for (const message of conversation.messages) {
        if (message.role !== 'assistant' || !isAwaitingCharge(message, since)) continue;
        const charged = this.charges.forReply({
          model: message.model,
          at: message.endedAt ?? message.createdAt,
          ...(message.usage ? { usage: message.usage } : {}),
          ...(message.gatewayRequestId ? { requestId: message.gatewayRequestId } : {}),
        });
        if (!charged) continue;
        const chargedPart = { usd: charged.usd, ...(charged.reason ? { reason: charged.reason } : {}) };
        message.cost = message.cost ? { ...message.cost, charged: chargedPart } : { usd: charged.usd, estimated: false, charged: chargedPart };
        changed = true;
      }
      if (changed) this.store.changed(conversation.id, { persist: 'now' });
    }
  }
}

function isAwaitingCharge(message: AssistantMessage, since: number): boolean {
  return message.status !== 'error' && message.status !== 'streaming' && !message.cost?.charged && (message.endedAt ?? message.createdAt) >= since;
}
