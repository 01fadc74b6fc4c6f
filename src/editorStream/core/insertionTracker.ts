/** A range of a document in character offsets, `start <= end`. */
export interface OffsetRange {
  readonly start: number;
  readonly end: number;
}

/** One content change as VS Code reports it: `length` characters at `offset` replaced by `text`. */
export interface TextChange {
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

/**
 * Where a change by someone else leaves the tracked range: moved along (a change before it), unchanged (after it),
 * or undefined when the change touches the range itself. Typing right before the range pushes it; typing right
 * after text already inserted counts as editing it (that is where the next streamed text goes).
 */
export function moveRange(range: OffsetRange, change: TextChange): OffsetRange | undefined {
  const { offset, length, text } = change;
  if (length === 0 && text === '') return range;
  const delta = text.length - length;
  if (length === 0 && offset === range.start) return shift(range, delta);
  if (offset + length <= range.start) return shift(range, delta);
  if (offset > range.end || (offset === range.end && length > 0)) return range;
  return undefined;
}

function shift(range: OffsetRange, delta: number): OffsetRange {
  return { start: range.start + delta, end: range.end + delta };
}

/**
 * Follows the text a stream writes into a document while the user may edit elsewhere. The range starts as the
 * text to replace (the selection; empty at a cursor); the first own edit replaces it, later own edits append at
 * its end. Own edits are announced with `expect` and recognised when their change comes back; any other change
 * moves the range, or, if it touches the range, marks the tracker as conflicted.
 */
export class InsertionTracker {
  private current: OffsetRange;
  private expected: TextChange | undefined;
  private seen = false;
  private conflicted = false;

  constructor(range: OffsetRange) {
    this.current = range;
  }

  get range(): OffsetRange {
    return this.current;
  }

  get conflict(): boolean {
    return this.conflicted;
  }

  /** Announces the next own edit; returns the change it should produce. */
  expect(change: TextChange): void {
    this.expected = change;
    this.seen = false;
  }

  /** Whether the announced own edit came back (then it is forgotten). */
  takeSeen(): boolean {
    const seen = this.seen;
    this.expected = undefined;
    this.seen = false;
    return seen;
  }

  /** Accepts the changes of one document event, in the order VS Code lists them. */
  accept(changes: readonly TextChange[]): void {
    for (const change of changes) {
      if (this.conflicted) return;
      const expected = this.expected;
      if (expected && !this.seen && sameChange(expected, change)) {
        this.seen = true;
        this.current = { start: this.current.start, end: this.current.end + change.text.length - change.length };
        continue;
      }
      const moved = moveRange(this.current, change);
      if (moved) this.current = moved;
      else this.conflicted = true;
    }
  }
}

function sameChange(a: TextChange, b: TextChange): boolean {
  return a.offset === b.offset && a.length === b.length && a.text === b.text;
}
