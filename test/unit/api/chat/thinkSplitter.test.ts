import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ThinkSplitter, type SplitPiece } from '../../../../src/api/chat/thinkSplitter';

function run(parts: string[]): { text: string; reasoning: string } {
  const splitter = new ThinkSplitter();
  const pieces: SplitPiece[] = [];
  for (const part of parts) pieces.push(...splitter.push(part));
  pieces.push(...splitter.flush());
  return {
    text: pieces
      .filter((p) => p.kind === 'text')
      .map((p) => p.text)
      .join(''),
    reasoning: pieces
      .filter((p) => p.kind === 'reasoning')
      .map((p) => p.text)
      .join(''),
  };
}

function splitAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let last = 0;
  for (const point of points) {
    parts.push(text.slice(last, point));
    last = point;
  }
  parts.push(text.slice(last));
  return parts;
}

describe('<think> splitting', () => {
  it('separates a leading think block from the answer', () => {
    assert.deepEqual(run(['<think>plan it</think>\n\nThe answer']), { text: 'The answer', reasoning: 'plan it' });
  });

  it('leaves a later mention of <think> in the answer', () => {
    assert.deepEqual(run(['Use the ', '<think> tag']), { text: 'Use the <think> tag', reasoning: '' });
  });

  it('passes plain text straight through', () => {
    assert.deepEqual(run(['a', 'b', '<', 'c']), { text: 'ab<c', reasoning: '' });
  });

  it('an unterminated think block is all reasoning', () => {
    assert.deepEqual(run(['<think>still thinking']), { text: '', reasoning: 'still thinking' });
  });

  it('gives the same result for any chunking (property)', () => {
    const whole = '  <think>weigh a < b and </thin k> x</think>Answer: <think> is literal';
    const expected = run([whole]);
    assert.deepEqual(expected, { text: 'Answer: <think> is literal', reasoning: 'weigh a < b and </thin k> x' });
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        assert.deepEqual(run(splitAt(whole, cuts)), expected);
      }),
    );
  });
});
