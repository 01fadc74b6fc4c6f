import * as assert from 'assert';
import { estimateMessageTokens, estimateTextTokens } from '../../../src/chatRequest/tokenEstimate';

describe('language models: token estimate', () => {
  it('counts about four characters a token, rounded up', () => {
    assert.strictEqual(estimateTextTokens(''), 0);
    assert.strictEqual(estimateTextTokens('abc'), 1);
    assert.strictEqual(estimateTextTokens('a'.repeat(40)), 10);
    assert.strictEqual(estimateTextTokens('a'.repeat(41)), 11);
  });

  it('adds a per-message overhead, and counts tool calls, results and images', () => {
    assert.strictEqual(estimateMessageTokens({ role: 'user', parts: [{ kind: 'text', text: 'a'.repeat(40) }] }), 14);
    assert.strictEqual(estimateMessageTokens({ role: 'assistant', parts: [{ kind: 'tool-call', callId: 'c', name: 'abcd', input: { a: 1 } }] }), 4 + 3 + 4);
    assert.strictEqual(
      estimateMessageTokens({ role: 'user', parts: [{ kind: 'tool-result', callId: 'c', parts: [{ kind: 'text', text: 'abcdefgh' }] }] }),
      4 + 4 + 2,
    );
    assert.strictEqual(estimateMessageTokens({ role: 'user', parts: [{ kind: 'data', mimeType: 'image/png', data: new Uint8Array(10) }] }), 4 + 765);
  });

  it('grows with the text (never fewer tokens for more text)', () => {
    let previous = 0;
    for (let length = 0; length < 200; length += 7) {
      const count = estimateTextTokens('x'.repeat(length));
      assert.ok(count >= previous);
      previous = count;
    }
  });
});
