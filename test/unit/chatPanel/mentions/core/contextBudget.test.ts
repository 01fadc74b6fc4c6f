import * as assert from 'node:assert/strict';
import { createConversation, addUserMessage } from '../../../../../src/chatPanel/core/conversation';
import { userPromptText } from '../../../../../src/chatPanel/core/contextPrompt';
import type { Mention } from '../../../../../src/chatPanel/core/model';
import { applyTrims, contextBudget, fairCap, mentionTokens } from '../../../../../src/chatPanel/mentions/core/contextBudget';

function mention(id: string, chars: number): Mention {
  const content = Array.from({ length: Math.ceil(chars / 10) }, (_, i) => `line ${String(i).padStart(4, '0')}`)
    .join('\n')
    .slice(0, chars);
  const base = { id, kind: 'file' as const, label: `${id}.ts`, content, tokens: 0 };
  return { ...base, tokens: mentionTokens(base) };
}

const limits = { model: 'm', contextWindow: 10_000, reservedForReply: 2_000 };

describe('context budget and trimming', () => {
  it('finds the one cap that fits: the largest are cut to the same size, the small ones stay whole', () => {
    assert.equal(fairCap([100, 50, 10], 1_000), 100);
    assert.equal(fairCap([100, 50, 10], 130), 70);
    assert.equal(fairCap([100, 50, 10], 100), 45);
    assert.equal(fairCap([100, 100], 100), 50);
    assert.equal(fairCap([100], -5), 0);
  });

  it('trims nothing when everything fits, and counts the history and the draft', () => {
    const conversation = createConversation({}, 0);
    addUserMessage(conversation, { text: 'x'.repeat(400) });
    const budget = contextBudget(limits, conversation, { images: [], mentions: [mention('a', 4_000)] }, 'hello');
    assert.deepEqual(budget.trims, []);
    assert.equal(budget.overflowTokens, 0);
    assert.ok(budget.historyTokens >= 100, `history ${budget.historyTokens}`);
    assert.ok(budget.draftTokens >= 1_000, `draft ${budget.draftTokens}`);
  });

  it('cuts the largest mention first, says so, and the sent text says it was cut', () => {
    const big = mention('big', 40_000);
    const small = mention('small', 2_000);
    const conversation = createConversation({}, 0);
    const budget = contextBudget(limits, conversation, { images: [], mentions: [small, big] });
    assert.equal(budget.trims.length, 1);
    assert.equal(budget.trims[0]!.id, 'big');
    assert.equal(budget.trims[0]!.fromTokens, big.tokens);
    assert.ok(budget.trims[0]!.toTokens < big.tokens);
    assert.equal(budget.overflowTokens, 0);
    const [keptSmall, cutBig] = applyTrims([small, big], budget);
    assert.equal(keptSmall, small, 'a mention that fits is sent whole');
    assert.equal(cutBig!.trimmedFrom, big.tokens);
    assert.ok(cutBig!.content.length < big.content.length);
    assert.ok(big.content.startsWith(cutBig!.content), 'the start of the text is kept');
    assert.ok(!cutBig!.content.endsWith('line'), 'cut at a line end');
    const sent = userPromptText('why?', undefined, [keptSmall!, cutBig!]);
    assert.match(sent, /big\.ts \(cut to fit the context window: \d+ of \d+ tokens\):/);
    // What is sent fits in the window the meter showed.
    assert.ok(Math.ceil(sent.length / 4) <= limits.contextWindow - limits.reservedForReply, `sent ${Math.ceil(sent.length / 4)} tokens`);
  });

  it('reports the overflow the history alone causes', () => {
    const conversation = createConversation({}, 0);
    addUserMessage(conversation, { text: 'y'.repeat(40_000) });
    const budget = contextBudget(limits, conversation, { images: [], mentions: [mention('a', 400)] });
    assert.equal(budget.trims.length, 1);
    assert.equal(budget.trims[0]!.toTokens, 0);
    assert.ok(budget.overflowTokens > 1_000, `overflow ${budget.overflowTokens}`);
  });

  it('counts images and the system prompt', () => {
    const withImage = contextBudget(limits, createConversation({ systemPrompt: 'Be brief.' }, 0), {
      images: [{ name: 'a.png', mimeType: 'image/png', size: 10, dataUrl: 'data:image/png;base64,AAAA' }],
      mentions: [],
    });
    const without = contextBudget(limits, createConversation({}, 0), { images: [], mentions: [] });
    assert.ok(withImage.draftTokens - without.draftTokens >= 765);
    assert.ok(withImage.historyTokens > without.historyTokens);
  });
});
