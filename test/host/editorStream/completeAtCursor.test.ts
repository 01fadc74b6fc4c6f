import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import {
  applyUserEdit,
  chatRequests,
  completeAtCursor,
  controlProgress,
  lastUserText,
  openEditor,
  recordMessages,
  setSetting,
  testApi,
  undoOnce,
  EDITOR,
  waitFor,
} from './editorStreamSupport';

const SUM = 'function sum(a: number, b: number) {\n  \n}\n';
const IN_BODY = new vscode.Position(1, 2);

describe('editor: Complete at Cursor (real VS Code, local service)', () => {
  const ctx = useConnectedService(EDITOR);

  it('streams the reply in at the cursor, unwrapped from its code fence, as ONE undo step', async () => {
    ctx.service.setScenario({ chat: { reply: '```ts\nreturn a + b;\n```', chunkChars: 3, delayMs: 5 } });
    const editor = await openEditor(SUM, IN_BODY);
    const before = Date.now();
    const result = await completeAtCursor();
    const took = Date.now() - before;

    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(result.text, 'return a + b;');
    // Its milestones count from the command's start, in order, within the call (the bench's breakdown reads them).
    const timing = result.timing;
    assert.ok(timing, 'the result says where its time went');
    const milestones = [timing.request, timing.firstText ?? timing.streamEnd, timing.streamEnd, timing.drained, timing.finished];
    assert.deepEqual(
      [...milestones].sort((a, b) => a - b),
      milestones,
      `in order: ${JSON.stringify(timing)}`,
    );
    assert.ok(timing.request >= 0 && timing.finished <= took, `within the ${took} ms of the call: ${JSON.stringify(timing)}`);
    assert.equal(editor.document.getText(), 'function sum(a: number, b: number) {\n  return a + b;\n}\n');
    assert.ok(result.edits >= 1 && result.edits <= result.chunks, `${result.edits} edits for ${result.chunks} chunks`);

    const [request] = chatRequests(ctx.service);
    assert.ok(request, 'a chat completion was requested');
    const body = request.body as { model: string; stream: boolean; messages: { role: string; content: string }[] };
    assert.equal(body.model, 'promptreel-chat');
    assert.equal(body.stream, true);
    assert.equal(body.messages[0].role, 'system');
    assert.match(body.messages[0].content, /only the text to insert/);
    const user = lastUserText(request);
    assert.match(user, /^File: Untitled-\d+ \(language: typescript\)/);
    assert.ok(user.includes('function sum(a: number, b: number) {\n  <CURSOR>\n}\n'), user);

    await undoOnce(editor.document);
    assert.equal(editor.document.getText(), SUM, 'one undo restores the original exactly');
  });

  it('closes its undo step: typing afterwards is undone separately', async () => {
    ctx.service.setScenario({ chat: { reply: 'return a * b;', chunkChars: 2 } });
    const editor = await openEditor(SUM, IN_BODY);
    assert.equal((await completeAtCursor()).status, 'completed');
    const completed = editor.document.getText();
    editor.selection = new vscode.Selection(new vscode.Position(2, 1), new vscode.Position(2, 1));
    await vscode.commands.executeCommand('type', { text: 'X' });
    assert.ok(editor.document.getText().includes('}X'));
    await undoOnce(editor.document);
    assert.equal(editor.document.getText(), completed, 'the first undo takes back only the typing');
    await undoOnce(editor.document);
    assert.equal(editor.document.getText(), SUM, 'the second undo takes back the whole completion');
  });

  it('Cancel on the progress notification stops the stream: the socket closes, the text so far stays, ONE undo restores the original', async () => {
    ctx.service.setScenario({ chat: { reply: 'abcdefghij'.repeat(20), chunkChars: 2, delayMs: 40 } });
    const progress = controlProgress();
    try {
      const editor = await openEditor(SUM, IN_BODY);
      const running = completeAtCursor();
      await waitFor(() => editor.document.getText().length >= SUM.length + 6, { what: 'the first text', timeoutMs: 20_000 });
      assert.deepEqual(progress.titles, ['Promptreel: Completing at the cursor']);
      progress.cancel();
      const result = await running;

      assert.equal(result.status, 'cancelled', JSON.stringify(result));
      assert.ok(result.text.length >= 6 && result.text.length < 200, `${result.text.length} characters kept`);
      assert.equal(editor.document.getText(), `function sum(a: number, b: number) {\n  ${result.text}\n}\n`, 'the text that arrived stays, in place');
      await ctx.service.waitForSocketsClosed(5000);
      assert.ok(
        progress.reports.some((report) => /\d+ characters/.test(report)),
        'the notification shows the progress',
      );

      await undoOnce(editor.document);
      assert.equal(editor.document.getText(), SUM, 'one undo restores the original exactly');
    } finally {
      progress.restore();
    }
  });

  it('Stop (Escape) cancels too, and the streaming context key follows the stream', async () => {
    ctx.service.setScenario({ chat: { reply: 'z'.repeat(300), chunkChars: 3, delayMs: 40 } });
    const { editorStream } = await testApi();
    const editor = await openEditor(SUM, IN_BODY);
    const running = completeAtCursor();
    await waitFor(() => editor.document.getText().length > SUM.length, { what: 'the first text', timeoutMs: 20_000 });
    assert.equal(editorStream.commands.streaming, true);
    assert.equal(await vscode.commands.executeCommand('promptreel.cancelEditorStream'), true);
    const result = await running;
    assert.equal(result.status, 'cancelled');
    assert.equal(editorStream.commands.streaming, false);
    assert.equal(await vscode.commands.executeCommand('promptreel.cancelEditorStream'), false, 'nothing left to stop');
    await ctx.service.waitForSocketsClosed(5000);
    assert.equal(editor.document.getText(), `function sum(a: number, b: number) {\n  ${result.text}\n}\n`);
  });

  it('a cut-off stream keeps what arrived and says so, offering Retry', async () => {
    ctx.service.setScenario({ chat: { reply: 'abcdefghijklmnop', chunkChars: 4, cut: 'no-finish', cutAfterChunks: 2 } });
    const messages = recordMessages();
    try {
      const editor = await openEditor(SUM, IN_BODY);
      const result = await completeAtCursor();
      assert.equal(result.status, 'failed');
      assert.equal(result.error?.kind, 'cut-off');
      assert.equal(editor.document.getText(), 'function sum(a: number, b: number) {\n  abcdefgh\n}\n');
      const shown = await waitFor(() => messages.shown.find((message) => message.severity === 'error'), { what: 'the error message' });
      assert.match(shown.message, /cut off/);
      assert.match(shown.message, /The 8 characters that arrived were kept/);
      assert.deepEqual(shown.items, ['Retry', 'Show Logs']);
    } finally {
      messages.restore();
    }
  });

  it('Retry continues at the cursor', async () => {
    ctx.service.setScenario({ chat: { reply: 'abcdefghijklmnop', chunkChars: 4, cut: 'no-finish', cutAfterChunks: 2 } });
    let retried = false;
    const messages = recordMessages((message) => {
      if (message.severity !== 'error' || retried) return undefined;
      retried = true;
      ctx.service.setScenario({ chat: { reply: 'ijklmnop', cut: null } });
      return 'Retry';
    });
    try {
      const editor = await openEditor(SUM, IN_BODY);
      await completeAtCursor();
      await waitFor(() => editor.document.getText().includes('abcdefghijklmnop'), { what: 'the retried completion' });
      assert.equal(editor.document.getText(), 'function sum(a: number, b: number) {\n  abcdefghijklmnop\n}\n');
      assert.equal(chatRequests(ctx.service).length, 2);
    } finally {
      messages.restore();
    }
  });

  it('401: nothing is inserted, and Set API Key is offered', async () => {
    const { keyStore } = (await testApi()).connection;
    await keyStore.store('sk-refused-by-the-service-0042');
    const messages = recordMessages();
    try {
      const editor = await openEditor(SUM, IN_BODY);
      const version = editor.document.version;
      const result = await completeAtCursor();
      assert.equal(result.status, 'failed');
      assert.equal(result.error?.status, 401);
      assert.equal(result.edits, 0);
      assert.equal(editor.document.getText(), SUM);
      assert.equal(editor.document.version, version, 'the document was not touched at all');
      const shown = await waitFor(() => messages.shown.find((message) => message.severity === 'error'), { what: 'the error message' });
      assert.match(shown.message, /refused the API key \(HTTP 401\)/);
      assert.match(shown.message, /Nothing was inserted/);
      assert.ok(shown.items.includes('Set API Key'), shown.items.join());
    } finally {
      messages.restore();
    }
  });

  it('without a key: offers Set API Key and sends nothing', async () => {
    const { keyStore } = (await testApi()).connection;
    await keyStore.clear();
    const messages = recordMessages();
    try {
      await openEditor(SUM, IN_BODY);
      const result = await completeAtCursor();
      assert.equal(result.status, 'skipped');
      assert.equal(result.reason, 'no-key');
      const shown = await waitFor(() => messages.shown.find((message) => message.severity === 'warning'), { what: 'the warning' });
      assert.match(shown.message, /Complete at Cursor needs an API key/);
      assert.deepEqual(shown.items, ['Set API Key']);
      assert.equal(chatRequests(ctx.service).length, 0);
    } finally {
      messages.restore();
    }
  });

  it('without a chat model set, writes with the first chat model the service lists', async () => {
    await setSetting('chat.model', undefined);
    await openEditor(SUM, IN_BODY);
    assert.equal((await completeAtCursor()).status, 'completed');
    assert.equal((chatRequests(ctx.service).at(-1)?.body as { model?: string }).model, 'promptreel-chat');
  });

  it('without a chat model, when the service lists none: offers Select Chat Model', async () => {
    await setSetting('chat.model', undefined);
    ctx.service.setScenario({ models: [{ id: 'promptreel-video', owned_by: 'promptreel', supported_endpoint_types: ['openai-video'] }] });
    (await testApi()).languageModels.catalog.invalidate('the test changed the model list');
    const messages = recordMessages();
    try {
      await openEditor(SUM, IN_BODY);
      const result = await completeAtCursor();
      assert.equal(result.reason, 'no-model');
      assert.deepEqual(result.notice?.actions, ['Select Chat Model']);
      assert.ok(messages.shown.some((message) => message.items.includes('Select Chat Model')));
    } finally {
      messages.restore();
      ctx.service.reset();
      (await testApi()).languageModels.catalog.invalidate('the test is over');
    }
  });

  it('the user typing elsewhere mid-stream: the insertion keeps its place', async () => {
    ctx.service.setScenario({ chat: { reply: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', chunkChars: 2, delayMs: 250 } });
    const original = 'line one\nline two\nline three\n';
    const editor = await openEditor(original, new vscode.Position(1, 8));
    const running = completeAtCursor();
    await waitFor(() => editor.document.lineAt(1).text.length > 8, { what: 'the first text', timeoutMs: 20_000 });

    // Typing before the insertion (same line and the line above), after it, and an edit by someone else.
    editor.selection = new vscode.Selection(new vscode.Position(0, 0), new vscode.Position(0, 0));
    await vscode.commands.executeCommand('type', { text: 'TOP ' });
    editor.selection = new vscode.Selection(new vscode.Position(1, 0), new vscode.Position(1, 0));
    await vscode.commands.executeCommand('type', { text: '> ' });
    editor.selection = new vscode.Selection(new vscode.Position(2, 10), new vscode.Position(2, 10));
    await vscode.commands.executeCommand('type', { text: ' END' });
    await applyUserEdit(editor.document, (edit, document) => edit.insert(document.uri, new vscode.Position(0, 0), 'NEW\n'));
    const { editorStream } = await testApi();
    assert.ok(editorStream.commands.streaming && !editor.document.getText().includes('XYZ'), 'the edits happened while the stream was still running');

    const result = await running;
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(editor.document.getText(), 'NEW\nTOP line one\n> line twoABCDEFGHIJKLMNOPQRSTUVWXYZ\nline three END\n');
  });

  it('the user editing the text being written: it stops gracefully, keeping what was written', async () => {
    ctx.service.setScenario({ chat: { reply: 'abcdefghijklmnopqrstuvwxyz'.repeat(4), chunkChars: 2, delayMs: 60 } });
    const messages = recordMessages();
    try {
      const editor = await openEditor(SUM, IN_BODY);
      const running = completeAtCursor();
      await waitFor(() => editor.document.lineAt(1).text.length >= 2 + 4, { what: 'some text', timeoutMs: 20_000 });
      // A keystroke, as the user makes it: Backspace after the second character written.
      editor.selection = new vscode.Selection(new vscode.Position(1, 4), new vscode.Position(1, 4));
      await vscode.commands.executeCommand('deleteLeft');
      const result = await running;
      assert.equal(result.status, 'interrupted');
      assert.equal(result.reason, 'edited');
      await ctx.service.waitForSocketsClosed(5000);
      const line = editor.document.lineAt(1).text;
      assert.equal(line, `  ${result.text.slice(0, 1)}${result.text.slice(2)}`, "what was written stays, with the user's edit");
      assert.ok(result.text.length < 104);
      const shown = await waitFor(() => messages.shown.find((message) => /text being written was edited/.test(message.message)), { what: 'the notice' });
      assert.equal(shown.severity, 'info');
    } finally {
      messages.restore();
    }
  });

  it('a fast stream is applied in far fewer edits than chunks (chunkChars 1 on #long)', async () => {
    ctx.service.setScenario({ chat: { chunkChars: 1 } });
    const editor = await openEditor('// #long\n', new vscode.Position(1, 0), 'plaintext');
    const started = Date.now();
    const result = await completeAtCursor();
    const elapsed = Date.now() - started;
    assert.equal(result.status, 'completed', JSON.stringify({ ...result, text: result.text.length }));
    assert.ok(result.chunks > 10_000, `${result.chunks} chunks`);
    assert.equal(result.text.length, result.chunks, 'one character per chunk, none lost');
    assert.equal(editor.document.getText(), `// #long\n${result.text}`);
    assert.ok(result.edits * 20 < result.chunks, `${result.edits} edits for ${result.chunks} chunks`);
    console.log(`      fast stream: ${result.chunks} chunks, ${result.text.length} characters, ${result.edits} edits in ${elapsed} ms`);
  });

  it('a steady stream gets at most one edit per frame (~16 ms)', async () => {
    ctx.service.setScenario({ chat: { reply: 'y'.repeat(600), chunkChars: 1, delayMs: 3 } });
    const editor = await openEditor('', new vscode.Position(0, 0), 'plaintext');
    const result = await completeAtCursor();
    assert.equal(result.status, 'completed');
    assert.equal(editor.document.getText(), 'y'.repeat(600));
    assert.equal(result.chunks, 600);
    assert.ok(result.edits <= result.durationMs / 16 + 2, `${result.edits} edits in ${result.durationMs} ms`);
    assert.ok(result.edits * 3 < result.chunks, `${result.edits} edits for ${result.chunks} chunks`);
    console.log(`      steady stream: ${result.chunks} chunks, ${result.edits} edits in ${result.durationMs} ms`);
  });

  it('inserts no reasoning', async () => {
    ctx.service.setScenario({ chat: { reply: 'a + b', reasoning: 'reasoning_content' } });
    const think = await openEditor(SUM, IN_BODY);
    assert.equal((await completeAtCursor()).status, 'completed');
    assert.equal(think.document.getText(), 'function sum(a: number, b: number) {\n  a + b\n}\n');

    ctx.service.setScenario({ chat: { reply: 'a - b', reasoning: 'think' } });
    const tagged = await openEditor(SUM, IN_BODY);
    assert.equal((await completeAtCursor()).status, 'completed');
    assert.equal(tagged.document.getText(), 'function sum(a: number, b: number) {\n  a - b\n}\n');
  });

  it('sends the sampling settings, and the developer role where the model accepts it', async () => {
    await setSetting('chat.temperature', 0.3);
    await setSetting('models.capabilities', { 'promptreel-chat': { developerRole: true } });
    ctx.service.setScenario({ chat: { reply: 'x' } });
    await openEditor(SUM, IN_BODY);
    assert.equal((await completeAtCursor()).status, 'completed');
    const body = chatRequests(ctx.service)[0]?.body as { temperature: number; messages: { role: string }[] };
    assert.equal(body.temperature, 0.3);
    assert.equal(body.messages[0].role, 'developer');
    await setSetting('chat.temperature', undefined);
    await setSetting('models.capabilities', undefined);
  });
});
