/**
 * Removes a Markdown code fence wrapping a streamed reply (```lang … ```), whatever the chunk boundaries: models
 * asked for "only the code" often add one anyway. Text is passed on as soon as it cannot be part of a fence line;
 * only a possible fence line (and the line break before it) is held back. Everything after the closing fence
 * (usually an explanation nobody asked for) is dropped. A reply that does not open with a fence passes through.
 */
export class FenceStripper {
  private state: 'start' | 'fenced' | 'closed' | 'plain' = 'start';
  /** Text not passed on yet: the start of the reply, the current line while it may be a closing fence, or a CR. */
  private held = '';
  /** A line break held back because the line after it may be the closing fence (which owns that break). */
  private heldBreak = '';
  /** Whether `held` starts at the beginning of a line. */
  private atLineStart = true;
  private fenceChar = '`';
  private fenceLength = 3;

  push(chunk: string): string {
    switch (this.state) {
      case 'plain':
        return chunk;
      case 'closed':
        return '';
      case 'start':
        this.held += chunk;
        return this.fromStart();
      case 'fenced':
        return this.fromFenced(chunk);
    }
  }

  /** What is still held back when the stream ends (a closing fence is dropped, anything else is given). */
  flush(): string {
    const held = this.held;
    const heldBreak = this.heldBreak;
    this.held = '';
    this.heldBreak = '';
    switch (this.state) {
      case 'start':
        // The whole reply is an opening fence line without a line break: nothing to insert.
        return openingFence(held.trimStart()) ? '' : held;
      case 'fenced':
        return this.atLineStart && this.isClosingFence(held.replace(/\r$/, '')) ? '' : heldBreak + held;
      default:
        return '';
    }
  }

  private fromStart(): string {
    const body = this.held.trimStart();
    if (body === '') return '';
    const fence = openingFence(body);
    if (!fence) {
      if (couldOpenFence(body)) return '';
      return this.passThrough();
    }
    const lineEnd = body.indexOf('\n');
    const infoEnd = lineEnd < 0 ? body.length : lineEnd;
    // CommonMark: the info string of a backtick fence has no backtick, so "```x```" is inline code, not a fence.
    if (fence[0] === '`' && body.slice(fence.length, infoEnd).includes('`')) return this.passThrough();
    if (lineEnd < 0) return '';
    this.state = 'fenced';
    this.fenceChar = fence[0];
    this.fenceLength = fence.length;
    this.held = '';
    this.atLineStart = true;
    return this.fromFenced(body.slice(lineEnd + 1));
  }

  private passThrough(): string {
    this.state = 'plain';
    const text = this.held;
    this.held = '';
    return text;
  }

  private fromFenced(chunk: string): string {
    let rest = this.held + chunk;
    this.held = '';
    let out = '';
    for (;;) {
      const lineEnd = rest.indexOf('\n');
      if (!this.atLineStart) {
        // The current line already started with ordinary text: pass it on up to its line break (held back).
        if (lineEnd < 0) return out + this.holdCarriageReturn(rest);
        const line = rest.slice(0, lineEnd);
        const crlf = line.endsWith('\r');
        out += crlf ? line.slice(0, -1) : line;
        this.heldBreak = crlf ? '\r\n' : '\n';
        this.atLineStart = true;
        rest = rest.slice(lineEnd + 1);
        continue;
      }
      if (lineEnd < 0) {
        if (this.couldBeClosingFence(rest)) {
          this.held = rest;
          return out;
        }
        out += this.heldBreak + this.holdCarriageReturn(rest);
        this.heldBreak = '';
        this.atLineStart = false;
        return out;
      }
      const line = rest.slice(0, lineEnd);
      const crlf = line.endsWith('\r');
      const content = crlf ? line.slice(0, -1) : line;
      if (this.isClosingFence(content)) {
        this.state = 'closed';
        this.heldBreak = '';
        return out;
      }
      out += this.heldBreak + content;
      this.heldBreak = crlf ? '\r\n' : '\n';
      rest = rest.slice(lineEnd + 1);
    }
  }

  /** A CR at the end may be the first half of a CRLF line break, which is held back like any line break. */
  private holdCarriageReturn(text: string): string {
    if (!text.endsWith('\r')) return text;
    this.held = '\r';
    return text.slice(0, -1);
  }

  private isClosingFence(line: string): boolean {
    const match = /^ {0,3}([`~]+)[ \t]*$/.exec(line);
    return !!match && match[1][0] === this.fenceChar && match[1].length >= this.fenceLength && [...match[1]].every((c) => c === this.fenceChar);
  }

  /** Whether an unfinished line may still turn out to be the closing fence. */
  private couldBeClosingFence(partial: string): boolean {
    const match = /^ {0,3}([`~]*)([ \t]*)\r?$/.exec(partial);
    if (!match) return false;
    const [, marks, space] = match;
    if (![...marks].every((c) => c === this.fenceChar)) return false;
    return space === '' || marks.length >= this.fenceLength;
  }
}

/** The fence marker (``` or ~~~, three or more) a text starts with, if any. */
function openingFence(text: string): string | undefined {
  return /^(`{3,}|~{3,})/.exec(text)?.[1];
}

/** A start such as "`" or "~~" that more text could turn into a fence. */
function couldOpenFence(text: string): boolean {
  return /^(`{1,2}|~{1,2})$/.test(text);
}
