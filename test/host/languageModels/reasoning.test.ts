import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';
import { collectResponse, lastChatBody, promptreelModel, setSetting, testApi } from './languageModelSupport';

const weatherTool: vscode.LanguageModelChatTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
};

describe("language models: reasoning models in VS Code's Chat", () => {
  const ctx = useConnectedService();

  beforeEach(async () => {
    await setSetting('models.capabilities', { 'promptreel-chat': { tools: true } });
  });

  it("streams the reasoning as VS Code's thinking part (this VS Code has LanguageModelThinkingPart), apart from the answer", async () => {
    const ThinkingPart = (vscode as unknown as Record<string, unknown>).LanguageModelThinkingPart;
    assert.equal(typeof ThinkingPart, 'function', 'VS Code 1.139 has the class');
    ctx.service.setScenario({ chat: { reasoning: 'reasoning_content', chunkChars: 8 } });
    const { languageModels } = await testApi();
    const information = await waitFor(
      async () =>
        (await languageModels.provider.provideLanguageModelChatInformation({ silent: true }, new vscode.CancellationTokenSource().token)).find(
          (model) => model.id === 'promptreel-chat',
        ),
      { what: 'the promptreel-chat model' },
    );
    const parts: unknown[] = [];
    await languageModels.provider.provideLanguageModelChatResponse(
      information,
      [vscode.LanguageModelChatMessage.User('hello there')],
      { tools: [], toolMode: vscode.LanguageModelChatToolMode.Auto, modelOptions: {} } as unknown as vscode.ProvideLanguageModelChatResponseOptions,
      { report: (part) => parts.push(part) },
      new vscode.CancellationTokenSource().token,
    );
    const thinking = parts.filter((part) => part instanceof (ThinkingPart as new (...args: never[]) => object)) as { value: string | string[] }[];
    assert.ok(thinking.length > 1, `the reasoning streamed in pieces (${thinking.length})`);
    assert.equal(thinking.map((part) => [part.value].flat().join('')).join(''), 'The user wrote "hello there". A short, direct answer fits best.');
    const text = parts.flatMap((part) => (part instanceof vscode.LanguageModelTextPart ? [part.value] : [])).join('');
    assert.equal(text, 'You said: hello there', 'the reasoning is not in the answer');
  });

  it('runs a tool-call conversation with a DeepSeek-style model for three turns through vscode.lm without a 400', async () => {
    ctx.service.setScenario({ chat: { deepseekReasoning: true } });
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the model', timeoutMs: 20_000 });
    const token = new vscode.CancellationTokenSource().token;
    const question = vscode.LanguageModelChatMessage.User('use get_weather for Oslo');
    const first = await collectResponse(await model.sendRequest([question], { tools: [weatherTool] }, token));
    assert.equal(first.toolCalls.length, 1);
    const call = first.toolCalls[0];
    // What VS Code hands back: its own parts only (no reasoning); the provider adds the reasoning it remembers.
    const history = [
      question,
      vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input)]),
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('sunny')])]),
    ];
    const second = await collectResponse(await model.sendRequest(history, { tools: [weatherTool] }, token));
    assert.equal(second.text, 'Tool result received: sunny');
    const sentAssistant = lastChatBody(ctx.service).messages.find((message) => message.role === 'assistant') as { reasoning_content?: string } | undefined;
    assert.match(sentAssistant?.reasoning_content ?? '', /get_weather/, 'the tool-call turn carries its reasoning');
    const third = await collectResponse(
      await model.sendRequest(
        [...history, vscode.LanguageModelChatMessage.Assistant(second.text), vscode.LanguageModelChatMessage.User('thanks')],
        { tools: [weatherTool] },
        token,
      ),
    );
    assert.ok(third.text.length > 0);
    const statuses = ctx.service.requests.filter((request) => request.path === '/v1/chat/completions').length;
    assert.equal(statuses, 3, 'three requests, none refused and retried');
  });

  it("takes the reasoning effort a caller of vscode.lm asks for in modelOptions, over the model's settings", async () => {
    await setSetting('models.capabilities', { 'promptreel-chat': { tools: true, reasoningEffort: 'low' } });
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the model', timeoutMs: 20_000 });
    const token = new vscode.CancellationTokenSource().token;
    await collectResponse(await model.sendRequest([vscode.LanguageModelChatMessage.User('hello')], {}, token));
    assert.equal(lastChatBody(ctx.service).reasoning_effort, 'low', 'the setting');
    await collectResponse(await model.sendRequest([vscode.LanguageModelChatMessage.User('hello')], { modelOptions: { reasoningEffort: 'high' } }, token));
    assert.equal(lastChatBody(ctx.service).reasoning_effort, 'high', "the caller's choice");
  });

  it("offers the reasoning choices in VS Code's model picker and takes what is chosen there", async () => {
    await setSetting('models.capabilities', { 'promptreel-reasoner': { reasoningFormat: 'reasoning_effort', reasoningEffort: 'low' } });
    const { languageModels } = await testApi();
    const token = new vscode.CancellationTokenSource().token;
    const information = await waitFor(
      async () =>
        (await languageModels.provider.provideLanguageModelChatInformation({ silent: true }, token)).find((model) => model.id === 'promptreel-reasoner'),
      { what: 'the reasoner' },
    );
    const schema = (information as { configurationSchema?: { properties: Record<string, { default?: unknown }> } }).configurationSchema;
    assert.equal(schema?.properties.reasoningEffort.default, 'low');
    await languageModels.provider.provideLanguageModelChatResponse(
      information,
      [vscode.LanguageModelChatMessage.User('hello')],
      {
        tools: [],
        toolMode: vscode.LanguageModelChatToolMode.Auto,
        modelOptions: {},
        modelConfiguration: { reasoningEffort: 'high' },
      } as unknown as vscode.ProvideLanguageModelChatResponseOptions,
      { report: () => undefined },
      token,
    );
    assert.equal(lastChatBody(ctx.service).reasoning_effort, 'high');
  });
});
