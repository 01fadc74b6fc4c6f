import * as assert from 'node:assert/strict';
import { ConversationStore } from '../../../src/chatPanel/core/conversationStore';
import {
  assistantAt,
  chatRequests,
  CHAT,
  endedReply,
  endsTold,
  lastChatBody,
  newConversation,
  readyViewHost,
  recordPosts,
  setSetting,
  testApi,
  waitFor,
} from './chatTestSupport';
import { useConnectedService } from '../support/connectedService';

describe('chat: a conversation against the local service', () => {
  const ctx = useConnectedService(CHAT);

  it('streams a reply into the conversation through the controller, with usage, and the view is told', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    const posts = recordPosts(host);
    const deltas: string[] = [];
    const streamed = api.chat.controller.onDidStream((delta) => deltas.push(delta.text));
    ctx.service.setScenario({ chat: { chunkChars: 3, delayMs: 5 } });
    try {
      const reply = await api.chat.controller.send(conversation.id, { text: 'hello there' });
      assert.ok(reply);
      assert.equal(reply.status, 'done');
      assert.equal(reply.text, 'You said: hello there');
      assert.equal(reply.model, 'promptreel-chat');
      assert.ok(reply.usage && reply.usage.totalTokens > 0, 'usage is recorded');
      assert.ok(deltas.length > 1, `the reply streamed in several deltas (${deltas.length})`);
      assert.equal(deltas.join(''), reply.text);

      const body = lastChatBody(ctx.service);
      assert.equal(body.model, 'promptreel-chat');
      assert.equal(body.stream, true);
      assert.deepEqual(body.messages, [{ role: 'user', content: 'hello there' }]);

      const types = posts.messages.map((message) => message.type);
      assert.ok(types.includes('delta'), 'the webview got deltas');
      const done = posts.messages.find((message) => message.type === 'done');
      assert.ok(
        done && done.type === 'done' && endedReply(done).text === reply.text && done.conversation.usage.totalTokens === reply.usage.totalTokens,
        'the webview got done with the usage',
      );
      const textFromDeltas = posts.messages.flatMap((message) => (message.type === 'delta' ? [message.text] : [])).join('');
      assert.equal(textFromDeltas, reply.text);
      assert.equal(api.chat.store.get(conversation.id)?.title, 'hello there');
    } finally {
      streamed.dispose();
      posts.dispose();
    }
  });

  it("issue 24.3: tells the page of a reply's end once: one `done`, carrying the chat as the reply left it, and nothing else", async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    const posts = recordPosts(host);
    ctx.service.setScenario({ chat: { chunkChars: 3, delayMs: 5 } });
    try {
      const reply = await api.chat.controller.send(conversation.id, { text: 'tell me once' });
      assert.equal(reply?.status, 'done');
      // What the host holds back during a turn would have gone by now (the point: no second end during the wait).
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(endsTold(posts.messages, conversation.id, reply.id), ['done'], posts.messages.map((message) => message.type).join());
      const types = posts.messages.map((message) => message.type);
      assert.deepEqual(types.slice(types.lastIndexOf('delta') + 1), ['done'], 'nothing but the end after the stream');
      const done = posts.messages.find((message) => message.type === 'done');
      assert.ok(done?.type === 'done');
      assert.equal(endedReply(done).text, reply.text);
      assert.equal(done.conversation.busy, false);
      assert.equal(done.conversations.find((summary) => summary.id === conversation.id)?.busy, false, 'the list says the chat answered');
    } finally {
      posts.dispose();
    }
  });

  it('uses the first chat model the service lists when none is chosen, and keeps it for that chat', async () => {
    const api = await testApi();
    await setSetting('chat.model', undefined);
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'which model?' });
    assert.ok(reply);
    assert.equal(reply.status, 'done', JSON.stringify(reply.error));
    // What the service lists, from the one model list (the panel's picker loads it only when a page asks).
    const first = (await api.connection.catalog.chatModels())[0]?.id;
    assert.ok(first, 'the service lists chat models');
    assert.equal(reply.model, first);
    assert.equal(lastChatBody(ctx.service).model, first);
    assert.equal(api.chat.store.get(conversation.id)?.options.model, first, 'the chat keeps the model it used');
  });

  it('hands a fast stream to the webview in a few coalesced deltas, not one message per chunk', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    ctx.service.setScenario({ chat: { chunkChars: 2 } });
    const posts = recordPosts(host);
    try {
      const reply = await api.chat.controller.send(conversation.id, { text: '#long' });
      assert.equal(reply?.status, 'done');
      const chunks = Math.ceil((reply?.text.length ?? 0) / 2);
      const deltas = posts.messages.filter((message) => message.type === 'delta');
      assert.ok(chunks > 5000, `a long reply (${chunks} chunks)`);
      assert.ok(deltas.length > 0 && deltas.length < chunks / 10, `${deltas.length} deltas for ${chunks} chunks`);
      assert.equal(deltas.map((message) => (message.type === 'delta' ? message.text : '')).join(''), reply?.text);
    } finally {
      posts.dispose();
    }
  });

  it('sends from the webview protocol (a send intent) and replays the history on the next turn', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    await host.handleMessage({ type: 'send', conversationId: conversation.id, text: 'first' });
    await waitFor(() => assistantAt(api.chat.store.get(conversation.id), 1).status === 'done', { what: 'the first reply' });
    await host.handleMessage({ type: 'send', conversationId: conversation.id, text: 'second' });
    await waitFor(() => api.chat.store.get(conversation.id)?.messages.length === 4 && assistantAt(api.chat.store.get(conversation.id), 3).status === 'done', {
      what: 'the second reply',
    });
    assert.deepEqual(lastChatBody(ctx.service).messages, [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'You said: first' },
      { role: 'user', content: 'second' },
    ]);
  });

  it('edits a user message and resends: later turns are dropped and the model sees the edited text', async () => {
    const api = await testApi();
    const conversation = await newConversation();
    await api.chat.controller.send(conversation.id, { text: 'original question' });
    await api.chat.controller.send(conversation.id, { text: 'follow-up' });
    const firstId = conversation.messages[0].id;
    const host = await readyViewHost(api);
    await host.handleMessage({ type: 'editMessage', conversationId: conversation.id, messageId: firstId, text: 'edited question' });
    await waitFor(() => conversation.messages.length === 2 && assistantAt(conversation, 1).status === 'done', { what: 'the reply to the edited message' });
    assert.deepEqual(lastChatBody(ctx.service).messages, [{ role: 'user', content: 'edited question' }]);
    assert.equal(assistantAt(conversation, 1).text, 'You said: edited question');
  });

  it('regenerates the last reply', async () => {
    const api = await testApi();
    const conversation = await newConversation();
    await api.chat.controller.send(conversation.id, { text: 'again' });
    const before = chatRequests(ctx.service).length;
    const reply = await api.chat.controller.regenerate(conversation.id);
    assert.equal(reply?.status, 'done');
    assert.equal(chatRequests(ctx.service).length, before + 1);
    assert.equal(conversation.messages.length, 2, 'the old reply was replaced');
  });

  it('keeps the conversation the host shows when the page reloads (hidden, then shown) with the one it had saved', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const older = await newConversation();
    const shown = await newConversation();
    host.showConversation(shown.id);
    // What a page that was hidden says when it loads again: the conversation it had saved before.
    await host.handleMessage({ type: 'ready', conversationId: older.id });
    assert.equal(host.conversationId, shown.id);
  });

  it('persists the conversation in workspaceState: a new store (as after a reload) reads it back', async () => {
    const api = await testApi();
    const conversation = await newConversation();
    await api.chat.controller.send(conversation.id, { text: 'remember me' });
    await api.chat.store.flush();
    const reloaded = new ConversationStore(api.storage.workspace);
    const restored = reloaded.get(conversation.id);
    assert.ok(restored, 'the conversation is in workspaceState');
    assert.deepEqual(
      restored.messages.map((message) => [
        message.role,
        message.role === 'user' ? message.text : message.text,
        message.role === 'assistant' ? message.status : '',
      ]),
      [
        ['user', 'remember me', ''],
        ['assistant', 'You said: remember me', 'done'],
      ],
    );
    assert.ok(reloaded.list().some((summary) => summary.id === conversation.id && summary.title === 'remember me'));
    reloaded.dispose();
  });

  it('uses the conversation options: model, developer message where declared, temperature, JSON mode', async () => {
    const api = await testApi();
    await setSetting('models.capabilities', { 'promptreel-reasoner': { developerRole: true, jsonMode: true } });
    const conversation = await newConversation();
    const host = await readyViewHost(api);
    await host.handleMessage({
      type: 'setOptions',
      conversationId: conversation.id,
      options: { model: 'promptreel-reasoner', systemPrompt: 'Answer in JSON.', temperature: 0.3, jsonMode: true },
    });
    const reply = await api.chat.controller.send(conversation.id, { text: 'numbers' });
    const body = lastChatBody(ctx.service);
    assert.equal(body.model, 'promptreel-reasoner');
    assert.deepEqual(body.messages[0], { role: 'developer', content: 'Answer in JSON.' });
    assert.equal(body.temperature, 0.3);
    assert.deepEqual(body.response_format, { type: 'json_object' });
    assert.deepEqual(JSON.parse(reply?.text ?? ''), { echo: 'numbers', model: 'promptreel-reasoner' });
    assert.ok((reply?.reasoning ?? '').length > 0, 'the reasoner streamed reasoning apart from the answer');
    assert.ok(!reply?.text.includes('The user wrote'), 'reasoning is not in the answer');
  });

  it('drops an out-of-bounds option from the webview (validated at the border); max_tokens above the model is lowered, and said', async () => {
    const api = await testApi();
    const conversation = await newConversation();
    const host = await readyViewHost(api);
    await host.handleMessage({ type: 'setOptions', conversationId: conversation.id, options: { temperature: 5 } });
    assert.equal(conversation.options.temperature, undefined, 'the invalid message was dropped');
    await setSetting('models.capabilities', { 'promptreel-chat': { maxOutputTokens: 100 } });
    await host.handleMessage({ type: 'setOptions', conversationId: conversation.id, options: { maxTokens: 500 } });
    const reply = await api.chat.controller.send(conversation.id, { text: 'too long' });
    assert.equal(reply?.status, 'done');
    assert.equal(lastChatBody(ctx.service).max_tokens, 100);
    assert.deepEqual(reply?.notes, ['max_tokens was lowered from 500 to 100, the most promptreel-chat writes.']);
  });

  it('attaches a workspace image as an image_url data URL for a vision model', async () => {
    const api = await testApi();
    await setSetting('models.capabilities', { 'promptreel-chat': { vision: true } });
    const conversation = await newConversation();
    const host = await readyViewHost(api);
    host.showConversation(conversation.id);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const { readImage } = await import('../../../src/chatPanel/imagePicker');
    const vscode = await import('vscode');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'a workspace folder is open');
    const uri = vscode.Uri.joinPath(folder, 'chat-image.png');
    await vscode.workspace.fs.writeFile(uri, png);
    const image = await readImage(uri);
    assert.ok(image);
    host.addImage(image);
    await host.handleMessage({ type: 'send', conversationId: conversation.id, text: 'what is this?' });
    await waitFor(() => conversation.messages.length === 2 && assistantAt(conversation, 1).status === 'done', { what: 'the reply' });
    assert.deepEqual(lastChatBody(ctx.service).messages[0].content, [
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}` } },
    ]);
    assert.equal(host.composerDraft.images.length, 0, 'the draft is cleared once sent');
    assert.equal(assistantAt(conversation, 1).text, 'You said: what is this? [+1 image]');
  });
});
