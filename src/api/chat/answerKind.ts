import type { Readable } from 'node:stream';
import { peekBody, type PeekedBody } from './peekedBody';

/** What a 200 to a streamed chat request carries: an event stream, a whole JSON answer, or something else. */
export type AnswerKind = 'events' | 'json' | 'other';

/** An event stream begins with a field (`data:`, `event:`, `id:`, `retry:`) or a comment (`:`). */
const SSE_START = /^[:deir]$/;

/**
 * Tells the answer to a streamed request apart, keeping its body whole. Labelled `text/event-stream`, it is taken
 * at its first character (a gateway that ignored `stream: true` may still label JSON as a stream). Labelled anything
 * else (or nothing), it is a stream only if its start really parses as one: lines of SSE fields or comments up to a
 * complete event carrying data. `rate limit exceeded` in text/plain starts like `retry:` but is no stream.
 */
export async function peekAnswer(body: Readable, contentType: string | undefined): Promise<{ kind: AnswerKind; peeked: PeekedBody }> {
  if (/^\s*text\/event-stream\s*(;|$)/i.test(contentType ?? '')) {
    const peeked = await peekBody(body);
    return { peeked, kind: peeked.failed || SSE_START.test(peeked.first) ? 'events' : peeked.first === '{' ? 'json' : 'other' };
  }
  const evidence = new EventStreamEvidence();
  const peeked = await peekBody(body, (text) => evidence.feed(text) !== undefined);
  const verdict = evidence.verdict;
  if (verdict === true || (verdict === undefined && peeked.failed)) return { peeked, kind: 'events' };
  return { peeked, kind: peeked.first === '{' ? 'json' : 'other' };
}

/** The SSE field names (WHATWG HTML, "Server-sent events"). */
const FIELD_LINE = /^(?::|(?:data|event|id|retry)(?::|$))/;

/** Reads the start of a body line by line: true once an event with data is complete, false at a line no stream has. */
class EventStreamEvidence {
  verdict: boolean | undefined;
  private pending = '';
  private started = false;
  private sawData = false;

  /** The verdict after this piece of text; undefined while it is open. */
  feed(text: string): boolean | undefined {
    if (this.verdict !== undefined) return this.verdict;
    this.pending += this.started ? text : text.replace(/^\uFEFF/, '');
    this.started ||= this.pending !== '';
    for (;;) {
      const end = /\r\n|\r(?=[^\n])|\n/.exec(this.pending);
      if (!end) return undefined;
      const line = this.pending.slice(0, end.index);
      this.pending = this.pending.slice(end.index + end[0].length);
      if (line === '') {
        if (this.sawData) return (this.verdict = true);
      } else if (FIELD_LINE.test(line)) {
        this.sawData ||= line.startsWith('data');
      } else {
        return (this.verdict = false);
      }
    }
  }
}
