import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { escapeMarkdown } from '../../../src/common/markdownText';
import { parseStoryboardFile } from '../../../src/video/film/core/storyboard';
import { chatRequests, useConnectedService } from '../support/connectedService';
import { closeAllEditors, workspaceUri } from '../support/workspace';
import { runtime, testApi, VIDEO, videoPosts } from '../video/videoTestSupport';
import { chatRequest, RecordingStream, selectLines } from './participantSupport';

function noToken(): vscode.CancellationToken {
  return new vscode.CancellationTokenSource().token;
}

describe('participant: @promptreel /film (issue 27)', () => {
  const ctx = useConnectedService(VIDEO, {
    settings: { 'chat.model': 'promptreel-chat' },
    prepare: closeAllEditors,
    cleanup: async () => {
      await closeAllEditors();
      await vscode.workspace.fs.delete(workspaceUri('.promptreel'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    },
  });

  it('issue 27: drafts a storyboard of the selection and the attached files, opens its editor, and sums it up with a button to open it', async () => {
    const api = await testApi();
    await selectLines('src/sample.ts', 2, 4);
    const readme = workspaceUri('README.md');
    const stream = new RecordingStream();
    const result = await api.participant.handle(
      chatRequest({ prompt: 'focus on the return value', command: 'film', references: [{ id: 'vscode.file', value: readme }] }),
      { history: [] },
      stream,
      noToken(),
    );

    assert.equal(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    assert.equal(result.metadata.kind, 'film');
    const file = vscode.Uri.parse(result.metadata.storyboard ?? '');
    assert.match(file.path, /\/\.promptreel\/films\/[^/]+\.json$/);
    const read = parseStoryboardFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)));
    assert.ok(read.ok, JSON.stringify(read));
    const { storyboard } = read;
    assert.deepEqual(storyboard.source, { file: 'src/sample.ts', startLine: 2, endLine: 4, language: 'typescript' });

    // One chat request, with the selection, the attached file and what was asked; no video request.
    const sent = chatRequests(ctx.service);
    assert.equal(sent.length, 1);
    const user = String((sent[0].body as { messages: { content: unknown }[] }).messages.at(-1)?.content);
    assert.ok(user.includes('return a + b;'), 'the selection is sent');
    assert.ok(user.includes('Also mentioned: README.md') && user.includes('# Sample workspace'), 'the attached file is sent');
    assert.ok(user.includes('What the film should focus on: focus on the return value'), 'the request is the film’s focus');
    assert.equal(videoPosts(ctx.service).length, 0);

    // The editor of the storyboard is open, and the answer says what it holds.
    const flows = await runtime(api).flows.get();
    assert.ok(flows.films.editorOf(file), 'the storyboard editor is open');
    const seconds = storyboard.shots.reduce((sum, shot) => sum + shot.seconds, 0);
    assert.ok(
      stream.text.includes(`has ${storyboard.shots.length} shots, ${seconds} seconds in all, saved in \`${vscode.workspace.asRelativePath(file, false)}\``),
      stream.text,
    );
    for (const [index, shot] of storyboard.shots.entries())
      assert.ok(stream.text.includes(`${index + 1}. ${escapeMarkdown(shot.caption)}`), `the caption of ${shot.id} is listed`);
    assert.deepEqual(
      stream.buttons.map((button) => [button.command, (button.arguments?.[0] as vscode.Uri | undefined)?.toString()]),
      [['promptreel.openStoryboard', file.toString()]],
    );
    assert.match(stream.progressMessages[0] ?? '', /^Drafting a storyboard of src\/sample\.ts:2-4 with promptreel-chat…$/);

    // The button opens (reveals) the same editor.
    await closeAllEditors();
    const [button] = stream.buttons;
    assert.ok(await vscode.commands.executeCommand(button.command, ...(button.arguments ?? [])));
    assert.ok(flows.films.editorOf(file));
  });

  it('issue 27: drafts with the model picked in the chat when it is a Promptreel model', async () => {
    const api = await testApi();
    await selectLines('src/sample.ts', 2, 4);
    const picked = { vendor: 'promptreel', id: 'promptreel-reasoner' } as unknown as vscode.LanguageModelChat;
    await api.participant.handle(chatRequest({ prompt: '', command: 'film', model: picked }), { history: [] }, new RecordingStream(), noToken());
    assert.equal((chatRequests(ctx.service)[0]?.body as { model?: string } | undefined)?.model, 'promptreel-reasoner');
  });

  it('issue 27: without a selection or an attached file it says what to do and sends nothing', async () => {
    const api = await testApi();
    const stream = new RecordingStream();
    const result = await api.participant.handle(chatRequest({ prompt: '', command: 'film' }), { history: [] }, stream, noToken());
    assert.equal(result.metadata.kind, 'setup');
    assert.match(stream.text, /attach a file with `#`\), then ask `@promptreel \/film` again/);
    assert.equal(ctx.service.requests.filter((request) => request.method === 'POST').length, 0);
  });

  it('issue 27: a reply that is not a storyboard, even when asked again, is shown with what was wrong', async () => {
    ctx.service.setScenario({ chat: { replies: ['No JSON here.', 'Still no JSON.'] } });
    const api = await testApi();
    await selectLines('src/sample.ts', 2, 4);
    const stream = new RecordingStream();
    const result = await api.participant.handle(chatRequest({ prompt: '', command: 'film' }), { history: [] }, stream, noToken());
    assert.equal(result.metadata.kind, 'error');
    assert.match(result.errorDetails?.message ?? '', /did not write a valid storyboard/);
    assert.ok(stream.text.includes('Still no JSON.'), stream.text);
    assert.equal(chatRequests(ctx.service).length, 2);
  });
});
