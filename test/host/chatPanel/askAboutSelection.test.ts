import { ViewIds } from '../../../src/common/contributions';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AskResult } from '../../../src/chatPanel/askAboutSelection';
import { useConnectedService } from '../support/connectedService';
import { closeAllEditors, workspaceUri } from '../support/workspace';
import { assertStrictPage, firstMessageIn } from '../support/webviewPage';
import { assistantAt, CHAT, lastChatBody, newConversation, readyViewHost, recordPosts, testApi, waitFor } from './chatTestSupport';

async function openSample(): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceUri('src', 'sample.ts'));
  return vscode.window.showTextDocument(document);
}

describe('chat: Ask About Selection, code blocks, panels and export', () => {
  const ctx = useConnectedService(CHAT, { teardown: closeAllEditors });
  let diagnostics: vscode.DiagnosticCollection;

  before(() => {
    diagnostics = vscode.languages.createDiagnosticCollection('promptreel-test');
  });

  beforeEach(() => diagnostics.clear());

  after(() => diagnostics.dispose());

  it('opens the Chat view with the selection (file, language, lines, diagnostics) next to the prompt box', async () => {
    const api = await testApi();
    const editor = await openSample();
    editor.selection = new vscode.Selection(1, 0, 3, 1);
    diagnostics.set(editor.document.uri, [
      new vscode.Diagnostic(new vscode.Range(2, 2, 2, 14), "Type 'string' is not assignable to type 'number'.", vscode.DiagnosticSeverity.Error),
    ]);
    const result = await vscode.commands.executeCommand<AskResult>('promptreel.askAboutSelection');
    assert.ok(result, 'the command returns the view it used');
    assert.equal(api.chat.view.visible, true, 'the Chat view is showing');
    const context = result.host.composerDraft.context;
    assert.ok(context);
    assert.equal(context.fileName, 'sample.ts');
    assert.equal(context.relativePath, 'src/sample.ts');
    assert.equal(context.languageId, 'typescript');
    assert.deepEqual([context.startLine, context.endLine], [2, 4]);
    assert.equal(context.code, 'export function add(a: number, b: number): number {\n  return a + b;\n}');
    assert.deepEqual(
      context.diagnostics.map((d) => [d.severity, d.line, d.message]),
      [['error', 3, "Type 'string' is not assignable to type 'number'."]],
    );

    // The real webview receives it (after its ready handshake).
    const host = await readyViewHost(api);
    assert.equal(host, result.host);
    const posts = recordPosts(host);
    await host.handleMessage({ type: 'ready' });
    posts.dispose();
    const snapshot = posts.messages.find((message) => message.type === 'snapshot');
    assert.ok(snapshot && snapshot.type === 'snapshot' && snapshot.snapshot.draft.context?.relativePath === 'src/sample.ts', 'the webview shows the selection');

    // A quick action sends the context with its prompt; the model sees file, language, lines, code and the error.
    const conversationId = host.conversationId;
    await host.handleMessage({ type: 'quickAction', conversationId, action: 'explain', text: '' });
    await waitFor(() => assistantAt(api.chat.store.get(conversationId), api.chat.store.get(conversationId)!.messages.length - 1).status === 'done', {
      what: 'the reply',
    });
    const prompt = String(lastChatBody(ctx.service).messages.at(-1)?.content);
    assert.match(prompt, /^Code from src\/sample\.ts, lines 2-4 \(typescript\):/);
    assert.ok(prompt.includes('export function add(a: number, b: number): number {'));
    assert.ok(prompt.includes("- line 3, error: Type 'string' is not assignable to type 'number'."));
    assert.ok(prompt.endsWith('Explain this error and how to fix it.'));
    assert.equal(host.composerDraft.context, undefined, 'the context went with the message');
  });

  it('offers the code actions: ask about a selection, and "Explain this error" on a diagnostic', async () => {
    const editor = await openSample();
    const range = new vscode.Range(5, 0, 8, 1);
    const diagnostic = new vscode.Diagnostic(new vscode.Range(7, 2, 7, 8), 'Unreachable code detected.', vscode.DiagnosticSeverity.Warning);
    diagnostics.set(editor.document.uri, [diagnostic]);
    const actions = await waitFor(
      async () => {
        const found = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, range);
        return found.some((action) => action.title.startsWith('Explain this error with Promptreel')) ? found : undefined;
      },
      { what: 'the Promptreel code actions' },
    );
    const ask = actions.find((action) => action.title === 'Ask Promptreel about the selection');
    assert.ok(ask?.command, 'Ask about the selection is offered');
    assert.equal(ask.command.command, 'promptreel.askAboutSelection');
    const explain = actions.find((action) => action.title.startsWith('Explain this error with Promptreel'));
    assert.ok(explain?.command);
    assert.equal(explain.kind?.value, 'quickfix');

    // Running the quick fix sends at once with the diagnostic.
    const api = await testApi();
    const result = await vscode.commands.executeCommand<AskResult>(explain.command.command, ...(explain.command.arguments ?? []));
    assert.ok(result);
    await waitFor(
      () => api.chat.store.get(result.conversationId)?.messages.at(-1)?.role === 'assistant' && !api.chat.controller.isBusy(result.conversationId),
      { what: 'the explanation' },
    );
    const prompt = String(lastChatBody(ctx.service).messages.at(-1)?.content);
    assert.ok(prompt.includes('Unreachable code detected.'));
    assert.match(prompt, /Explain what this code does|Explain this error/);
  });

  it('Insert, Replace and New File put a code block into the editor; Copy puts it on the clipboard', async () => {
    const api = await testApi();
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'line one\nline two\n' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    const host = await readyViewHost(api);
    await host.handleMessage({ type: 'codeAction', action: 'insert', code: 'inserted();\n', language: 'ts' });
    assert.equal(document.getText(), 'line one\ninserted();\nline two\n');

    const again = await vscode.window.showTextDocument(document);
    again.selection = new vscode.Selection(0, 0, 0, 8);
    await host.handleMessage({ type: 'codeAction', action: 'replace', code: 'replaced', language: 'ts' });
    assert.equal(document.getText(), 'replaced\ninserted();\nline two\n');

    await host.handleMessage({ type: 'codeAction', action: 'newFile', code: 'print("hi")\n', language: 'py' });
    const opened = vscode.window.activeTextEditor?.document;
    assert.equal(opened?.getText(), 'print("hi")\n');
    assert.ok(opened?.isUntitled);

    await host.handleMessage({ type: 'codeAction', action: 'copy', code: 'copied text', language: 'ts' });
    assert.equal(await vscode.env.clipboard.readText(), 'copied text');
  });

  it('opens a conversation in an editor panel, and the serializer restores a panel from its state', async () => {
    const api = await testApi();
    const conversation = await newConversation();
    await api.chat.controller.send(conversation.id, { text: 'panel chat' });
    const viewHost = await readyViewHost(api);
    viewHost.showConversation(conversation.id);
    const id = await vscode.commands.executeCommand<string>('promptreel.openChatInEditor');
    assert.equal(id, conversation.id);
    const panelHost = api.chat.panels.hosts.find((host) => host.conversationId === conversation.id);
    assert.ok(panelHost, 'a panel shows the conversation');
    await waitFor(() => panelHost.ready, { timeoutMs: 30_000, what: 'the panel webview to say ready' });

    // What VS Code does after a reload: a new panel of our type and the state the webview saved.
    const panel = vscode.window.createWebviewPanel(ViewIds.chatPanel, 'restored', vscode.ViewColumn.Active, {});
    api.chat.panels.restore(panel, { conversationId: conversation.id, draft: 'x' });
    const restored = api.chat.panels.hosts.find((host) => host !== panelHost && host.conversationId === conversation.id);
    assert.ok(restored, 'the restored panel shows the same conversation');
    assert.equal(panel.title, 'Chat: panel chat');
    await waitFor(() => restored.ready, { timeoutMs: 30_000, what: 'the restored panel to say ready' });
    // The page came with the snapshot of that conversation and its own files in it (its first screen needs no round trip).
    const first = firstMessageIn(assertStrictPage(panel.webview, 'chat.js', { fonts: true }, { later: 'chat-highlight.js', inline: { style: 'chat.css' } }));
    assert.ok(first, 'the page carries its first snapshot');
    const snapshot = (first.message as { type: string; snapshot: { conversation: { id: string; messages: { text?: string }[] } } }).snapshot;
    assert.equal((first.message as { type: string }).type, 'snapshot');
    assert.equal(snapshot.conversation.id, conversation.id);
    assert.ok(JSON.stringify(snapshot.conversation.messages).includes('panel chat'), JSON.stringify(snapshot.conversation.messages));
    panel.dispose();
    assert.ok(!api.chat.panels.hosts.includes(restored), 'a closed panel lets go of its host');
  });

  it('exports a conversation to Markdown, renames and deletes it', async () => {
    const api = await testApi();
    const conversation = await newConversation();
    await api.chat.controller.send(conversation.id, { text: 'export me' });
    const document = await api.chat.conversations.exportToMarkdown(conversation.id);
    assert.ok(document);
    assert.equal(document.languageId, 'markdown');
    assert.ok(document.getText().startsWith('# export me\n'));
    assert.ok(document.getText().includes('## Assistant (promptreel-chat)\n\nYou said: export me'));

    assert.equal(api.chat.store.rename(conversation.id, 'Renamed chat'), true);
    assert.equal(api.chat.store.list().find((summary) => summary.id === conversation.id)?.title, 'Renamed chat');
    assert.equal(await api.chat.conversations.delete(conversation.id, { confirm: false }), true);
    assert.equal(api.chat.store.get(conversation.id), undefined);
  });
});
