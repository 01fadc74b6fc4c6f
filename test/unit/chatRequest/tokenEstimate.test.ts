import * as assert from 'node:assert/strict';
import { estimateMessageTokens, estimateTextTokens } from '../../../src/chatRequest/tokenEstimate';

describe('language models: token estimate', () => {
  it('counts about four characters a token, rounded up', () => {
    assert.equal(estimateTextTokens(''), 0);
    assert.equal(estimateTextTokens('abc'), 1);
    assert.equal(estimateTextTokens('a'.repeat(40)), 10);
    assert.equal(estimateTextTokens('a'.repeat(41)), 11);
  });

  it('adds a per-message overhead, and counts tool calls, results and images', () => {
    assert.equal(estimateMessageTokens({ role: 'user', parts: [{ kind: 'text', text: 'a'.repeat(40) }] }), 14);
    assert.equal(estimateMessageTokens({ role: 'assistant', parts: [{ kind: 'tool-call', callId: 'c', name: 'abcd', input: { a: 1 } }] }), 4 + 3 + 4);
    assert.equal(
      estimateMessageTokens({ role: 'user', parts: [{ kind: 'tool-result', callId: 'c', parts: [{ kind: 'text', text: 'abcdefgh' }] }] }),
      4 + 4 + 2,
    );
    assert.equal(estimateMessageTokens({ role: 'user', parts: [{ kind: 'data', mimeType: 'image/png', data: new Uint8Array(10) }] }), 4 + 765);
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
