import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { InsertionTracker, moveRange, type OffsetRange, type TextChange } from '../../../../src/editorStream/core/insertionTracker';

const range = (start: number, end: number): OffsetRange => ({ start, end });
const change = (offset: number, length: number, text: string): TextChange => ({ offset, length, text });

function apply(text: string, { offset, length, text: inserted }: TextChange): string {
  return text.slice(0, offset) + inserted + text.slice(offset + length);
}

describe('moveRange: where a change by someone else leaves the tracked text', () => {
  it('shifts the range by what was typed or deleted before it', () => {
    assert.deepEqual(moveRange(range(10, 20), change(2, 0, 'abc')), range(13, 23));
    assert.deepEqual(moveRange(range(10, 20), change(2, 5, '')), range(5, 15));
    assert.deepEqual(moveRange(range(10, 20), change(2, 5, 'xy')), range(7, 17));
  });

  it('shifts it when the change ends exactly where it starts', () => {
    assert.deepEqual(moveRange(range(10, 20), change(7, 3, '')), range(7, 17));
    assert.deepEqual(moveRange(range(10, 20), change(10, 0, 'ab')), range(12, 22), 'typing right before the range pushes it');
    assert.deepEqual(moveRange(range(10, 10), change(10, 0, 'ab')), range(12, 12), 'also before anything was written');
  });

  it('leaves it alone for a change after it', () => {
    assert.deepEqual(moveRange(range(10, 20), change(25, 0, 'x')), range(10, 20));
    assert.deepEqual(moveRange(range(10, 20), change(20, 4, '')), range(10, 20), 'deleting from its end onwards');
    assert.deepEqual(moveRange(range(10, 20), change(21, 0, 'x')), range(10, 20));
  });

  it('reports a conflict for a change inside, across, or appended to it', () => {
    assert.equal(moveRange(range(10, 20), change(15, 0, 'x')), undefined, 'typing inside');
    assert.equal(moveRange(range(10, 20), change(8, 4, '')), undefined, 'deleting across the start');
    assert.equal(moveRange(range(10, 20), change(18, 4, 'y')), undefined, 'replacing across the end');
    assert.equal(moveRange(range(10, 20), change(20, 0, 'z')), undefined, 'typing at its end, where the next text goes');
    assert.equal(moveRange(range(10, 20), change(0, 30, '')), undefined, 'deleting all of it');
  });

  it('ignores an empty change', () => {
    assert.deepEqual(moveRange(range(10, 20), change(20, 0, '')), range(10, 20));
  });

  it('keeps the range on the same text for any change outside it (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.string({ maxLength: 5 }),
        (text, a, b, c, d, inserted) => {
          const [start, end] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y);
          const offset = c % (text.length + 1);
          const length = d % (text.length - offset + 1);
          const edit = change(offset, length, inserted);
          const moved = moveRange(range(start, end), edit);
          if (!moved) return;
          const after = apply(text, edit);
          assert.equal(after.slice(moved.start, moved.end), text.slice(start, end));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('InsertionTracker', () => {
  it('grows the range with the own edits it was told to expect', () => {
    const tracker = new InsertionTracker(range(5, 5));
    tracker.expect(change(5, 0, 'abc'));
    tracker.accept([change(5, 0, 'abc')]);
    assert.equal(tracker.takeSeen(), true);
    assert.deepEqual(tracker.range, range(5, 8));
    tracker.expect(change(8, 0, 'de'));
    tracker.accept([change(8, 0, 'de')]);
    assert.equal(tracker.takeSeen(), true);
    assert.deepEqual(tracker.range, range(5, 10));
    assert.equal(tracker.conflict, false);
  });

  it('replaces the selection with the first own edit', () => {
    const tracker = new InsertionTracker(range(4, 12));
    tracker.expect(change(4, 8, 'new'));
    tracker.accept([change(4, 8, 'new')]);
    assert.equal(tracker.takeSeen(), true);
    assert.deepEqual(tracker.range, range(4, 7));
  });

  it('moves with edits elsewhere between own edits, in the order of the event', () => {
    const tracker = new InsertionTracker(range(10, 10));
    tracker.expect(change(10, 0, 'hello'));
    tracker.accept([change(10, 0, 'hello')]);
    tracker.takeSeen();
    // One event with two changes (e.g. two cursors): one after, one before the range.
    tracker.accept([change(30, 0, '!'), change(0, 0, '// ')]);
    assert.deepEqual(tracker.range, range(13, 18));
    tracker.expect(change(18, 0, ' world'));
    tracker.accept([change(18, 0, ' world')]);
    assert.equal(tracker.takeSeen(), true);
    assert.deepEqual(tracker.range, range(13, 24));
  });

  it('does not mistake an edit of the user for the own edit it waits for', () => {
    const tracker = new InsertionTracker(range(10, 15));
    tracker.expect(change(15, 0, 'xyz'));
    tracker.accept([change(0, 0, 'xyz')]);
    assert.equal(tracker.takeSeen(), false, 'the own edit did not come back (VS Code refused it: the document changed)');
    assert.deepEqual(tracker.range, range(13, 18));
  });

  it('becomes conflicted when the user edits the written text, and stays so', () => {
    const tracker = new InsertionTracker(range(10, 15));
    tracker.accept([change(12, 1, '')]);
    assert.equal(tracker.conflict, true);
    tracker.accept([change(0, 0, 'a')]);
    assert.equal(tracker.conflict, true);
  });

  it('follows a stream and random edits of the user outside the text (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.nat(3), fc.string({ minLength: 1, maxLength: 4 })), { maxLength: 30 }), (steps) => {
        let text = 'function main() {\n  \n}\n';
        const tracker = new InsertionTracker(range(20, 20));
        let written = '';
        for (const [own, position, length, piece] of steps) {
          const { start, end } = tracker.range;
          if (own) {
            const edit = change(end, 0, piece);
            tracker.expect(edit);
            text = apply(text, edit);
            tracker.accept([edit]);
            assert.equal(tracker.takeSeen(), true);
            written += piece;
          } else {
            // A user edit strictly before or after the written text.
            const before = position % 2 === 0;
            const offset = before ? position % (start + 1) : end + 1 + (position % (text.length - end + 1));
            if (offset > text.length) continue;
            const size = before ? Math.min(length, start - offset) : Math.min(length, text.length - offset);
            const edit = change(offset, size, piece);
            text = apply(text, edit);
            tracker.accept([edit]);
          }
          assert.equal(tracker.conflict, false);
          assert.equal(text.slice(tracker.range.start, tracker.range.end), written);
        }
      }),
      { numRuns: 500 },
    );
  });
});
