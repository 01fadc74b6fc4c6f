import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AskResult } from '../../../src/chatPanel/askAboutSelection';
import { parseStoryboardFile } from '../../../src/video/film/core/storyboard';
import { chatRequests, useConnectedService } from '../support/connectedService';
import { closeAllEditors, workspaceUri } from '../support/workspace';
import { VIDEO, runtime } from '../video/videoTestSupport';
import { CHAT, testApi, waitFor } from './chatTestSupport';

describe('chat: an explainer film of the panel’s selection (issue 27)', () => {
  const ctx = useConnectedService(CHAT, VIDEO, {
    cleanup: async () => {
      await closeAllEditors();
      await vscode.workspace.fs.delete(workspaceUri('.promptreel'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    },
  });

  it('issue 27: Explainer Film drafts the storyboard of the selection the panel holds, through Generate Explainer Film, even once the editor is closed', async () => {
    const api = await testApi();
    const document = await vscode.workspace.openTextDocument(workspaceUri('src', 'sample.ts'));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 3, 1);
    const asked = await vscode.commands.executeCommand<AskResult>('promptreel.askAboutSelection');
    assert.ok(asked?.host.composerDraft.context, 'the panel holds the selection');
    // The selection is gone from the editor: the film is of what the panel shows.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    await asked.host.handleMessage({ type: 'makeFilm', text: 'the sum' });
    const flows = await runtime(api).flows.get();
    const films = await waitFor(
      async () => {
        const found = await vscode.workspace.findFiles('.promptreel/films/*.json');
        return found.length ? found : undefined;
      },
      {
        what: 'the storyboard to be written',
        timeoutMs: 20_000,
      },
    );
    const read = parseStoryboardFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(films[0])));
    assert.ok(read.ok, JSON.stringify(read));
    assert.deepEqual(read.storyboard.source, { file: 'src/sample.ts', startLine: 2, endLine: 4, language: 'typescript' });
    await waitFor(() => flows.films.editorOf(films[0]), { what: 'the storyboard editor to open' });
    const sent = chatRequests(ctx.service);
    assert.equal(sent.length, 1, 'one chat request: the storyboard, no chat reply');
    const user = String((sent[0].body as { messages: { content: unknown }[] }).messages.at(-1)?.content);
    assert.ok(user.includes('return a + b;') && user.includes('What the film should focus on: the sum'), user);

    // Anything but the page's own message is refused before it reaches the command.
    await asked.host.handleMessage({ type: 'makeFilm', text: 'x', code: 'injected' });
    await asked.host.handleMessage({ type: 'makeFilm' });
    assert.equal(chatRequests(ctx.service).length, 1);
  });
});
