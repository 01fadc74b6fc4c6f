import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import { packageJson, stubInputBox } from '../support/extension';
import {
  chatRequests,
  controlProgress,
  lastUserText,
  openEditor,
  recordMessages,
  rewriteSelection,
  setSetting,
  testApi,
  undoOnce,
  EDITOR,
  waitFor,
} from './editorStreamSupport';

const CODE = 'const a = 1;\nlet b = 2;\nconsole.log(a + b);\n';
/** The whole second line, its line break included. */
const LINE_TWO = new vscode.Selection(new vscode.Position(1, 0), new vscode.Position(2, 0));
const REWRITTEN = 'const a = 1;\nconst b = 2;\nconsole.log(a + b);\n';

interface RewriteDecision {
  id?: string;
  decision: 'accepted' | 'rejected' | 'none';
  reason?: string;
}

function diffTabOf(proposalUri: string | undefined): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .find((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === proposalUri);
}

describe('editor: Rewrite Selection (real VS Code, local service)', () => {
  const ctx = useConnectedService(EDITOR);

  afterEach(async () => {
    await setSetting('editor.rewriteMode', undefined);
  });

  it('inline: streams the replacement over the selection (keeping its line break), as ONE undo step', async () => {
    ctx.service.setScenario({ chat: { reply: '```ts\nconst b = 2;\n```', chunkChars: 3, delayMs: 5 } });
    const editor = await openEditor(CODE, LINE_TWO);
    const input = stubInputBox(['Use const']);
    try {
      const result = await rewriteSelection();
      assert.equal(result.status, 'completed', JSON.stringify(result));
      assert.equal(result.mode, 'inline');
    } finally {
      input.restore();
    }
    assert.equal(editor.document.getText(), REWRITTEN);
    assert.equal(input.calls[0]?.title, 'Promptreel: Rewrite Selection');

    const user = lastUserText(chatRequests(ctx.service)[0]);
    assert.ok(user.includes('Instruction: Use const'), user);
    assert.ok(user.includes('<selection>\nlet b = 2;\n\n</selection>'), user);
    assert.ok(user.includes('<before>\nconst a = 1;\n\n</before>'), user);
    assert.match(user, /\(language: typescript\)/);
    const system = (chatRequests(ctx.service)[0].body as { messages: { role: string; content: string }[] }).messages[0];
    assert.match(system.content, /only the text that replaces the selection/);

    await undoOnce(editor.document);
    assert.equal(editor.document.getText(), CODE, 'one undo restores the original exactly');
  });

  it('remembers the last instruction as the default of the input box', async () => {
    ctx.service.setScenario({ chat: { reply: 'let b = 3;' } });
    await openEditor(CODE, LINE_TWO);
    const first = stubInputBox(['Make it three']);
    try {
      assert.equal((await rewriteSelection()).status, 'completed');
    } finally {
      first.restore();
    }
    await openEditor(CODE, LINE_TWO);
    const second = stubInputBox([undefined]);
    try {
      const result = await rewriteSelection();
      assert.equal(result.status, 'skipped');
      assert.equal(result.reason, 'no-instruction');
    } finally {
      second.restore();
    }
    assert.equal(second.calls[0]?.value, 'Make it three');
    assert.deepEqual(second.calls[0]?.valueSelection, [0, 'Make it three'.length]);
    assert.equal(chatRequests(ctx.service).length, 1, 'a dismissed input box sends nothing');
  });

  it('asks for a selection when there is none', async () => {
    const messages = recordMessages();
    try {
      await openEditor(CODE, new vscode.Position(1, 0));
      const result = await rewriteSelection({ instruction: 'x' });
      assert.equal(result.reason, 'no-selection');
      assert.equal(chatRequests(ctx.service).length, 0);
    } finally {
      messages.restore();
    }
  });

  it('diff: streams into a diff, and Accept applies it in one edit (one undo step)', async () => {
    await setSetting('editor.rewriteMode', 'diff');
    ctx.service.setScenario({ chat: { reply: 'const b = 2;', chunkChars: 2, delayMs: 5 } });
    const messages = recordMessages();
    const editor = await openEditor(CODE, LINE_TWO);
    let proposalUri: string | undefined;
    try {
      const result = await rewriteSelection({ instruction: 'Use const' });
      assert.equal(result.status, 'completed', JSON.stringify(result));
      assert.equal(result.mode, 'diff');
      assert.ok(result.rewriteId && result.proposalUri);
      proposalUri = result.proposalUri;
      assert.equal(editor.document.getText(), CODE, 'the document is untouched until Accept');

      const tab = diffTabOf(proposalUri);
      assert.ok(tab, 'the diff is open');
      const input = tab.input as vscode.TabInputTextDiff;
      assert.equal(input.original.toString(), editor.document.uri.toString(), 'the document on the left');
      const proposal = await vscode.workspace.openTextDocument(vscode.Uri.parse(proposalUri));
      // VS Code asks the content provider again after each change, asynchronously.
      await waitFor(() => proposal.getText() === REWRITTEN, { what: `the proposal on the right (now ${JSON.stringify(proposal.getText())})` });
      assert.equal(proposal.languageId, 'typescript');

      const offered = await waitFor(() => messages.shown.find((message) => message.items.includes('Accept')), { what: 'the Accept / Reject notification' });
      assert.deepEqual(offered.items, ['Accept', 'Reject']);
      const { editorStream } = await testApi();
      assert.equal(editorStream.proposals.pending.length, 1);

      const decision = await vscode.commands.executeCommand<RewriteDecision>('promptreel.acceptRewrite', result.rewriteId);
      assert.equal(decision.decision, 'accepted');
      assert.equal(editor.document.getText(), REWRITTEN);
      await waitFor(() => !diffTabOf(proposalUri), { what: 'the diff to close' });
      assert.equal(editorStream.proposals.pending.length, 0);

      await undoOnce(editor.document);
      assert.equal(editor.document.getText(), CODE, 'one undo restores the original exactly');
    } finally {
      messages.restore();
    }
  });

  it('diff: Reject leaves the document as it was and closes the diff', async () => {
    await setSetting('editor.rewriteMode', 'diff');
    ctx.service.setScenario({ chat: { reply: 'let b = 99;' } });
    const messages = recordMessages();
    try {
      const editor = await openEditor(CODE, LINE_TWO);
      const version = editor.document.version;
      const result = await rewriteSelection({ instruction: 'Change the value' });
      assert.equal(result.status, 'completed');
      assert.ok(diffTabOf(result.proposalUri));
      const decision = await vscode.commands.executeCommand<RewriteDecision>('promptreel.rejectRewrite', result.rewriteId);
      assert.equal(decision.decision, 'rejected');
      await waitFor(() => !diffTabOf(result.proposalUri), { what: 'the diff to close' });
      assert.equal(editor.document.getText(), CODE);
      assert.equal(editor.document.version, version, 'never touched');
      const again = await vscode.commands.executeCommand<RewriteDecision>('promptreel.acceptRewrite', result.rewriteId);
      assert.equal(again.decision, 'none', 'a rejected proposal cannot be accepted later');
    } finally {
      messages.restore();
    }
  });

  it('refuses to write into a read-only editor (the proposal side of a diff)', async () => {
    await setSetting('editor.rewriteMode', 'diff');
    ctx.service.setScenario({ chat: { reply: 'const b = 2;' } });
    const messages = recordMessages();
    try {
      await openEditor(CODE, LINE_TWO);
      const rewrite = await rewriteSelection({ instruction: 'Use const' });
      const proposal = await vscode.window.showTextDocument(vscode.Uri.parse(rewrite.proposalUri ?? ''), { preview: false });
      proposal.selection = new vscode.Selection(new vscode.Position(1, 0), new vscode.Position(1, 5));
      const result = await vscode.commands.executeCommand<{ status: string; reason?: string }>('promptreel.completeAtCursor');
      assert.deepEqual([result.status, result.reason], ['skipped', 'read-only']);
      assert.equal(chatRequests(ctx.service).length, 1, 'nothing sent for the read-only editor');
      await vscode.commands.executeCommand('promptreel.rejectRewrite', rewrite.rewriteId);
    } finally {
      messages.restore();
    }
  });

  it('diff: Accept follows edits made elsewhere meanwhile', async () => {
    await setSetting('editor.rewriteMode', 'diff');
    ctx.service.setScenario({ chat: { reply: 'const b = 2;' } });
    const messages = recordMessages();
    try {
      const editor = await openEditor(CODE, LINE_TWO);
      const result = await rewriteSelection({ instruction: 'Use const' });
      const edit = new vscode.WorkspaceEdit();
      edit.insert(editor.document.uri, new vscode.Position(0, 0), '// header\n');
      edit.insert(editor.document.uri, new vscode.Position(2, 19), ' // sum');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const proposal = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.proposalUri ?? ''));
      await waitFor(() => proposal.getText().startsWith('// header\n'), { what: 'the proposal to follow the document' });
      const decision = await vscode.commands.executeCommand<RewriteDecision>('promptreel.acceptRewrite', result.rewriteId);
      assert.equal(decision.decision, 'accepted');
      assert.equal(editor.document.getText(), '// header\nconst a = 1;\nconst b = 2;\nconsole.log(a + b); // sum\n');
    } finally {
      messages.restore();
    }
  });

  it('diff: a rewrite whose selection was edited meanwhile is not applied', async () => {
    await setSetting('editor.rewriteMode', 'diff');
    ctx.service.setScenario({ chat: { reply: 'const b = 2;' } });
    const messages = recordMessages();
    try {
      const editor = await openEditor(CODE, LINE_TWO);
      const result = await rewriteSelection({ instruction: 'Use const' });
      const edit = new vscode.WorkspaceEdit();
      edit.replace(editor.document.uri, new vscode.Range(new vscode.Position(1, 4), new vscode.Position(1, 5)), 'c');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const decision = await vscode.commands.executeCommand<RewriteDecision>('promptreel.acceptRewrite', result.rewriteId);
      assert.deepEqual([decision.decision, decision.reason], ['none', 'selection-edited']);
      assert.equal(editor.document.getText(), 'const a = 1;\nlet c = 2;\nconsole.log(a + b);\n');
      await waitFor(() => messages.shown.some((message) => /cannot be applied/.test(message.message)), { what: 'the warning' });
    } finally {
      messages.restore();
    }
  });

  it('inline: Cancel keeps the partial rewrite, ONE undo restores the original', async () => {
    ctx.service.setScenario({ chat: { reply: 'const b = 2; // '.repeat(20), chunkChars: 2, delayMs: 40 } });
    const progress = controlProgress();
    try {
      const editor = await openEditor(CODE, LINE_TWO);
      const running = rewriteSelection({ instruction: 'Use const' });
      await waitFor(() => editor.document.lineAt(1).text.startsWith('const'), { what: 'the first text', timeoutMs: 20_000 });
      progress.cancel();
      const result = await running;
      assert.equal(result.status, 'cancelled');
      assert.equal(editor.document.getText(), `const a = 1;\n${result.text}console.log(a + b);\n`, 'the selection was replaced by what arrived');
      await ctx.service.waitForSocketsClosed(5000);
      await undoOnce(editor.document);
      assert.equal(editor.document.getText(), CODE);
    } finally {
      progress.restore();
    }
  });

  it('inline: after a cut-off, Retry rewrites the original text again in place of the partial one', async () => {
    ctx.service.setScenario({ chat: { reply: 'const b = 2;', chunkChars: 4, cut: 'no-finish', cutAfterChunks: 1 } });
    let retried = false;
    const messages = recordMessages((message) => {
      if (message.severity !== 'error' || retried) return undefined;
      retried = true;
      ctx.service.setScenario({ chat: { cut: null } });
      return 'Retry';
    });
    try {
      const editor = await openEditor(CODE, LINE_TWO);
      const result = await rewriteSelection({ instruction: 'Use const' });
      assert.equal(result.status, 'failed');
      assert.equal(result.text, 'cons');
      await waitFor(() => chatRequests(ctx.service).length === 2 && editor.document.getText() === REWRITTEN, {
        what: 'the retried rewrite',
        timeoutMs: 15_000,
      });
      const retry = lastUserText(chatRequests(ctx.service)[1]);
      assert.ok(retry.includes('<selection>\nlet b = 2;\n\n</selection>'), 'the retry rewrites the original selection, not the partial text');
      assert.ok(retry.includes('Instruction: Use const'));
    } finally {
      messages.restore();
    }
  });

  it('contributes the commands to the editor context menu, the palette (writable editors) and keybindings', () => {
    const contributes = packageJson().contributes as {
      menus: Record<string, { command: string; when?: string }[]>;
      keybindings: { command: string; key: string; when?: string }[];
    };
    const context = contributes.menus['editor/context'].map((item) => item.command);
    assert.ok(context.includes('promptreel.completeAtCursor') && context.includes('promptreel.rewriteSelection'));
    for (const command of ['promptreel.completeAtCursor', 'promptreel.rewriteSelection']) {
      const palette = contributes.menus.commandPalette.find((item) => item.command === command);
      assert.match(palette?.when ?? '', /!activeEditorIsReadonly/);
      assert.ok(contributes.keybindings.some((binding) => binding.command === command));
    }
    for (const command of ['promptreel.acceptRewrite', 'promptreel.rejectRewrite', 'promptreel.cancelEditorStream']) {
      assert.ok(contributes.menus.commandPalette.find((item) => item.command === command)?.when, `${command} is hidden from the palette unless relevant`);
    }
    const title = contributes.menus['editor/title'];
    assert.ok(
      title.some((item) => item.command === 'promptreel.acceptRewrite' && item.when === "resourceScheme == 'promptreel-rewrite'"),
      JSON.stringify(title),
    );
  });
});
