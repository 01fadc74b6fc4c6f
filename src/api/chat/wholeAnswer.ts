import { ApiError } from '../errors';
import { parseErrorBody } from '../errorBodies';
import { hintForStatus } from '../httpErrors';
import type { ChatCompletion, ChatStreamEvent } from './events';
import { t } from '../l10n';

/**
 * What a streamed request gets when the gateway answered 200 without an event stream: a whole `chat.completion`
 * (some gateways ignore `stream: true`) is the reply; an error object is the service's error; anything else is
 * described by the start of what arrived (`quoted`, by the transport that received it).
 */
export function wholeAnswerEvents(
  text: string,
  contentType: string | undefined,
  parse: (raw: unknown) => ChatCompletion,
  quoted: () => string,
): Iterable<ChatStreamEvent> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw notAStream(quoted());
  }
  if (isCompletion(json)) return completionEvents(parse(json));
  const body = isErrorShaped(json) ? parseErrorBody(text, contentType) : undefined;
  if (body && (body.message !== undefined || body.code !== undefined)) {
    const status = body.code && /^\d{3}$/.test(body.code) ? Number(body.code) : undefined;
    throw new ApiError({
      kind: 'stream',
      status,
      code: body.code,
      type: body.type,
      param: body.param,
      serverMessage: body.message,
      message: t('The service answered the chat request with an error: {0}', body.message ?? body.code ?? ''),
      hint: status || body.code ? hintForStatus(status ?? 0, body.code, body.param) : t('The service refused the request.'),
      retryable: false,
    });
  }
  throw notAStream(quoted());
}

/** `{"error": …}`, or the task routes' `{"code", "message"}`. */
function isErrorShaped(json: unknown): boolean {
  if (typeof json !== 'object' || json === null) return false;
  return 'error' in json || 'message' in json || 'msg' in json || 'code' in json;
}

function isCompletion(json: unknown): boolean {
  return typeof json === 'object' && json !== null && Array.isArray((json as { choices?: unknown }).choices);
}

/** A whole completion as the events a stream of it would have given. */
export function* completionEvents(completion: ChatCompletion): Generator<ChatStreamEvent> {
  if (completion.requestId) yield { type: 'request-id', requestId: completion.requestId };
  yield { type: 'role', role: 'assistant' };
  if (completion.reasoning) yield { type: 'reasoning', text: completion.reasoning };
  if (completion.text) yield { type: 'text', text: completion.text };
  if (completion.toolCalls.length > 0) yield { type: 'tool-calls', calls: completion.toolCalls };
  yield { type: 'finish', reason: completion.finishReason };
  if (completion.usage) yield { type: 'usage', usage: completion.usage };
}

/** `quoted`: what arrived, as the transport quotes it (`Transport.quote`). */
export function notAStream(quoted: string): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    message: t('The chat request: the service answered without an event stream ({0}).', quoted),
    hint: t('The base URL may point at a web page or a proxy rather than the API: check promptreel.baseUrl, then see the logs.'),
    retryable: false,
  });
}
