import type * as http from 'node:http';
import { writeWithBackpressure } from './httpHelpers';
import type { ChatScenario } from './scenario';

const endOfLine = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;

/** Writes Server-Sent Events in the framing the scenario asks for (line ends, comments, extra fields). */
export class SseWriter {
  private events = 0;
  private readonly eol: string;

  constructor(
    private readonly response: http.ServerResponse,
    private readonly chat: ChatScenario,
    private readonly signal: AbortSignal,
  ) {
    this.eol = endOfLine[chat.framing];
  }

  /** Sends the status and headers now, so the client sees the stream open before the first event. */
  open(): void {
    this.response.writeHead(200, {
      'content-type': this.chat.streamContentType ?? 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    this.response.flushHeaders();
  }

  /** One event carrying a JSON value; false when the client is gone. */
  json(value: unknown): Promise<boolean> {
    const dataLines = this.chat.multiLineData ? JSON.stringify(value, null, 1).split('\n') : [JSON.stringify(value)];
    return this.send(dataLines);
  }

  done(): Promise<boolean> {
    return this.send(['[DONE]']);
  }

  /** A plain event with one data line and no extras, for prebuilt (benchmark) templates. */
  plainEvent(data: string): string {
    return `data: ${data}${this.eol}${this.eol}`;
  }

  raw(bytes: Buffer | string): Promise<boolean> {
    return writeWithBackpressure(this.response, bytes, this.signal);
  }

  private send(dataLines: string[]): Promise<boolean> {
    const lines: string[] = [];
    if (this.chat.comments && this.events > 0) lines.push(': PING', '');
    if (this.chat.eventFields) {
      lines.push('event: message', `id: ${this.events}`);
      if (this.events === 0) lines.push('retry: 3000');
    }
    for (const line of dataLines) lines.push(`data: ${line}`);
    this.events += 1;
    return this.raw(lines.join(this.eol) + this.eol + this.eol);
  }
}
