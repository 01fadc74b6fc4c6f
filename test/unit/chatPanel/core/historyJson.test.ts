import * as assert from 'node:assert/strict';
import {
  CHAT_FILE_FORMAT,
  chatFileName,
  conversationToJson,
  importedConversation,
  parseConversationJson,
} from '../../../../src/chatPanel/core/conversationJson';
import type { Conversation } from '../../../../src/chatPanel/core/model';

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

function sample(): Conversation {
  return {
    id: 'c1',
    title: 'Fix the parser',
    createdAt: 100,
    updatedAt: 200,
    options: { model: 'm', temperature: 0.5 },
    pinned: true,
    allowedTools: ['promptreel_readFile'],
    messages: [
      { id: 'u1', role: 'user', text: 'What is this?', createdAt: 110, images: [{ name: 'shot.png', mimeType: 'image/png', size: 70, dataUrl: PIXEL }] },
      {
        id: 'a1',
        role: 'assistant',
        model: 'm',
        text: 'A pixel, and half a sen',
        reasoning: 'look',
        toolCalls: [{ id: 't1', name: 'promptreel_readFile', arguments: '{}', state: 'pending', readOnly: true }],
        status: 'streaming',
        createdAt: 120,
      },
    ],
  };
}

function problemOf(text: string): string {
  const parsed = parseConversationJson(text);
  assert.equal(parsed.ok, false, 'the file is refused');
  return parsed.ok ? '' : parsed.problem;
}

describe('chat history: JSON export and import', () => {
  it('writes a versioned file that reads back to the same chat, images included', () => {
    const conversation = sample();
    const text = conversationToJson(conversation, new Date('2025-01-02T03:04:05Z'));
    const file = JSON.parse(text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(file), ['format', 'version', 'exportedAt', 'conversation']);
    assert.equal(file.format, CHAT_FILE_FORMAT);
    assert.equal(file.version, 1);
    assert.equal(file.exportedAt, '2025-01-02T03:04:05.000Z');
    assert.ok(text.includes(PIXEL), 'the image data URL is kept');
    const parsed = parseConversationJson(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.conversation, conversation);
    assert.ok(parseConversationJson(`\uFEFF${text}`).ok, 'a byte order mark is no problem');
  });

  it('makes an imported chat new: new ids, a streaming reply cut off, waiting tool calls stopped, no pin or permissions', () => {
    let next = 0;
    const imported = importedConversation(sample(), 999, () => `new-${++next}`);
    assert.equal(imported.id, 'new-1');
    assert.deepEqual(
      imported.messages.map((message) => message.id),
      ['new-2', 'new-3'],
    );
    assert.equal(imported.updatedAt, 999);
    assert.equal(imported.createdAt, 100);
    assert.equal(imported.pinned, undefined);
    assert.equal(imported.allowedTools, undefined);
    const reply = imported.messages[1];
    assert.ok(reply.role === 'assistant');
    assert.equal(reply.status, 'cut-off');
    assert.equal(reply.text, 'A pixel, and half a sen', 'what arrived is kept');
    assert.deepEqual(reply.error, { message: 'The reply was still arriving when the chat was exported. What arrived is kept.', actions: ['retry'] });
    assert.equal(reply.toolCalls[0].state, 'stopped');
    assert.equal(sample().messages[1].id, 'a1', 'the parsed chat is not changed in place');
  });

  it('says clearly what is wrong with a file that is not a chat export', () => {
    assert.match(problemOf('{"format": "promptreel.chat", '), /^The file is not valid JSON \(/);
    assert.match(problemOf('[1, 2]'), /not a Promptreel chat export: its "format" should be "promptreel.chat"/);
    assert.match(problemOf('{"format": "other.app", "version": 1, "conversation": {}}'), /not a Promptreel chat export/);
    assert.match(problemOf('{"title": "a bare conversation"}'), /not a Promptreel chat export/);
  });

  it('refuses another version: newer ones with an update hint', () => {
    const file = (version: unknown) => JSON.stringify({ format: CHAT_FILE_FORMAT, version, conversation: sample() });
    assert.match(problemOf(file(2)), /exported by a newer Promptreel \(chat format version 2; this one reads version 1\)\. Update Promptreel/);
    assert.match(problemOf(file('1')), /"version" \("1"\) is not a version of the chat format/);
    assert.match(problemOf(file(0)), /"version" \(0\) is not a version/);
    assert.match(problemOf(JSON.stringify({ format: CHAT_FILE_FORMAT, conversation: sample() })), /"version" \(missing\)/);
  });

  it('names the field of a chat of the wrong shape', () => {
    const bad = sample() as unknown as { messages: { role: string }[]; options: Record<string, unknown> };
    bad.messages[1].role = 'robot';
    assert.match(
      problemOf(JSON.stringify({ format: CHAT_FILE_FORMAT, version: 1, conversation: bad })),
      /^The chat in the file is not valid: conversation\.messages\.1/,
    );
    const hot = sample();
    hot.options.temperature = 7;
    assert.match(problemOf(JSON.stringify({ format: CHAT_FILE_FORMAT, version: 1, conversation: hot })), /conversation\.options\.temperature/);
    const badImage = sample();
    badImage.messages[0] = {
      id: 'u1',
      role: 'user',
      text: 'x',
      createdAt: 1,
      images: [{ name: 'x', mimeType: 'image/png', size: 1, dataUrl: 'javascript:alert(1)' }],
    };
    assert.match(problemOf(JSON.stringify({ format: CHAT_FILE_FORMAT, version: 1, conversation: badImage })), /conversation\.messages\.0\.images\.0\.dataUrl/);
    assert.match(problemOf(JSON.stringify({ format: CHAT_FILE_FORMAT, version: 1 })), /^The chat in the file is not valid: conversation: /);
  });

  it('checks the images of a file as it checks a pasted one: a type Promptreel sends, real base64, within the size limit', () => {
    const withImage = (image: { name: string; mimeType: string; size: number; dataUrl: string }) => {
      const conversation = sample();
      conversation.messages[0] = { id: 'u1', role: 'user', text: 'x', createdAt: 1, images: [image] };
      return JSON.stringify({ format: CHAT_FILE_FORMAT, version: 1, conversation });
    };
    assert.match(
      problemOf(withImage({ name: 'x.svg', mimeType: 'image/svg+xml', size: 5, dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=' })),
      /^The chat in the file is not valid: conversation\.messages\.0\.images\.0: image\/svg\+xml images cannot be sent: use PNG, JPEG, GIF or WebP\.$/,
    );
    assert.match(
      problemOf(withImage({ name: 'x.png', mimeType: 'image/png', size: 5, dataUrl: 'data:image/png;base64,<script>' })),
      /images\.0: The data is not an image\.$/,
    );
    const big = 'A'.repeat(8 * 1024 * 1024);
    assert.match(
      problemOf(withImage({ name: 'x.png', mimeType: 'image/png', size: 1, dataUrl: `data:image/png;base64,${big}` })),
      /images\.0: The image is 6\.0 MB/,
    );

    const parsed = parseConversationJson(withImage({ name: '../../secret.png', mimeType: 'image/png', size: 1, dataUrl: PIXEL }));
    assert.ok(parsed.ok);
    const message = parsed.conversation.messages[0];
    assert.ok(message.role === 'user');
    assert.deepEqual(message.images, [{ name: '.._.._secret.png', mimeType: 'image/png', size: 70, dataUrl: PIXEL }], 'a safe name and the real size');
  });

  it('names the file after the title, with safe characters only', () => {
    assert.equal(chatFileName('Fix the parser!', 'json'), 'fix-the-parser.json');
    assert.equal(chatFileName('../../etc/passwd', 'md'), 'etc-passwd.md');
    assert.equal(chatFileName('Café — überall', 'md'), 'cafe-uberall.md');
    assert.equal(chatFileName('日本語', 'json'), 'chat.json');
  });
});
