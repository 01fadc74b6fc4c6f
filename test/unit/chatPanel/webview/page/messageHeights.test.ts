import * as assert from 'node:assert/strict';
import { estimateMarkdownHeight, estimateSlotHeight } from '../../../../../src/chatPanel/webview/page/messageHeights';
import type { AssistantMessageView, UserMessageView } from '../../../../../src/chatPanel/webview/protocol';

function reply(text: string, extra: Partial<AssistantMessageView> = {}): AssistantMessageView {
  return { id: 'r', role: 'assistant', model: 'm', text, reasoning: '', toolCalls: [], status: 'done', createdAt: 0, ...extra };
}

function question(text: string, extra: Partial<UserMessageView> = {}): UserMessageView {
  return { id: 'q', role: 'user', text, createdAt: 0, images: [], mentions: [], ...extra };
}

describe('messageHeights (how tall a message not rendered yet probably is)', () => {
  it('counts a code block line by line, and wraps other text to the width', () => {
    const code = (lines: number) => ['```ts', ...Array.from({ length: lines }, (_, index) => `const line${index} = ${index};`), '```'].join('\n');
    assert.equal(estimateMarkdownHeight(code(20), 600) - estimateMarkdownHeight(code(10), 600), 10 * 18, 'a code line is one line at any width');
    const paragraph = 'word '.repeat(200);
    assert.ok(estimateMarkdownHeight(paragraph, 300) > 2 * estimateMarkdownHeight(paragraph, 900), 'a third of the width, about three times the lines');
    assert.ok(estimateMarkdownHeight('one\n\ntwo', 600) > estimateMarkdownHeight('one two', 600), 'a second paragraph adds a line and a gap');
    assert.ok(estimateMarkdownHeight('- a\n- b\n- c', 600) > estimateMarkdownHeight('a b c', 600), 'list items are blocks');
  });

  it('gives a message its frame, and more for what it carries besides its text', () => {
    assert.ok(estimateSlotHeight(question('hi'), 600) >= 60, 'at least the header, a line and the padding');
    assert.ok(
      estimateSlotHeight(
        reply('hi', { usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, figures: { prompt: '1', completion: '1', total: '2' } } }),
        600,
      ) > estimateSlotHeight(reply('hi'), 600),
    );
    const withContext = question('hi', {
      context: { fileName: 'a.ts', relativePath: 'a.ts', languageId: 'ts', startLine: 1, endLine: 2, code: 'x', diagnostics: [] },
    });
    assert.ok(estimateSlotHeight(withContext, 600) > estimateSlotHeight(question('hi'), 600));
    // A long reply is as tall as its lines say, not a fixed guess.
    const long = reply(Array.from({ length: 40 }, (_, index) => `Paragraph ${index}.`).join('\n\n'));
    assert.ok(estimateSlotHeight(long, 600) > 40 * 19);
  });
});
