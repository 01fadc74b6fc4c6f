import * as assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../src/api';
import { conversationToMarkdown } from '../../../../src/chatPanel/core/exportMarkdown';
import { conversationSchema, type AssistantMessage, type Conversation, type Cost } from '../../../../src/chatPanel/core/model';
import { conversationCost, estimateReplyTokens, formatCost, replyCost } from '../../../../src/chatPanel/core/replyCost';
import { conversationView } from '../../../../src/chatPanel/core/webviewViews';

const perToken = { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 } as const;
const perCall = { kind: 'per-call', usd: 0.4 } as const;
const never = () => {
  throw new Error('estimated although the service counted');
};

function reply(id: string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return { id, role: 'assistant', model: 'm', text: 'ok', reasoning: '', toolCalls: [], status: 'done', createdAt: 1, ...extra };
}

function chat(...messages: AssistantMessage[]): Conversation {
  return { id: 'c', title: 't', createdAt: 1, updatedAt: 1, options: {}, messages };
}

const counted = (usd: number): Cost => ({ usd, estimated: false });
const estimated = (usd: number): Cost => ({ usd, estimated: true });

describe('chat panel: the cost of replies', () => {
  it('prices the tokens the service counted', () => {
    const cost = replyCost(perToken, { promptTokens: 1234, completionTokens: 56, totalTokens: 1290 }, never);
    assert.ok(cost);
    assert.equal(cost.estimated, false);
    assert.ok(Math.abs(cost.usd - (1234 * 3 + 56 * 12) / 1e6) < 1e-15);
    assert.equal(formatCost(cost), '$0.0044');
  });

  it('estimates per-token costs when the service counted nothing, and marks them', () => {
    const cost = replyCost(perToken, undefined, () => ({ promptTokens: 100, completionTokens: 10 }));
    assert.ok(cost);
    assert.equal(cost.estimated, true);
    assert.ok(Math.abs(cost.usd - 0.00042) < 1e-15);
    assert.equal(formatCost(cost), '≈ $0.00042 (estimated)');
  });

  it('charges a per-call model its price per reply, counted or not (never estimated)', () => {
    assert.deepEqual(replyCost(perCall, undefined, never), counted(0.4));
    assert.deepEqual(replyCost(perCall, { promptTokens: 10, completionTokens: 10, totalTokens: 20 }, never), counted(0.4));
    assert.equal(formatCost(counted(0.4)), '$0.40');
  });

  it('has no cost without a price (an unknown cost is not $0.00)', () => {
    assert.equal(replyCost(undefined, { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, never), undefined);
    assert.equal(replyCost(undefined, undefined, never), undefined);
  });

  it("estimates the request's messages as prompt (images at a fixed count) and everything the reply streamed as completion", () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'abcd' }, // 1 token + 4 for the message
      {
        role: 'user',
        content: [
          { type: 'text', text: 'abcdefgh' }, // 2
          { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(40_000)}` } }, // 765, whatever its size
        ],
      }, // + 4
      { role: 'assistant', content: null, tool_calls: [{ id: '1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, // 'f{}': 1 + 4
    ];
    const streamed = reply('r', { text: 'abcd', reasoning: 'efgh', toolCalls: [{ id: '2', name: 'g', arguments: '{"a":1}' }] });
    assert.deepEqual(estimateReplyTokens(messages, streamed), { promptTokens: 5 + 771 + 5, completionTokens: 4 });
  });

  it("adds up the chat's replies, estimated when any is, and nothing when none has a cost", () => {
    assert.equal(conversationCost(chat(reply('a'), reply('b'))), undefined);
    assert.deepEqual(conversationCost(chat(reply('a', { cost: counted(0.01) }), reply('b'))), counted(0.01));
    const total = conversationCost(chat(reply('a', { cost: counted(0.01) }), reply('b'), reply('c', { cost: estimated(0.0024) })));
    assert.ok(total);
    assert.equal(total.estimated, true);
    assert.equal(formatCost(total), '≈ $0.01 (estimated)');
  });

  it('loads chats stored before costs were kept, and keeps the cost of new ones', () => {
    const stored = JSON.parse(
      '{"id":"c","title":"t","createdAt":1,"updatedAt":1,"options":{},"messages":[{"id":"a","role":"assistant","model":"m","text":"ok","reasoning":"","toolCalls":[],"status":"done","createdAt":1,"usage":{"promptTokens":1,"completionTokens":2,"totalTokens":3}}]}',
    ) as unknown;
    const old = conversationSchema.safeParse(stored);
    assert.equal(old.success, true);
    assert.equal(conversationCost(old.data as Conversation), undefined);

    const saved = conversationSchema.safeParse(JSON.parse(JSON.stringify(chat(reply('a', { cost: estimated(0.002) })))));
    assert.ok(saved.success);
    const message = saved.data.messages[0];
    assert.deepEqual(message.role === 'assistant' && message.cost, estimated(0.002));
    assert.equal(conversationSchema.safeParse(chat(reply('a', { cost: counted(-1) }))).success, false, 'a negative cost is refused');
  });

  it('gives the page each cost with its words, and the total of the chat', () => {
    const view = conversationView(chat(reply('a', { cost: counted(0.0044) }), reply('b'), reply('c', { cost: estimated(0.004) })), false, 'en');
    assert.deepEqual(
      view.messages.map((message) => (message.role === 'assistant' ? message.cost : undefined)),
      [{ usd: 0.0044, estimated: false, text: '$0.0044' }, undefined, { usd: 0.004, estimated: true, text: '≈ $0.004 (estimated)' }],
    );
    assert.equal(view.cost?.text, '≈ $0.0084 (estimated)');
    assert.equal('cost' in conversationView(chat(reply('a')), false, 'en'), false);
  });

  it("gives the page each token count with its figure in VS Code's language, and the chat's totals", () => {
    const usage = { promptTokens: 1234567, completionTokens: 890, totalTokens: 1235457 };
    const figures = (locale: string) => {
      const view = conversationView(chat(reply('a', { usage }), reply('b')), false, locale);
      const [first, second] = view.messages;
      assert.deepEqual(first?.role === 'assistant' && first.usage && { ...first.usage, figures: undefined }, { ...usage, figures: undefined });
      assert.equal(second?.role === 'assistant' && 'usage' in second, false, 'a reply without counts has no usage');
      assert.deepEqual(view.usage.figures, first?.role === 'assistant' ? first.usage?.figures : undefined, 'the one counted reply is the total');
      return view.usage.figures;
    };
    assert.deepEqual(figures('en'), { prompt: '1,234,567', completion: '890', total: '1,235,457' });
    assert.deepEqual(figures('de'), { prompt: '1.234.567', completion: '890', total: '1.235.457' });
    assert.equal(figures('zh-CN').prompt, '1,234,567');
    assert.equal(figures('not a language tag').prompt, '1,234,567', 'a tag Intl refuses falls back to English');
  });

  it('exports the cost of each reply and of the chat', () => {
    const markdown = conversationToMarkdown(
      chat(
        reply('a', { usage: { promptTokens: 1234, completionTokens: 56, totalTokens: 1290 }, cost: counted(0.004374) }),
        reply('b', { cost: estimated(0.0004) }),
      ),
    );
    assert.match(markdown, /_Usage: 1234 prompt \+ 56 completion = 1290 tokens\._\n\n_Cost: \$0\.0044\._/);
    assert.match(markdown, /_Cost: ≈ \$0\.0004 \(estimated\)\._/);
    assert.match(markdown, /Total cost: ≈ \$0\.0048 \(estimated\)\.\n$/);
    assert.doesNotMatch(conversationToMarkdown(chat(reply('a'))), /Cost/i);
  });
});
