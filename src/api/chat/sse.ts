import { createParser } from 'eventsource-parser';
import { abortedError, isApiError } from '../errors';
import type { ApiLogger } from '../logger';
import { ChatStreamDecoder } from './decoder';
import type { ChatStreamEvent } from './events';

/**
 * Reads an SSE body (any chunking, LF/CR/CRLF, comments, multi-line data, `event:` lines) and yields chat events.
 * Ends normally only after `[DONE]` and a finish reason; any other end is a "cut off" ApiError carrying the text so far.
 */
export async function* decodeChatStream(
  body: AsyncIterable<Uint8Array>,
  options: { signal?: AbortSignal; log?: ApiLogger } = {},
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  const decoder = new ChatStreamDecoder(options.log);
  const textDecoder = new TextDecoder();
  const pending: ChatStreamEvent[] = [];
  let failure: unknown;
  const parser = createParser({
    onEvent(event) {
      if (failure !== undefined || decoder.done) return;
      try {
        decoder.accept(event.data, pending);
      } catch (error) {
        failure = error;
      }
    },
  });

  try {
    for await (const chunk of body) {
      parser.feed(textDecoder.decode(chunk, { stream: true }));
      for (let i = 0; i < pending.length; i++) yield pending[i];
      pending.length = 0;
      if (failure !== undefined) throw failure;
      if (decoder.done) break;
    }
  } catch (error) {
    if (options.signal?.aborted) throw abortedError(options.signal.reason);
    if (isApiError(error)) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    throw decoder.cutOffError(code === 'UND_ERR_BODY_TIMEOUT' ? 'the service stopped sending' : 'the connection was closed', error);
  }

  if (!decoder.done) {
    // Ends the last line and event: a trailing CR is otherwise held back waiting for a possible LF.
    parser.feed(`${textDecoder.decode()}\n\n`);
    for (const event of pending) yield event;
    pending.length = 0;
    if (failure !== undefined) throw failure;
    if (!decoder.done) throw decoder.cutOffError('the stream ended without [DONE]');
  }
  if (!decoder.finished) throw decoder.cutOffError('the stream ended without a finish reason');
}
