import type * as http from 'node:http';
import { pause, sendText } from './httpHelpers';
import type { ChatScenario } from './scenario';

// Answers of gateways that misbehave: a streamed request answered without a stream, bodies without an end or that trickle.

/** What a gateway that ignored `stream: true` (or a proxy in front of it) sends with a 200. */
export function sendWholeAnswer(response: http.ServerResponse, chat: ChatScenario, completion: Record<string, unknown>): void {
  const typed = (fallback: string) => chat.streamContentType ?? fallback;
  switch (chat.streamAnswer) {
    case 'completion-json':
      sendText(response, 200, JSON.stringify(completion), typed('application/json'));
      return;
    case 'error-json':
      sendText(
        response,
        200,
        JSON.stringify({
          error: { message: 'upstream refused: model overloaded (request id: 2025112400000001)', type: 'upstream_error', code: 'model_overloaded' },
        }),
        typed('application/json'),
      );
      return;
    case 'html':
      sendText(
        response,
        200,
        '<!DOCTYPE html><html><head><title>Sign in - Corporate Proxy</title></head><body>Please sign in.</body></html>',
        typed('text/html'),
      );
      return;
    case 'text':
      sendText(response, 200, 'Service temporarily unavailable, please try again later.', typed('text/plain'));
      return;
    case 'rate-limit-text':
      sendText(response, 200, 'rate limit exceeded', typed('text/plain'));
      return;
    case 'empty':
      sendText(response, 200, '', typed('text/event-stream'));
      return;
    case 'sse':
      throw new Error('sendWholeAnswer is not for event streams');
  }
}

/**
 * Writes `prefix`, then `bytes` of filler, then `suffix`, in 64 KB pieces with back-pressure, stopping as soon as the
 * client goes away. Returns how many bytes were written (the tests compare it with what a full read would take).
 */
export async function writeRunaway(response: http.ServerResponse, signal: AbortSignal, prefix: string, bytes: number, suffix: string): Promise<number> {
  const piece = Buffer.alloc(64 * 1024, 'x');
  let written = 0;
  response.write(prefix);
  while (written < bytes && !signal.aborted) {
    const size = Math.min(piece.length, bytes - written);
    written += size;
    if (!response.write(size === piece.length ? piece : piece.subarray(0, size))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        response.once('drain', done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
  if (!signal.aborted) response.end(suffix);
  return written;
}

/** Answers 200 JSON, then one byte every `intervalMs` until the client goes away: no idle timeout ever fires. */
export async function trickleJson(response: http.ServerResponse, signal: AbortSignal, intervalMs: number): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"object":"list","data":[');
  while (await pause(intervalMs, signal)) response.write(' ');
}
