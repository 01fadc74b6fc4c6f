import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { addUserMessage } from '../../../src/chatPanel/core/conversation';
import type { ExportOutcome, ImportOutcome } from '../../../src/chatPanel/conversationActions';
import type { Conversation } from '../../../src/chatPanel/core/model';
import type { ConversationSearchResultView, HostToWebview } from '../../../src/chatPanel/webview/protocol';
import { CHAT, readyViewHost, recordPosts, testApi, waitFor } from './chatTestSupport';
import { useConnectedService } from '../support/connectedService';
import { recordMessages } from '../support/recordMessages';
import { stubWindow } from '../support/stubWindow';

// Issue 15.5, History: search, pins and deleting several through the chat webview's messages; Export Chat… and
// Import Chat from JSON… through the palette commands, with real files in the test workspace.

/** A 1×1 PNG. */
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

/** A chat saved in the store with these user messages (and this title, when given). */
async function savedChat(texts: string[], title?: string): Promise<Conversation> {
  const store = (await testApi()).chat.store;
  const conversation = store.create();
  for (const text of texts) addUserMessage(conversation, { text });
  if (title) store.rename(conversation.id, title);
  store.changed(conversation.id, { listChanged: true, persist: 'now' });
  return conversation;
}

function lastResults(messages: HostToWebview[], requestId: number): ConversationSearchResultView[] | undefined {
  const answer = messages.find((message) => message.type === 'searchResults' && message.requestId === requestId);
  return answer?.type === 'searchResults' ? answer.results : undefined;
}

describe('chat: history (issue 15.5)', () => {
  useConnectedService(CHAT);
  const folder = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'history-test');

  after(async () => {
    await vscode.workspace.fs.delete(folder(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  it('issue 15.5: searches titles and messages through the webview host, title matches first, with a snippet; drops a bad query', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const inText = await savedChat(['How do I feed a quokka?', 'The quokka eats leaves, grasses and the occasional zeppelin manual.']);
    const inTitle = await savedChat(['anything'], 'Zeppelin maintenance log');
    await savedChat(['nothing to see here']);
    const posts = recordPosts(host);
    try {
      await host.handleMessage({ type: 'searchConversations', requestId: 41, query: 'ZEPPELIN' });
      const results = lastResults(posts.messages, 41);
      assert.ok(results, 'the page got the results of its query');
      assert.deepEqual(
        results.map((result) => [result.id, result.matchIn]),
        [
          [inTitle.id, 'title'],
          [inText.id, 'text'],
        ],
      );
      assert.deepEqual(results[0].titleMatches, [[0, 8]]);
      assert.equal(results[1].snippet, 'The quokka eats leaves, grasses and the occasional zeppelin manual.');
      const [start, end] = results[1].snippetMatches[0];
      assert.equal(results[1].snippet?.slice(start, end), 'zeppelin');

      await host.handleMessage({ type: 'searchConversations', requestId: 42, query: 'quokka zeppelin' });
      assert.deepEqual(
        lastResults(posts.messages, 42)?.map((result) => result.id),
        [inText.id],
        'every word must be found',
      );
      await host.handleMessage({ type: 'searchConversations', requestId: 43, query: 'x'.repeat(501) });
      await host.handleMessage({ type: 'searchConversations', requestId: -1, query: 'quokka' });
      assert.ok(
        !posts.messages.some((message) => message.type === 'searchResults' && message.requestId !== 41 && message.requestId !== 42),
        'invalid queries are dropped',
      );
    } finally {
      posts.dispose();
    }
  });

  it('issue 15.5: pins and unpins from the page: the pinned chat leads the list the page is sent', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const older = await savedChat(['pin me, the old one']);
    older.updatedAt -= 60_000;
    await savedChat(['a newer chat']);
    const posts = recordPosts(host);
    try {
      await host.handleMessage({ type: 'pinConversation', conversationId: older.id, pinned: true });
      const sent = posts.messages.filter((message) => message.type === 'conversations').at(-1);
      assert.ok(sent?.type === 'conversations', 'the page was sent the new list');
      assert.deepEqual([sent.conversations[0].id, sent.conversations[0].pinned], [older.id, true]);
      assert.equal(api.chat.store.get(older.id)?.pinned, true);

      await host.handleMessage({ type: 'pinConversation', conversationId: older.id, pinned: false });
      assert.equal(api.chat.store.get(older.id)?.pinned, undefined);
      assert.notEqual(api.chat.store.list()[0].id, older.id, 'unpinned, it goes back to its date');
    } finally {
      posts.dispose();
    }
  });

  it('issue 15.5: deletes several chats after one modal confirmation naming how many, and none when it is dismissed', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const chats = [await savedChat(['first to go']), await savedChat(['second to go']), await savedChat(['third to go'])];
    const ids = chats.map((chat) => chat.id);
    const kept = await savedChat(['this one stays']);

    const dismissed = recordMessages();
    try {
      await host.handleMessage({ type: 'deleteConversations', conversationIds: ids });
    } finally {
      dismissed.restore();
    }
    assert.deepEqual(
      dismissed.shown.map((shown) => [shown.severity, shown.message, shown.items]),
      [['warning', 'Delete 3 chats?', ['Delete']]],
    );
    assert.ok(
      ids.every((id) => api.chat.store.get(id)),
      'nothing deleted without the answer',
    );

    const confirmed = recordMessages(({ message }) => (message === 'Delete 3 chats?' ? 'Delete' : undefined));
    try {
      await host.handleMessage({ type: 'deleteConversations', conversationIds: [...ids, 'no-such-chat'] });
    } finally {
      confirmed.restore();
    }
    assert.equal(confirmed.shown.length, 1, 'one confirmation for all of them');
    assert.ok(
      ids.every((id) => !api.chat.store.get(id)),
      'the three are gone',
    );
    assert.ok(api.chat.store.get(kept.id), 'the chat not selected stays');
  });

  it('issue 15.5: exports a chat as JSON with Export Chat… and imports it back as a new chat, images included', async () => {
    const api = await testApi();
    const original = api.chat.store.create({ model: 'promptreel-chat', temperature: 0.3 });
    addUserMessage(original, { text: 'What is in this picture?', images: [{ name: 'dot.png', mimeType: 'image/png', size: 70, dataUrl: PIXEL }] });
    addUserMessage(original, { text: 'And in words?' });
    api.chat.store.changed(original.id, { listChanged: true, persist: 'now' });
    const target = vscode.Uri.joinPath(folder(), 'exported chat.json');
    const offered: string[] = [];
    const messages = recordMessages();
    let stubs = stubWindow({
      showQuickPick: (async (items: readonly vscode.QuickPickItem[]) => {
        offered.push(...items.map((item) => item.label));
        return items.find((item) => item.label.includes('JSON'));
      }) as unknown as typeof vscode.window.showQuickPick,
      showSaveDialog: async (options?: vscode.SaveDialogOptions) => {
        assert.ok(options?.defaultUri?.path.endsWith('/what-is-in-this-picture.json'), `the file is named after the chat: ${options?.defaultUri?.path}`);
        return target;
      },
    });
    let exported: ExportOutcome | undefined;
    try {
      exported = await vscode.commands.executeCommand<ExportOutcome>('promptreel.exportChat', original.id);
    } finally {
      stubs.restore();
    }
    assert.deepEqual(offered, ['$(markdown) Markdown file', '$(json) JSON file', '$(go-to-file) Markdown in an editor']);
    assert.equal(exported?.kind, 'saved');
    const file = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(target))) as { format: string; conversation: Conversation };
    assert.equal(file.format, 'promptreel.chat');
    assert.equal(file.conversation.id, original.id);
    assert.ok(messages.shown.some((shown) => shown.message === `Exported "What is in this picture?" to exported chat.json.`));

    const before = api.chat.store.list().length;
    stubs = stubWindow({ showOpenDialog: async () => [target] });
    let imported: ImportOutcome | undefined;
    try {
      imported = await vscode.commands.executeCommand<ImportOutcome>('promptreel.importChat');
    } finally {
      stubs.restore();
      messages.restore();
    }
    assert.ok(imported?.kind === 'imported', JSON.stringify(imported));
    assert.notEqual(imported.conversationId, original.id, 'a new chat, never the one it came from');
    assert.equal(api.chat.store.list().length, before + 1);
    const copy = api.chat.store.get(imported.conversationId);
    assert.ok(copy && api.chat.store.get(original.id), 'both chats are there');
    assert.deepEqual(
      copy.messages.map((message) => [message.role, message.text, message.role === 'user' ? message.images : undefined]),
      original.messages.map((message) => [message.role, message.text, message.role === 'user' ? message.images : undefined]),
      'the messages and the image came back',
    );
    assert.deepEqual(copy.options, original.options);
    assert.equal(api.chat.view.host?.conversationId, copy.id, 'the Chat view shows the imported chat');
  });

  it('issue 15.5: refuses a foreign or broken file with a message that says why and offers another file; imports nothing', async () => {
    const api = await testApi();
    const foreign = vscode.Uri.joinPath(folder(), 'package-like.json');
    const broken = vscode.Uri.joinPath(folder(), 'broken.json');
    await vscode.workspace.fs.writeFile(foreign, new TextEncoder().encode('{ "name": "not-a-chat", "version": "1.0.0" }'));
    await vscode.workspace.fs.writeFile(broken, new TextEncoder().encode('{ "format": "promptreel.chat", "version": 1, "conversation": '));
    const before = api.chat.store.list().length;
    const messages = recordMessages();
    const outcomes: (ImportOutcome | undefined)[] = [];
    try {
      for (const file of [foreign, broken]) {
        const stubs = stubWindow({ showOpenDialog: async () => [file] });
        try {
          outcomes.push(await vscode.commands.executeCommand<ImportOutcome>('promptreel.importChat'));
        } finally {
          stubs.restore();
        }
      }
    } finally {
      messages.restore();
    }
    assert.deepEqual(
      outcomes.map((outcome) => outcome?.kind),
      ['failed', 'failed'],
    );
    const errors = messages.shown.filter((shown) => shown.severity === 'error');
    assert.equal(errors.length, 2);
    assert.match(
      errors[0].message,
      /^Could not import "package-like\.json": The file is not a Promptreel chat export: its "format" should be "promptreel\.chat"\./,
    );
    assert.match(errors[1].message, /^Could not import "broken\.json": The file is not valid JSON \(/);
    for (const error of errors) assert.deepEqual(error.items, ['Choose Another File', 'Show Logs']);
    assert.equal(api.chat.store.list().length, before, 'nothing was imported');
  });

  it('issue 15.5: an import asked for by the page opens in that page, which shows it', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const source = await savedChat(['Bring me back'], 'A chat to bring back');
    const file = vscode.Uri.joinPath(folder(), 'bring-back.json');
    const stubs = stubWindow({
      showSaveDialog: async () => file,
      showOpenDialog: async () => [file],
    });
    const messages = recordMessages();
    const posts = recordPosts(host);
    try {
      await host.handleMessage({ type: 'exportConversation', conversationId: source.id, format: 'json' });
      await host.handleMessage({ type: 'importConversation' });
      const opened = posts.messages.find((message) => message.type === 'openConversation');
      assert.ok(opened?.type === 'openConversation', 'the page is told to show the imported chat');
      assert.notEqual(opened.conversationId, source.id);
      // The real page answers by selecting it.
      await waitFor(() => host.conversationId === opened.conversationId, { what: 'the page to show the imported chat' });
      assert.equal(api.chat.store.get(opened.conversationId)?.title, 'A chat to bring back');
    } finally {
      posts.dispose();
      messages.restore();
      stubs.restore();
    }
  });

  it('issue 15.5: Promptreel: Show Chat History shows the Chat view with its History open', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const posts = recordPosts(host);
    try {
      await vscode.commands.executeCommand('workbench.view.explorer');
      await vscode.commands.executeCommand('promptreel.showChatHistory');
      const told = posts.messages.map((message) => message.type);
      assert.ok(told.includes('openHistory'), 'the page is told to open History');
      assert.ok(told.includes('snapshot') && told.indexOf('snapshot') < told.indexOf('openHistory'), `after the page loaded again: ${told.join()}`);
      assert.ok(api.chat.view.visible, 'the Chat view is shown');
    } finally {
      posts.dispose();
    }
  });
});
