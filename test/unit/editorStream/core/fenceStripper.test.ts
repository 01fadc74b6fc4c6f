import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FenceStripper } from '../../../../src/editorStream/core/fenceStripper';

/** Runs the stripper over the parts; also returns what had been passed on before the stream ended. */
function strip(parts: string[]): { text: string; beforeFlush: string } {
  const stripper = new FenceStripper();
  let text = '';
  for (const part of parts) text += stripper.push(part);
  const beforeFlush = text;
  return { text: text + stripper.flush(), beforeFlush };
}

function splitAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let last = 0;
  for (const point of points) {
    parts.push(text.slice(last, point));
    last = point;
  }
  parts.push(text.slice(last));
  return parts;
}

const CASES: [name: string, input: string, expected: string][] = [
  ['a wrapping fence with a language', '```ts\nconst a = 1;\nconst b = 2;\n```', 'const a = 1;\nconst b = 2;'],
  ['a wrapping fence without a language', '```\nreturn x;\n```\n', 'return x;'],
  ['leading blank lines before the fence', '\n\n```python\nprint(1)\n```', 'print(1)'],
  ['a tilde fence', '~~~js\nfoo();\n~~~', 'foo();'],
  ['a longer fence keeps shorter backtick lines', '````md\n```\ninner\n```\n````', '```\ninner\n```'],
  ['an explanation after the closing fence is dropped', '```ts\nx();\n```\n\nThis calls x.', 'x();'],
  ['CRLF line breaks', '```ts\r\na();\r\nb();\r\n```\r\n', 'a();\r\nb();'],
  ['indentation of the code is kept', '```py\n    return 1\n```', '    return 1'],
  ['an unclosed fence (cut-off reply) keeps its text', '```ts\nconst a = 1;\n', 'const a = 1;\n'],
  ['a blank line inside the code', '```\na\n\nb\n```', 'a\n\nb'],
  ['text without a fence passes through unchanged', 'return a + b;\n}', 'return a + b;\n}'],
  ['leading whitespace of unfenced text is kept', '  x = 1\n', '  x = 1\n'],
  ['inline triple backticks are not a fence', '```x``` rest', '```x``` rest'],
  ['a fence later in the reply is left alone', 'See:\n```\ncode\n```', 'See:\n```\ncode\n```'],
  ['single backticks are ordinary text', '`a` and `b`', '`a` and `b`'],
  ['a reply that is only an opening fence', '```ts', ''],
  ['an empty fenced block', '```\n```', ''],
  ['a closing-fence lookalike that is longer text', '```\na\n``` not a fence\n```', 'a\n``` not a fence'],
];

describe('FenceStripper', () => {
  for (const [name, input, expected] of CASES) {
    it(`${name}`, () => {
      assert.equal(strip([input]).text, expected);
    });
  }

  it('gives the same result whatever the chunk boundaries (every case, one character at a time)', () => {
    for (const [name, input, expected] of CASES) {
      assert.equal(strip([...input]).text, expected, name);
    }
  });

  it('gives the same result for any split (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CASES), fc.array(fc.nat(200), { maxLength: 12 }), ([, input, expected], cuts) => {
        assert.equal(strip(splitAt(input, cuts)).text, expected);
      }),
      { numRuns: 500 },
    );
  });

  it('never changes text without a fence, however it is split (property)', () => {
    const unfenced = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '`', '~', 'x', '\r') }).filter((text) => !/^\s*(```|~~~)/.test(text));
    fc.assert(
      fc.property(unfenced, fc.array(fc.nat(60), { maxLength: 8 }), (text, cuts) => {
        assert.equal(strip(splitAt(text, cuts)).text, text);
      }),
      { numRuns: 500 },
    );
  });

  it('passes code on while it streams, holding back only a possible fence line', () => {
    const stripper = new FenceStripper();
    assert.equal(stripper.push('``'), '', 'maybe the start of a fence');
    assert.equal(stripper.push('`ts'), '', 'the fence line is not complete');
    assert.equal(stripper.push('\nconst a'), 'const a', 'code goes out at once');
    assert.equal(stripper.push(' = 1;\n'), ' = 1;', 'the line break waits: the next line may be the closing fence');
    assert.equal(stripper.push('`'), '', 'a backtick at a line start may open the closing fence');
    assert.equal(stripper.push('x'), '\n`x', 'it did not: passed on with its line break');
    assert.equal(stripper.push('\n``'), '', 'held again');
    assert.equal(stripper.push('`'), '');
    assert.equal(stripper.push('\nignored'), '', 'the closing fence ends the code');
    assert.equal(stripper.flush(), '');
  });

  it('passes unfenced text on at once', () => {
    const stripper = new FenceStripper();
    assert.equal(stripper.push('\n'), '', 'leading whitespace waits for the first visible character');
    assert.equal(stripper.push('  return'), '\n  return');
    assert.equal(stripper.push(' 1;\n```'), ' 1;\n```');
  });

  it('holds back little: in a long fenced reply, all but the last line break is passed on before the end', () => {
    const code = Array.from({ length: 50 }, (_, i) => `line ${i};`).join('\n');
    const { beforeFlush, text } = strip(splitAt(`\`\`\`js\n${code}\n\`\`\``, [7, 50, 120, 300, 400]));
    assert.equal(text, code);
    assert.equal(beforeFlush, code);
  });
});
