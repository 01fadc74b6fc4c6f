import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { chatRequests, useConnectedService } from '../support/connectedService';
import { closeAllEditors } from '../support/workspace';
import { waitFor } from '../support/waitFor';
import { lastChatBody, promptreelModel, setSetting, testApi } from '../languageModels/languageModelSupport';
import { chatRequest, RecordingStream, requestTurn, responseTurn, selectLines } from './participantSupport';

interface Contributed {
  id: string;
  name: string;
  isSticky?: boolean;
  commands: { name: string; description: string }[];
}

function noToken(): vscode.CancellationToken {
  return new vscode.CancellationTokenSource().token;
}

describe('participant: @promptreel answers', () => {
  const ctx = useConnectedService({ settings: { 'chat.model': 'promptreel-chat' }, prepare: closeAllEditors, teardown: closeAllEditors });

  it('is contributed as @promptreel with /explain, /video and /film, and registered', async () => {
    const { participant } = await testApi();
    const contributed = (vscode.extensions.getExtension('promptreel.promptreel')?.packageJSON as { contributes: { chatParticipants: Contributed[] } })
      .contributes.chatParticipants;
    assert.deepEqual(
      contributed.map((entry) => [entry.id, entry.name, entry.isSticky]),
      [['promptreel.participant', 'promptreel', true]],
    );
    assert.deepEqual(
      contributed[0].commands.map((command) => command.name),
      ['explain', 'video', 'film'],
    );
    assert.equal(participant.participant.id, 'promptreel.participant');
    assert.ok(participant.participant.iconPath instanceof vscode.Uri && participant.participant.iconPath.path.endsWith('/media/promptreel.svg'));
  });

  it('streams the answer of the configured model as Markdown, with the editor selection as context', async () => {
    ctx.service.setScenario({ chat: { chunkChars: 6 } });
    const { participant } = await testApi();
    const editor = await selectLines('src/sample.ts', 2, 4);
    const stream = new RecordingStream();
    const result = await participant.handle(chatRequest({ prompt: 'What does this do?' }), { history: [] }, stream, noToken());

    assert.deepEqual(result.metadata, { kind: 'answer', model: 'promptreel-chat' });
    assert.equal(result.errorDetails, undefined);
    assert.match(
      stream.answer,
      /^You said: What does this do\?\s+Context:\s+src\/sample\.ts:2-4:\s+```typescript\nexport function add\(a: number, b: number\): number \{\n {2}return a \+ b;\n\}\n```$/,
    );
    assert.ok(stream.markdownCount > 5, `streamed in pieces (${stream.markdownCount})`);
    const reference = stream.parts.find((part) => part.kind === 'reference');
    assert.ok(reference && reference.value instanceof vscode.Location, 'the selection is shown as a reference');
    assert.equal(reference.value.uri.toString(), editor.document.uri.toString());
    assert.equal(reference.value.range.start.line, 1);

    const body = lastChatBody(ctx.service);
    assert.equal(body.model, 'promptreel-chat');
    assert.equal(body.stream, true);
    assert.deepEqual(
      body.messages.map((message) => message.role),
      ['system', 'user'],
    );
    assert.match(String(body.messages[0].content), /You are Promptreel/);
  });

  it('answers with the model picked in the chat when it is a Promptreel model', async () => {
    const { participant } = await testApi();
    const reasoner = await waitFor(() => promptreelModel('promptreel-reasoner').catch(() => undefined), {
      what: 'the reasoner in vscode.lm',
      timeoutMs: 20_000,
    });
    const stream = new RecordingStream();
    const result = await participant.handle(chatRequest({ prompt: 'Hi', model: reasoner }), { history: [] }, stream, noToken());
    assert.equal(lastChatBody(ctx.service).model, 'promptreel-reasoner');
    assert.equal(result.metadata.model, 'promptreel-reasoner');
    assert.equal(stream.answer, 'You said: Hi');
    assert.ok(stream.progressMessages.includes('promptreel-reasoner is thinking…'), 'reasoning shows as progress, not as answer text');

    const other = { vendor: 'another-vendor', id: 'their-model' } as unknown as vscode.LanguageModelChat;
    await participant.handle(chatRequest({ prompt: 'Hi', model: other }), { history: [] }, new RecordingStream(), noToken());
    assert.equal(lastChatBody(ctx.service).model, 'promptreel-chat', "another vendor's model: the configured one");
  });

  it('includes attached references and the earlier turns', async () => {
    const { participant } = await testApi();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const readme = vscode.Uri.joinPath(folder, 'README.md');
    const sample = vscode.Uri.joinPath(folder, 'src', 'sample.ts');
    const references: vscode.ChatPromptReference[] = [
      { id: 'vscode.file', value: new vscode.Location(sample, new vscode.Range(5, 0, 8, 0)) },
      { id: 'vscode.file', value: readme },
    ];
    const history = [requestTurn('first question'), responseTurn('first answer'), requestTurn('a cat', 'video'), responseTurn('Video task created', 'video')];
    const stream = new RecordingStream();
    await participant.handle(chatRequest({ prompt: 'Compare these', references }), { history }, stream, noToken());
    const messages = lastChatBody(ctx.service).messages;
    assert.deepEqual(
      messages.map((message) => [message.role, message.role === 'user' || message.role === 'assistant' ? String(message.content).split('\n')[0] : '']),
      [
        ['system', ''],
        ['user', 'first question'],
        ['assistant', 'first answer'],
        ['user', 'Compare these'],
      ],
    );
    const question = String(messages[3].content);
    assert.ok(question.indexOf('README.md:\n```markdown\n# Sample workspace') > 0, question);
    assert.ok(
      question.indexOf('src/sample.ts:6-8:\n```typescript\n/** Greets someone by name. */') > question.indexOf('README.md'),
      'in the order of the prompt',
    );
  });

  it('explains the selection with /explain and offers follow-ups', async () => {
    const { participant } = await testApi();
    await selectLines('src/sample.ts', 6, 9);
    const stream = new RecordingStream();
    const result = await participant.handle(chatRequest({ prompt: '', command: 'explain' }), { history: [] }, stream, noToken());
    assert.deepEqual(result.metadata, { kind: 'explain', model: 'promptreel-chat' });
    assert.match(stream.text, /^You said: Explain this code: what it does, how it works step by step/);
    assert.match(stream.text, /export function greet\(name: string\): string/);
    const followups = await participant.provideFollowups(result);
    assert.deepEqual(
      followups.map((followup) => followup.label),
      ['Explain it more simply', 'What could go wrong?'],
    );
    assert.ok(followups.every((followup) => followup.prompt && followup.command === 'explain'));

    const answered = await participant.handle(chatRequest({ prompt: 'And?' }), { history: [] }, new RecordingStream(), noToken());
    assert.deepEqual(
      (await participant.provideFollowups(answered)).map((followup) => followup.label),
      ['Tell me more', 'Summarize'],
    );
  });

  it('asks for a selection when /explain has nothing to explain, without calling the service', async () => {
    const { participant } = await testApi();
    const stream = new RecordingStream();
    const result = await participant.handle(chatRequest({ prompt: '', command: 'explain' }), { history: [] }, stream, noToken());
    assert.equal(result.metadata.kind, 'setup');
    assert.match(stream.text, /Select the code to explain/);
    assert.equal(chatRequests(ctx.service).length, 0);
    assert.deepEqual(await participant.provideFollowups(result), []);
  });

  it('offers Set API Key without a key; without a model it uses the first listed, and Select Chat Model when none is', async () => {
    const { participant, connection } = await testApi();
    const { keyStore } = connection;
    await keyStore.clear();
    const noKey = new RecordingStream();
    assert.equal((await participant.handle(chatRequest({ prompt: 'Hi' }), { history: [] }, noKey, noToken())).metadata.kind, 'setup');
    assert.match(noKey.text, /^Promptreel needs an API key for http:\/\/127\.0\.0\.1:\d+\.$/);
    assert.deepEqual(
      noKey.buttons.map((button) => button.command),
      ['promptreel.setApiKey'],
    );

    await keyStore.store(ctx.service.demoKey);
    await setSetting('chat.model', undefined);
    // No model chosen: the first chat model the service lists, as everywhere else.
    const firstListed = new RecordingStream();
    const answered = await participant.handle(chatRequest({ prompt: 'Hi' }), { history: [] }, firstListed, noToken());
    assert.equal(answered.metadata.model, 'promptreel-chat');
    assert.equal(lastChatBody(ctx.service).model, 'promptreel-chat');

    // None listed either: Select Chat Model.
    ctx.service.setScenario({ models: [{ id: 'promptreel-video', owned_by: 'promptreel', supported_endpoint_types: ['openai-video'] }] });
    (await testApi()).languageModels.catalog.invalidate('the test changed the model list');
    const before = chatRequests(ctx.service).length;
    const noModel = new RecordingStream();
    await participant.handle(chatRequest({ prompt: 'Hi' }), { history: [] }, noModel, noToken());
    assert.deepEqual(
      noModel.buttons.map((button) => button.command),
      ['promptreel.selectChatModel'],
    );
    assert.equal(chatRequests(ctx.service).length, before);
    ctx.service.reset();
    (await testApi()).languageModels.catalog.invalidate('the test is over');
  });

  it('reports a refused request with the server message and the buttons that fix it', async () => {
    const { participant } = await testApi();
    ctx.service.setScenario({ fault: { status: 403, code: 'model_not_allowed', message: 'This key may not use promptreel-chat', path: 'chat' } });
    const stream = new RecordingStream();
    const result = await participant.handle(chatRequest({ prompt: 'Hi' }), { history: [] }, stream, noToken());
    assert.equal(result.metadata.kind, 'error');
    assert.match(result.errorDetails?.message ?? '', /was not allowed \(HTTP 403\)\. The service said: "This key may not use promptreel-chat/);
    assert.match(result.errorDetails?.message ?? '', /This key may not use this model/);
    assert.deepEqual(
      stream.buttons.map((button) => button.command),
      ['promptreel.selectChatModel', 'promptreel.setApiKey', 'promptreel.showLogs'],
    );

    ctx.service.setScenario({ fault: { status: 401, code: 'invalid_api_key', message: 'Invalid token', path: 'chat' } });
    const refused = new RecordingStream();
    const refusedResult = await participant.handle(chatRequest({ prompt: 'Hi' }), { history: [] }, refused, noToken());
    assert.match(refusedResult.errorDetails?.message ?? '', /Invalid token/);
    assert.deepEqual(
      refused.buttons.map((button) => button.command),
      ['promptreel.setApiKey', 'promptreel.showLogs'],
    );
  });

  it('stops and closes the socket when the chat request is cancelled', async () => {
    const { participant } = await testApi();
    ctx.service.setScenario({ chat: { reply: 'y'.repeat(400), chunkChars: 2, delayMs: 50 } });
    const source = new vscode.CancellationTokenSource();
    const stream = new RecordingStream();
    const handled = participant.handle(chatRequest({ prompt: 'Talk' }), { history: [] }, stream, source.token);
    await waitFor(() => stream.markdownCount >= 2, { what: 'the first pieces of the answer', timeoutMs: 20_000 });
    source.cancel();
    const result = await handled;
    assert.equal(result.metadata.kind, 'cancelled');
    assert.equal(result.errorDetails, undefined);
    await ctx.service.waitForSocketsClosed(10_000);
    assert.ok(stream.text.length < 400);
  });
});
