import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';
import { collectResponse, imagePart, lastChatBody, promptreelModel, promptreelModels, setSetting, testApi } from './languageModelSupport';

const CAPABILITIES = {
  'promptreel-chat': { contextWindow: 32_000, maxOutputTokens: 2_000, tools: true, vision: true },
  'promptreel-reasoner': { contextWindow: 8_000, maxOutputTokens: 1_000, tools: false, vision: false },
};

const weatherTool: vscode.LanguageModelChatTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('language models: Promptreel models in vscode.lm', () => {
  const ctx = useConnectedService();

  beforeEach(async () => {
    await setSetting('models.capabilities', CAPABILITIES);
  });

  it('lists the chat models of the service (not the video model) with the configured capabilities', async () => {
    const models = await waitFor(
      async () => {
        const listed = await promptreelModels();
        return listed.length === 2 ? listed : undefined;
      },
      { what: 'two promptreel models in vscode.lm', timeoutMs: 20_000 },
    );
    assert.deepEqual(models.map((model) => model.id).sort(), ['promptreel-chat', 'promptreel-reasoner']);
    const chat = models.find((model) => model.id === 'promptreel-chat');
    assert.equal(chat?.vendor, 'promptreel');
    assert.equal(chat?.name, 'promptreel-chat');
    assert.equal(chat?.maxInputTokens, 30_000, 'the context window less the reserved output');
    assert.equal(models.find((model) => model.id === 'promptreel-reasoner')?.maxInputTokens, 7_000);

    // What VS Code itself was told, capabilities included (LanguageModelChat does not expose them in 1.104).
    const { languageModels } = await testApi();
    const information = await languageModels.provider.provideLanguageModelChatInformation({ silent: true }, new vscode.CancellationTokenSource().token);
    const chatInformation = information.find((model) => model.id === 'promptreel-chat');
    assert.deepEqual(chatInformation?.capabilities, { imageInput: true, toolCalling: true });
    assert.equal(chatInformation?.maxOutputTokens, 2_000);
    assert.deepEqual(information.find((model) => model.id === 'promptreel-reasoner')?.capabilities, { imageInput: false, toolCalling: false });
  });

  it('follows a new video model setting and new capabilities', async () => {
    await waitFor(async () => (await promptreelModels()).length === 2, { what: 'two models', timeoutMs: 20_000 });
    await setSetting('video.model', 'promptreel-reasoner');
    await setSetting('models.capabilities', { 'promptreel-chat': { contextWindow: 10_000, maxOutputTokens: 1_000 } });
    const models = await waitFor(
      async () => {
        const listed = await promptreelModels();
        return listed.length === 1 && listed[0].maxInputTokens === 9_000 ? listed : undefined;
      },
      { what: 'the model list to follow the settings', timeoutMs: 20_000 },
    );
    assert.deepEqual(
      models.map((model) => model.id),
      ['promptreel-chat'],
    );
  });

  it('streams the reply of the service as it arrives', async () => {
    ctx.service.setScenario({ chat: { chunkChars: 4, delayMs: 30 } });
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('Hello from the host test')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    const collected = await collectResponse(response);
    assert.equal(collected.text, 'You said: Hello from the host test');
    assert.ok(collected.texts.length >= 5, `the text came in pieces (${collected.texts.length})`);
    const body = lastChatBody(ctx.service);
    assert.equal(body.model, 'promptreel-chat');
    assert.equal(body.stream, true);
    assert.deepEqual(body.messages, [{ role: 'user', content: 'Hello from the host test' }]);
    assert.equal(body.max_tokens, 2_000, 'the declared max output bounds the reply');
  });

  it('does a tool call round trip', async () => {
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    const ask = vscode.LanguageModelChatMessage.User('What is the weather in Paris? Use get_weather.');
    const first = await collectResponse(await model.sendRequest([ask], { tools: [weatherTool] }, new vscode.CancellationTokenSource().token));
    assert.equal(first.text, '');
    assert.equal(first.toolCalls.length, 1);
    const call = first.toolCalls[0];
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(call.input, { city: 'example' });
    assert.ok(call.callId, 'the call has an id');
    const offered = lastChatBody(ctx.service);
    assert.deepEqual(offered.tools, [
      { type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: weatherTool.inputSchema } },
    ]);
    assert.equal(offered.tool_choice, 'auto');

    const messages = [
      ask,
      vscode.LanguageModelChatMessage.Assistant([call]),
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('Sunny, 21 °C')])]),
    ];
    const second = await collectResponse(await model.sendRequest(messages, { tools: [weatherTool] }, new vscode.CancellationTokenSource().token));
    assert.equal(second.text, 'Tool result received: Sunny, 21 °C');
    const sent = lastChatBody(ctx.service).messages;
    assert.deepEqual(
      sent.map((message) => message.role),
      ['user', 'assistant', 'tool'],
    );
    assert.deepEqual(sent[1].tool_calls, [{ id: call.callId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"example"}' } }]);
    assert.equal(sent[1].content, null);
    assert.equal(sent[2].tool_call_id, call.callId);
    assert.equal(sent[2].content, 'Sunny, 21 °C');
  });

  it('forces the one tool in Required mode', async () => {
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('Anything')],
      { tools: [weatherTool], toolMode: vscode.LanguageModelChatToolMode.Required },
      new vscode.CancellationTokenSource().token,
    );
    const collected = await collectResponse(response);
    assert.deepEqual(
      collected.toolCalls.map((call) => call.name),
      ['get_weather'],
    );
    assert.deepEqual(lastChatBody(ctx.service).tool_choice, { type: 'function', function: { name: 'get_weather' } });
  });

  it('sends images as image_url parts to a model that takes them', async function () {
    // A real 1×1 PNG: the workbench decodes (and may resize) images on their way to the provider.
    const png = new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
    const image = imagePart(png, 'image/png');
    if (!image) this.skip();
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    const content = [new vscode.LanguageModelTextPart('Describe this'), image] as vscode.LanguageModelTextPart[];
    const collected = await collectResponse(
      await model.sendRequest([vscode.LanguageModelChatMessage.User(content)], {}, new vscode.CancellationTokenSource().token),
    );
    assert.equal(collected.text, 'You said: Describe this [+1 image]');
    const sent = lastChatBody(ctx.service).messages[0].content;
    assert.ok(Array.isArray(sent));
    assert.deepEqual(sent[0], { type: 'text', text: 'Describe this' });
    assert.match(JSON.stringify(sent[1]), /^\{"type":"image_url","image_url":\{"url":"data:image\/png;base64,[A-Za-z0-9+/=]+"\}\}$/);
  });

  it('closes the socket when the request is cancelled', async () => {
    ctx.service.setScenario({ chat: { reply: 'x'.repeat(400), chunkChars: 2, delayMs: 50 } });
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    const source = new vscode.CancellationTokenSource();
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('Talk for a while')], {}, source.token);
    let received = '';
    const reading = (async () => {
      for await (const chunk of response.text) {
        received += chunk;
        if (received.length >= 6) source.cancel();
      }
    })();
    await waitFor(() => source.token.isCancellationRequested, { what: 'the first chunks', timeoutMs: 20_000 });
    await reading.catch(() => undefined);
    await ctx.service.waitForSocketsClosed(10_000);
    assert.equal(ctx.service.activeRequests(), 0);
    assert.ok(received.length < 400, `the reply stopped early (${received.length} chars)`);
  });

  it('surfaces a server error with its message and what to do', async () => {
    ctx.service.setScenario({ fault: { status: 403, code: 'insufficient_user_quota', message: 'Your quota is used up', path: 'chat' } });
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    const failure = await (async () => {
      try {
        await collectResponse(await model.sendRequest([vscode.LanguageModelChatMessage.User('hi')], {}, new vscode.CancellationTokenSource().token));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    assert.ok(failure instanceof Error, 'the request failed');
    assert.match(failure.message, /Your quota is used up/);
    assert.match(failure.message, /top up or raise the key's quota/);
  });

  it('estimates tokens at about four characters each, calibrated by what the service counted so far', async () => {
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    const factor = (await testApi()).languageModels.provider.calibration.factor('promptreel-chat');
    assert.equal(await model.countTokens('a'.repeat(40)), Math.ceil(10 * factor));
    assert.equal(await model.countTokens(vscode.LanguageModelChatMessage.User('a'.repeat(40))), Math.ceil(14 * factor));
  });
});
