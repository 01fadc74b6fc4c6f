import type { Usage } from '../../api/chat/events';

/**
 * The mime type of the usage data part. Copilot Chat (which draws VS Code's context-window indicator for third-party
 * models) recognises the part by this type in older versions and by its OpenAI usage shape in newer ones.
 */
export const USAGE_MIME_TYPE = 'token_usage';

/** The tokens of one reply; `cachedTokens` is the part of the prompt the service served from its cache, when it says. */
export type ReplyUsage = Usage & { cachedTokens?: number };

/** OpenAI's `usage` object, the shape VS Code's Chat reads from a provider. */
export interface UsagePayload {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

export function usagePayload(usage: ReplyUsage): UsagePayload {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    ...(usage.cachedTokens !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cachedTokens } } : {}),
  };
}

/** The bytes of the data part: UTF-8 JSON. */
export function usagePayloadBytes(usage: ReplyUsage): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(usagePayload(usage)));
}

/** `12 prompt (4 cached) + 3 completion tokens`, for the log. */
export function describeUsage(usage: ReplyUsage): string {
  const cached = usage.cachedTokens !== undefined ? ` (${usage.cachedTokens} cached)` : '';
  return `${usage.promptTokens} prompt${cached} + ${usage.completionTokens} completion tokens`;
}
