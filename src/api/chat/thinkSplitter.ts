export interface SplitPiece {
  kind: 'text' | 'reasoning';
  text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Separates a `<think>…</think>` block at the start of streamed content from the answer, whatever the chunk
 * boundaries. Only a block that opens the content counts: a reply that later mentions `<think>` is left alone.
 */
export class ThinkSplitter {
  private state: 'start' | 'thinking' | 'answer' = 'start';
  private pending = '';

  push(input: string): SplitPiece[] {
    if (this.state === 'answer') return input ? [{ kind: 'text', text: input }] : [];
    const text = this.pending + input;
    this.pending = '';
    return this.state === 'start' ? this.fromStart(text) : this.fromThinking(text);
  }

  /** What is still held back when the stream ends. */
  flush(): SplitPiece[] {
    const rest = this.pending;
    this.pending = '';
    if (!rest) return [];
    return [{ kind: this.state === 'thinking' ? 'reasoning' : 'text', text: rest }];
  }

  private fromStart(text: string): SplitPiece[] {
    const body = text.trimStart();
    if (body.startsWith(OPEN)) {
      this.state = 'thinking';
      return this.fromThinking(body.slice(OPEN.length));
    }
    if (OPEN.startsWith(body)) {
      this.pending = text; // maybe the beginning of "<think>": wait for more
      return [];
    }
    this.state = 'answer';
    return [{ kind: 'text', text }];
  }

  private fromThinking(text: string): SplitPiece[] {
    const end = text.indexOf(CLOSE);
    if (end >= 0) {
      this.state = 'answer';
      const pieces: SplitPiece[] = [];
      if (end > 0) pieces.push({ kind: 'reasoning', text: text.slice(0, end) });
      const after = text.slice(end + CLOSE.length).replace(/^\s+/, '');
      if (after) pieces.push({ kind: 'text', text: after });
      return pieces;
    }
    const keep = partialSuffix(text, CLOSE);
    this.pending = text.slice(text.length - keep);
    const now = text.slice(0, text.length - keep);
    return now ? [{ kind: 'reasoning', text: now }] : [];
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
