import * as assert from 'node:assert/strict';
import {
  addUserMessage,
  applyStreamEvent,
  completeAssistantMessage,
  createConversation,
  failAssistantMessage,
  startAssistantMessage,
} from '../../../../src/chatPanel/core/conversation';
import { describeRange, fenceFor, quickActionPrompt, renderContext, userPromptText } from '../../../../src/chatPanel/core/contextPrompt';
import { conversationToMarkdown } from '../../../../src/chatPanel/core/exportMarkdown';
import { imageDataUrl, imageMimeType } from '../../../../src/chatPanel/core/images';
import type { SelectionContext } from '../../../../src/chatPanel/core/model';

const context: SelectionContext = {
  fileName: 'sample.ts',
  relativePath: 'src/sample.ts',
  languageId: 'typescript',
  startLine: 7,
  endLine: 7,
  code: 'greet(1);',
  diagnostics: [{ severity: 'error', message: "Argument of type 'number' is not assignable.", line: 7 }],
};

describe('chat context prompts', () => {
  it('describes a one-line range and renders the context', () => {
    assert.equal(describeRange(context), 'src/sample.ts, line 7');
    assert.equal(
      renderContext(context),
      [
        'Code from src/sample.ts, line 7 (typescript):',
        '',
        '```typescript',
        'greet(1);',
        '```',
        '',
        'Problems VS Code reports in this code:',
        "- line 7, error: Argument of type 'number' is not assignable.",
      ].join('\n'),
    );
  });

  it('uses a fence longer than any backtick run in the code', () => {
    assert.equal(fenceFor('plain'), '```');
    assert.equal(fenceFor('a ```` b'), '`````');
  });

  it('turns a quick action into a prompt ("Explain this error" when the selection has errors)', () => {
    assert.equal(quickActionPrompt('explain', context), 'Explain this error and how to fix it.');
    assert.equal(quickActionPrompt('explain'), 'Explain what this code does, step by step.');
    assert.match(quickActionPrompt('writeTests', context), /unit tests/);
    assert.match(quickActionPrompt('findBugs'), /bugs/);
    assert.match(quickActionPrompt('document'), /documentation/);
  });

  it('sends the context alone when the user typed nothing', () => {
    assert.equal(userPromptText('', context), renderContext(context));
    assert.equal(userPromptText('hi'), 'hi');
  });
});

describe('chat export to Markdown', () => {
  it('writes the turns, context, reasoning, tool calls, outcome and usage', () => {
    const conversation = createConversation({ model: 'promptreel-chat', temperature: 0.5, systemPrompt: 'Be brief.\nAlways.' });
    addUserMessage(conversation, {
      text: 'Explain',
      context,
      images: [{ name: 'shot.png', mimeType: 'image/png', size: 3, dataUrl: 'data:image/png;base64,AA' }],
    });
    const reply = startAssistantMessage(conversation, 'promptreel-chat');
    applyStreamEvent(reply, { type: 'reasoning', text: 'Think.' });
    applyStreamEvent(reply, { type: 'text', text: 'It greets.' });
    applyStreamEvent(reply, { type: 'tool-calls', calls: [{ id: 'c', name: 'lookup', arguments: '{"q":"x"}' }] });
    applyStreamEvent(reply, { type: 'usage', usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } });
    completeAssistantMessage(reply);
    Object.assign(reply.toolCalls[0]!, { state: 'done', result: 'found:\n```\nx\n```' });
    addUserMessage(conversation, { text: 'More' });
    const second = startAssistantMessage(conversation, 'promptreel-chat');
    applyStreamEvent(second, { type: 'text', text: 'Part' });
    failAssistantMessage(second, 'stopped');

    const markdown = conversationToMarkdown(conversation, new Date('2025-01-02T03:04:05Z'));
    assert.ok(markdown.startsWith('# Explain\n\n_Exported from Promptreel on 2025-01-02T03:04:05.000Z._\n'));
    for (const expected of [
      'Options: model `promptreel-chat`, temperature 0.5.',
      '> Be brief.\n> Always.',
      '## You\n\nContext: src/sample.ts, line 7\n\n```typescript\ngreet(1);\n```',
      "- line 7, error: Argument of type 'number' is not assignable.",
      '_Image attached: shot.png_',
      '## Assistant (promptreel-chat)',
      '<details><summary>Reasoning</summary>\n\nThink.\n\n</details>',
      'It greets.',
      'Tool call `lookup` (done):\n\n```json\n{"q":"x"}\n```',
      '<details><summary>Result</summary>\n\n````text\nfound:\n```\nx\n```\n````\n\n</details>',
      '_Usage: 5 prompt + 3 completion = 8 tokens._',
      'Part\n\n_Stopped before the reply was complete._',
      'Total usage: 5 prompt + 3 completion = 8 tokens.',
    ]) {
      assert.ok(markdown.includes(expected), `missing: ${expected}\n---\n${markdown}`);
    }
  });
});

describe('chat image attachments', () => {
  it('knows image types by extension and builds data URLs', () => {
    assert.equal(imageMimeType('a/b/Photo.JPG'), 'image/jpeg');
    assert.equal(imageMimeType('x.webp'), 'image/webp');
    assert.equal(imageMimeType('notes.txt'), undefined);
    assert.equal(imageMimeType('noext'), undefined);
    assert.equal(imageDataUrl('image/png', new Uint8Array([1, 2, 3])), 'data:image/png;base64,AQID');
  });
});
