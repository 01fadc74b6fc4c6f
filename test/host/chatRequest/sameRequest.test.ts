import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import { closeAllEditors } from '../support/workspace';
import { newConversation } from '../chatPanel/chatTestSupport';
import { chatRequest, RecordingStream } from '../participant/participantSupport';
import { openEditor } from '../editorStream/editorStreamSupport';
import { scriptQuickInputs } from '../video/videoTestSupport';
import { setSetting, testApi } from '../support/extension';
import { waitFor } from '../support/waitFor';

const SETTINGS = {
  'chat.model': 'promptreel-chat',
  'chat.temperature': 0.3,
  'chat.topP': 0.8,
  'chat.presencePenalty': 0.4,
  'chat.maxTokens': 9000,
  'video.model': 'promptreel-video',
  'models.capabilities': { 'promptreel-chat': { maxOutputTokens: 2000, developerRole: true, reasoningEffort: 'low', tools: false } },
};

/**
 * What shapes a request, apart from its messages and how it is delivered (a stream or a whole answer): the parameters,
 * and the role its instructions went as (VS Code's provider API has no instructions to give).
 */
function shape(body: Record<string, unknown>): Record<string, unknown> {
  const { messages, stream: _stream, stream_options: _options, ...rest } = body as { messages: { role: string }[]; stream?: unknown; stream_options?: unknown };
  const first = messages[0]?.role;
  return { ...rest, ...(first !== 'user' ? { instructionsRole: first } : {}) };
}

// Issue 24: one policy shapes every chat request, so the same model and settings give the same request everywhere.
describe('chat requests: the same model and settings give the same request from every surface (issue 24)', () => {
  const ctx = useConnectedService({ settings: SETTINGS, cleanup: closeAllEditors });

  it('the chat panel, Complete at Cursor, VS Code’s model provider, @promptreel and the explainer send the same parameters', async () => {
    const api = await testApi();
    const sent = () => ctx.service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/chat/completions');
    const bodies: Record<string, Record<string, unknown>> = {};
    const take = async (surface: string, run: () => Promise<unknown>) => {
      const before = sent().length;
      await run();
      const body = await waitFor(() => sent()[before]?.body as Record<string, unknown> | undefined, { what: `the request of ${surface}` });
      bodies[surface] = shape(body);
    };

    await take('panel', async () => api.chat.controller.send((await newConversation({ systemPrompt: 'Be brief.' })).id, { text: 'hi' }));
    await take('editor', async () => {
      await openEditor('function sum(a, b) {\n  \n}\n', new vscode.Position(1, 2));
      await api.editorStream.commands.completeAtCursor();
    });
    await take('provider', async () => {
      const [model] = await vscode.lm.selectChatModels({ vendor: 'promptreel', id: 'promptreel-chat' });
      assert.ok(model, 'the model is in VS Code’s list');
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hi')], {}, new vscode.CancellationTokenSource().token);
      for await (const part of response.stream) void part;
    });
    await take('participant', () =>
      api.participant.handle(chatRequest({ prompt: 'hi' }), { history: [] }, new RecordingStream(), new vscode.CancellationTokenSource().token),
    );
    await take('explainer', async () => {
      const editor = await openEditor('const total = items.reduce((sum, item) => sum + item.price, 0);\n', new vscode.Position(0, 0));
      editor.selection = new vscode.Selection(0, 0, 0, 60);
      const script = scriptQuickInputs([{ cancel: true }]);
      try {
        await vscode.commands.executeCommand('promptreel.generateExplainerVideo');
      } finally {
        script.restore();
      }
    });

    const expected = {
      model: 'promptreel-chat',
      temperature: 0.3,
      top_p: 0.8,
      presence_penalty: 0.4,
      max_tokens: 2000,
      reasoning_effort: 'low',
      instructionsRole: 'developer',
    };
    const { instructionsRole: _role, ...withoutInstructions } = expected;
    for (const [surface, body] of Object.entries(bodies))
      assert.deepEqual(body, surface === 'provider' ? withoutInstructions : expected, `the request of ${surface}`);
    assert.deepEqual(Object.keys(bodies), ['panel', 'editor', 'provider', 'participant', 'explainer']);
    await setSetting('chat.temperature', undefined);
  });
});
