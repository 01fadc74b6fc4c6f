import type { ChatMessage, ChatRequest } from '../../api/chat/request';
import { costOf, formatUsd, type ModelPrice } from '../../api/account/prices';
import { t } from '../../api/l10n';
import type { PlainPart } from '../../chatRequest/messages';
import { estimateMessageTokens, estimateTextTokens } from '../../chatRequest/tokenEstimate';
import type { AssistantMessage, Conversation, Cost, UsageTotals } from './model';

export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
}

/**
 * What a reply cost at `price`: from the tokens the service counted, else from estimated counts (marked as such).
 * Undefined when the model's price is not known (or is a video model's, per second): an unknown cost is never shown as $0.00.
 */
export function replyCost(price: ModelPrice | undefined, usage: UsageTotals | undefined, estimate: () => TokenCounts): Cost | undefined {
  if (!price || price.kind === 'per-second') return undefined;
  if (price.kind === 'per-call') return { usd: costOf(price), estimated: false };
  return usage ? { usd: costOf(price, usage), estimated: false } : { usd: costOf(price, estimate()), estimated: true };
}

/** The cost of every reply of the chat that has one; estimated when any part is; charged: the sum of what the log says so far. */
export function conversationCost(conversation: Conversation): Cost | undefined {
  let total: Cost | undefined;
  let charged: number | undefined;
  for (const message of conversation.messages) {
    if (message.role !== 'assistant' || !message.cost) continue;
    total = { usd: (total?.usd ?? 0) + message.cost.usd, estimated: (total?.estimated ?? false) || message.cost.estimated };
    if (message.cost.charged) charged = (charged ?? 0) + message.cost.charged.usd;
  }
  return total && charged !== undefined ? { ...total, charged: { usd: charged } } : total;
}

/** `$0.0044`, `≈ $0.0040 (estimated)`, then what the service charged when its log says: `· charged $0.0035 (cached tokens)`. */
export function formatCost(cost: Cost): string {
  const estimate = cost.estimated ? t('≈ {0} (estimated)', formatUsd(cost.usd)) : formatUsd(cost.usd);
  if (!cost.charged) return estimate;
  const charged = cost.charged.reason ? t('charged {0}: {1}', formatUsd(cost.charged.usd), cost.charged.reason) : t('charged {0}', formatUsd(cost.charged.usd));
  return `${estimate} · ${charged}`;
}

/**
 * The tokens of a reply the service did not count, with the estimator of the `vscode.lm` provider: the request's
 * messages as prompt, everything the reply streamed (reasoning and tool calls are billed too) as completion.
 */
export function estimateReplyTokens(messages: readonly ChatMessage[], reply: AssistantMessage): TokenCounts {
  // The estimate does not depend on the role.
  const promptTokens = messages.reduce((sum, message) => sum + estimateMessageTokens({ role: 'user', parts: partsOf(message) }), 0);
  const calls = reply.toolCalls.map((call) => call.name + call.arguments).join('');
  return { promptTokens, completionTokens: estimateTextTokens(reply.text + reply.reasoning + calls) };
}

function partsOf(message: ChatMessage): PlainPart[] {
  const content = message.content ?? [];
  // An image counts as a fixed number of tokens whatever its size: only its type is looked at.
  const parts: PlainPart[] =
    typeof content === 'string'
      ? [{ kind: 'text', text: content }]
      : content.map((part) => (part.type === 'text' ? { kind: 'text', text: part.text } : { kind: 'data', mimeType: 'image/*', data: new Uint8Array() }));
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) parts.push({ kind: 'text', text: call.function.name + call.function.arguments });
  }
  return parts;
}

/**
 * The cost of a reply that reached the model (charged, stopped or not), once its price is known; a price list that is
 * slow to come does not hold the end of the reply longer than `waitMs`.
 */
export async function settledReplyCost(
  pricing: Promise<ModelPrice | undefined> | undefined,
  message: AssistantMessage,
  request: ChatRequest,
  waitMs: number,
): Promise<Cost | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  const price = pricing && (await Promise.race([pricing, late]));
  clearTimeout(timer);
  return replyCost(price, message.usage, () => estimateReplyTokens(request.messages, message));
}
