import * as assert from 'node:assert/strict';
import { webviewStateSchema, webviewToHostSchema } from '../../../../src/chatPanel/webview/protocol';

describe('chat webview protocol', () => {
  it('accepts the intents the webview sends', () => {
    for (const message of [
      { type: 'ready' },
      { type: 'ready', conversationId: 'c1' },
      { type: 'send', conversationId: 'c1', text: 'hi' },
      { type: 'stop', conversationId: 'c1' },
      { type: 'editMessage', conversationId: 'c1', messageId: 'm1', text: 'edited' },
      { type: 'setOptions', conversationId: 'c1', options: { temperature: 0.2, model: null, jsonMode: true } },
      { type: 'quickAction', conversationId: 'c1', action: 'findBugs', text: '' },
      { type: 'codeAction', action: 'insert', code: 'x', language: 'ts' },
      { type: 'runCommand', command: 'setApiKey' },
    ]) {
      assert.equal(webviewToHostSchema.safeParse(message).success, true, JSON.stringify(message));
    }
  });

  it('refuses unknown intents, extra fields, out-of-bounds options and arbitrary commands', () => {
    for (const message of [
      null,
      'ready',
      { type: 'evil' },
      // issue 11.6: VS Code opens links clicked in a webview; the page has no way to ask the host to open one again.
      { type: 'openLink', href: 'https://example.com' },
      { type: 'send', conversationId: 'c1', text: 'hi', apiKey: 'sk-x' },
      { type: 'send', conversationId: '', text: 'hi' },
      { type: 'setOptions', conversationId: 'c1', options: { temperature: 3 } },
      { type: 'setOptions', conversationId: 'c1', options: { topP: -0.1 } },
      { type: 'setOptions', conversationId: 'c1', options: { maxTokens: 1.5 } },
      { type: 'setOptions', conversationId: 'c1', options: { unknown: 1 } },
      { type: 'editMessage', conversationId: 'c1', messageId: 'm1', text: '   ' },
      { type: 'runCommand', command: 'workbench.action.terminal.new' },
      { type: 'codeAction', action: 'run', code: 'rm -rf /' },
    ]) {
      assert.equal(webviewToHostSchema.safeParse(message).success, false, JSON.stringify(message));
    }
  });

  it('issue 15.5: accepts the History intents within their bounds, and nothing else', () => {
    for (const message of [
      { type: 'searchConversations', requestId: 0, query: 'parser bug' },
      { type: 'pinConversation', conversationId: 'c1', pinned: true },
      { type: 'deleteConversations', conversationIds: ['c1', 'c2'] },
      { type: 'importConversation' },
      { type: 'exportConversation', conversationId: 'c1' },
      { type: 'exportConversation', conversationId: 'c1', format: 'json' },
    ]) {
      assert.equal(webviewToHostSchema.safeParse(message).success, true, JSON.stringify(message));
    }
    for (const message of [
      { type: 'searchConversations', requestId: -1, query: 'x' },
      { type: 'searchConversations', requestId: 1, query: 'x'.repeat(501) },
      { type: 'pinConversation', conversationId: 'c1', pinned: 'yes' },
      { type: 'deleteConversations', conversationIds: [] },
      { type: 'deleteConversations', conversationIds: Array.from({ length: 1001 }, (_, index) => `c${index}`) },
      { type: 'importConversation', path: '/etc/passwd' },
      { type: 'exportConversation', conversationId: 'c1', format: 'pdf' },
      { type: 'exportConversation', conversationId: 'c1', format: 'json', path: '/tmp/x.json' },
    ]) {
      assert.equal(webviewToHostSchema.safeParse(message).success, false, JSON.stringify(message).slice(0, 120));
    }
  });

  it('reads the state a restored panel hands back', () => {
    const state = { conversationId: 'c1', draft: 'x', scrollAnchor: { messageId: 'm7', offset: 40 } };
    assert.deepEqual(webviewStateSchema.parse(state), state);
    // A state saved before the list kept an anchor (its pixel offset) is read without it: the chat opens at its end.
    assert.deepEqual(webviewStateSchema.parse({ conversationId: 'c1', scrollTop: 3 }), { conversationId: 'c1' });
    assert.equal(webviewStateSchema.safeParse({ conversationId: 'c1', scrollAnchor: { messageId: 'm7' } }).success, false);
    assert.equal(webviewStateSchema.safeParse({ conversationId: 5 }).success, false);
  });
});
