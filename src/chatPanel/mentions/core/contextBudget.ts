import { CHARS_PER_TOKEN, IMAGE_TOKENS, MESSAGE_OVERHEAD, estimateTextTokens } from '../../../chatRequest/tokenEstimate';
import { renderMention, userPromptText } from '../../core/contextPrompt';
import type { Conversation, ConversationMessage, Mention } from '../../core/model';
import type { ContextBudgetView } from '../../webview/protocol';
import type { Draft } from '../../core/webviewViews';

export interface BudgetLimits {
  model: string;
  contextWindow: number;
  /** Kept free for the reply. */
  reservedForReply: number;
}

/** The tokens a mention adds to the message, as the model reads it (its heading, fence and separator included). */
export function mentionTokens(mention: Pick<Mention, 'label' | 'detail' | 'heading' | 'content' | 'tokens'> & { trimmedFrom?: number }): number {
  return estimateTextTokens(renderMention({ ...mention, id: '', kind: 'file' })) + 1;
}

export function estimateMessageTokens(message: ConversationMessage): number {
  if (message.role === 'user') {
    return (
      MESSAGE_OVERHEAD + estimateTextTokens(userPromptText(message.text, message.context, message.mentions)) + (message.images?.length ?? 0) * IMAGE_TOKENS
    );
  }
  if (message.status === 'streaming') return 0;
  const calls = message.toolCalls.reduce((sum, call) => sum + estimateTextTokens(call.name + call.arguments + (call.result ?? '')) + MESSAGE_OVERHEAD, 0);
  return MESSAGE_OVERHEAD + estimateTextTokens(message.text) + calls;
}

/** The system prompt and the turns so far. */
export function estimateHistoryTokens(conversation: Conversation): number {
  const system = conversation.options.systemPrompt?.trim();
  return (system ? MESSAGE_OVERHEAD + estimateTextTokens(system) : 0) + conversation.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

/** The draft without its mentions: what is typed, the selection and the images. */
function fixedDraftTokens(draft: Draft, typed: string): number {
  return MESSAGE_OVERHEAD + estimateTextTokens(userPromptText(typed, draft.context)) + draft.images.length * IMAGE_TOKENS;
}

/**
 * What the chat and the draft would take of the context window, and which mentions would be cut to fit: the largest
 * first, each down to the same size (the others keep all of theirs), so no mention is cut more than it must be.
 */
export function contextBudget(limits: BudgetLimits, conversation: Conversation, draft: Draft, typed = ''): ContextBudgetView {
  const historyTokens = estimateHistoryTokens(conversation);
  const fixed = fixedDraftTokens(draft, typed);
  const sizes = draft.mentions.map((mention) => ({ id: mention.id, label: mention.label, tokens: mention.tokens }));
  const mentionTotal = sizes.reduce((sum, mention) => sum + mention.tokens, 0);
  const available = limits.contextWindow - limits.reservedForReply - historyTokens - fixed;
  const cap =
    mentionTotal > available
      ? fairCap(
          sizes.map((mention) => mention.tokens),
          Math.max(0, available),
        )
      : Infinity;
  const trims = sizes
    .filter((mention) => mention.tokens > cap)
    .sort((a, b) => b.tokens - a.tokens)
    .map((mention) => ({ id: mention.id, label: mention.label, fromTokens: mention.tokens, toTokens: cap }));
  const keptMentions = sizes.reduce((sum, mention) => sum + Math.min(mention.tokens, cap), 0);
  return {
    model: limits.model,
    contextWindow: limits.contextWindow,
    reservedForReply: limits.reservedForReply,
    historyTokens,
    draftTokens: fixed + keptMentions,
    trims,
    overflowTokens: Math.max(0, historyTokens + fixed + keptMentions + limits.reservedForReply - limits.contextWindow),
  };
}

/** The largest size C such that the sizes, each cut to at most C, add up to no more than `available`. */
export function fairCap(sizes: readonly number[], available: number): number {
  const sorted = [...sizes].sort((a, b) => b - a);
  let rest = sorted.reduce((sum, size) => sum + size, 0);
  for (let cut = 1; cut <= sorted.length; cut++) {
    rest -= sorted[cut - 1]!;
    const cap = Math.floor((available - rest) / cut);
    const next = sorted[cut] ?? 0;
    if (cap >= next) return Math.max(0, Math.min(cap, sorted[cut - 1]!));
  }
  return 0;
}

/** The mentions as sent: each one the budget cuts keeps the start of its text (whole lines) and says it was cut. */
export function applyTrims(mentions: readonly Mention[], budget: ContextBudgetView): Mention[] {
  return mentions.map((mention) => {
    const trim = budget.trims.find((candidate) => candidate.id === mention.id);
    if (!trim) return mention;
    // The heading of a cut mention says it was cut: it is counted as sent.
    const heading = mentionTokens({ ...mention, content: '', tokens: trim.toTokens, trimmedFrom: mention.tokens });
    const keepChars = Math.max(0, (trim.toTokens - heading) * CHARS_PER_TOKEN);
    let content = mention.content.slice(0, keepChars);
    const lastLine = content.lastIndexOf('\n');
    if (lastLine > 0 && content.length < mention.content.length) content = content.slice(0, lastLine);
    return { ...mention, content, tokens: trim.toTokens, trimmedFrom: mention.tokens };
  });
}
