import { ApiError } from '../errors';
import { t } from '../l10n';

// How much of one reply Promptreel keeps: a gateway that streams without end, or calls tools without end, fails here
// rather than filling the extension host's memory (shared by every extension) or the tool loop.

/**
 * Characters of text, reasoning and tool-call arguments in one reply. Models stop at their output limit (tens of
 * thousands of tokens, a few hundred KB): 16 M characters is far past any of them.
 */
export const MAX_REPLY_CHARS = 16 * 1024 * 1024;

/** Tool calls in one reply: models call a handful at once; a hundred is already an odd reply. */
export const MAX_TOOL_CALLS = 128;

export function replyTooLarge(receivedChars: number): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    message: t('The reply was stopped: it passed {0} million characters, the most Promptreel reads of one reply.', MAX_REPLY_CHARS / (1024 * 1024)),
    hint: t('The service kept sending without ending the reply: check promptreel.baseUrl and the model, then see the logs.'),
    retryable: false,
    receivedChars,
  });
}

export function tooManyToolCalls(receivedChars?: number): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    message: t('The reply calls more than {0} tools, the most Promptreel takes from one reply: none of them was run.', MAX_TOOL_CALLS),
    hint: t('Ask for fewer things at once, or use another model.'),
    retryable: false,
    ...(receivedChars === undefined ? {} : { receivedChars }),
  });
}

/** The tool calls of a whole reply, once their number is known to be within MAX_TOOL_CALLS. */
export function checkToolCallCount<T>(calls: T[]): T[] {
  if (calls.length > MAX_TOOL_CALLS) throw tooManyToolCalls();
  return calls;
}
