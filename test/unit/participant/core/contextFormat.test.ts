import * as assert from 'node:assert/strict';
import {
  explainRequest,
  fenced,
  formatContext,
  MAX_CONTEXT_CHARS,
  questionWithContext,
  withoutDuplicates,
} from '../../../../src/participant/core/contextFormat';

describe('participant: context text', () => {
  it('fences code under its label, with the language', () => {
    assert.equal(
      formatContext([{ label: 'src/a.ts:1-2', languageId: 'typescript', text: 'const a = 1;\nconst b = 2;' }]),
      'src/a.ts:1-2:\n```typescript\nconst a = 1;\nconst b = 2;\n```',
    );
  });

  it('uses a longer fence than any backtick run in the text', () => {
    assert.equal(fenced('see ```js\nx\n```', 'md'), '````md\nsee ```js\nx\n```\n````');
    assert.equal(fenced('`````'), '``````\n`````\n``````');
  });

  it('puts the question first and the context after it', () => {
    assert.equal(questionWithContext('Why?', []), 'Why?');
    assert.equal(questionWithContext('Why?', [{ label: 'README.md', text: '# Hi\n' }]), 'Why?\n\nContext:\n\nREADME.md:\n```\n# Hi\n```');
  });

  it('cuts the context at the budget and says how much was left out', () => {
    const big = 'x'.repeat(MAX_CONTEXT_CHARS - 10);
    const text = formatContext([
      { label: 'one', text: big },
      { label: 'two', text: 'y'.repeat(30) },
      { label: 'three', text: 'never included' },
    ]);
    assert.ok(text.includes('two:\n```\nyyyyyyyyyy\n… (cut: 20 more characters)\n```'), text.slice(-120));
    assert.ok(!text.includes('three'));
  });

  it("asks to explain the code, with the user's own words", () => {
    const request = explainRequest([{ label: 'a.py:3', languageId: 'python', text: 'print(1)' }], '  the loop ');
    assert.match(request, /^Explain this code: what it does, how it works step by step/);
    assert.match(request, /In particular: the loop\n\na\.py:3:\n```python\nprint\(1\)\n```$/);
    assert.match(
      explainRequest(
        [
          { label: 'a', text: 'x' },
          { label: 'b', text: 'y' },
        ],
        '',
      ),
      /^Explain this code \(in several parts\)/,
    );
  });
});

describe('participant: duplicate context', () => {
  const file = 'file:///w/a.ts';
  const item = (label: string, source?: { uri: string; lines?: { start: number; end: number } }) => ({ label, text: label, ...(source ? { source } : {}) });

  it('drops a selection that an attached file or a larger attached range contains', () => {
    const selection = item('selection', { uri: file, lines: { start: 2, end: 4 } });
    assert.deepEqual(
      withoutDuplicates([selection, item('file', { uri: file })]).map((entry) => entry.label),
      ['file'],
    );
    assert.deepEqual(
      withoutDuplicates([selection, item('range', { uri: file, lines: { start: 0, end: 9 } })]).map((entry) => entry.label),
      ['range'],
    );
  });

  it('keeps one of two identical items, and everything that does not overlap', () => {
    const same = { uri: file, lines: { start: 2, end: 4 } };
    assert.deepEqual(
      withoutDuplicates([item('first', same), item('second', same)]).map((entry) => entry.label),
      ['first'],
    );
    const kept = withoutDuplicates([
      item('a', { uri: file, lines: { start: 0, end: 1 } }),
      item('b', { uri: file, lines: { start: 1, end: 3 } }),
      item('other', { uri: 'file:///w/b.ts' }),
      item('text'),
    ]);
    assert.deepEqual(
      kept.map((entry) => entry.label),
      ['a', 'b', 'other', 'text'],
    );
  });
});
