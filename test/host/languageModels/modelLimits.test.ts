import { estimateMessageTokens } from '../../../src/chatRequest/tokenEstimate';
import { toPlainMessage } from '../../../src/languageModels/vscodeParts';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';
import { lastChatBody, setSetting, testApi } from './languageModelSupport';

const token = () => new vscode.CancellationTokenSource().token;

async function listed(): Promise<vscode.LanguageModelChatInformation[]> {
  const { languageModels } = await testApi();
  languageModels.catalog.invalidate('a new model list in the test');
  return waitFor(
    async () => {
      const models = await languageModels.provider.provideLanguageModelChatInformation({ silent: true }, token());
      return models.length ? models : undefined;
    },
    { what: 'the models' },
  );
}

describe('language models: limits from the model list, models shown, calibrated counts', () => {
  const ctx = useConnectedService();

  afterEach(async () => {
    await setSetting('models.shown', undefined);
    await setSetting('models.capabilities', undefined);
  });

  it('tells VS Code the limits the service publishes in /v1/models, with the settings over them', async () => {
    ctx.service.setScenario({
      models: [
        { id: 'promptreel-chat', context_length: 64_000, max_output_tokens: 8_000, input_modalities: ['text', 'image'], supported_parameters: ['tools'] },
        { id: 'promptreel-reasoner' },
      ],
    });
    const chat = (await listed()).find((model) => model.id === 'promptreel-chat');
    assert.deepEqual([chat?.maxInputTokens, chat?.maxOutputTokens, chat?.capabilities], [56_000, 8_000, { imageInput: true, toolCalling: true }]);
    await setSetting('models.capabilities', { 'promptreel-chat': { contextWindow: 16_000, maxTools: 2 } });
    const overridden = (await listed()).find((model) => model.id === 'promptreel-chat');
    assert.deepEqual([overridden?.maxInputTokens, overridden?.capabilities.toolCalling], [8_000, 2]);
  });

  it('shows only the models of promptreel.models.shown in VS Code', async () => {
    await setSetting('models.shown', ['promptreel-reasoner']);
    assert.deepEqual(
      (await listed()).map((model) => model.id),
      ['promptreel-reasoner'],
    );
  });

  it('sends at most maxTools tools, and calibrates its token count with the prompt tokens the service reported', async () => {
    await setSetting('models.capabilities', { 'promptreel-chat': { tools: true, maxTools: 1 } });
    const { languageModels } = await testApi();
    const information = (await listed()).find((model) => model.id === 'promptreel-chat');
    assert.ok(information);
    const message = vscode.LanguageModelChatMessage.User('x'.repeat(400));
    // Other suites may have calibrated this model already: the estimate before any calibration is the reference.
    const estimate = estimateMessageTokens(toPlainMessage(message));
    const tool = (name: string): vscode.LanguageModelChatTool => ({ name, description: name, inputSchema: { type: 'object', properties: {} } });
    await languageModels.provider.provideLanguageModelChatResponse(
      information,
      [message],
      {
        tools: [tool('first'), tool('second')],
        toolMode: vscode.LanguageModelChatToolMode.Auto,
        modelOptions: {},
      } as unknown as vscode.ProvideLanguageModelChatResponseOptions,
      { report: () => undefined },
      token(),
    );
    assert.deepEqual(
      ((lastChatBody(ctx.service).tools ?? []) as { function: { name: string } }[]).map((sent) => sent.function.name),
      ['first'],
    );
    const factor = languageModels.provider.calibration.factor('promptreel-chat');
    assert.notEqual(factor, 1, 'the service counted differently from the estimate');
    assert.equal(await languageModels.provider.provideTokenCount(information, message), Math.ceil(estimate * factor));
  });

  it('cleans the tool schemas VS Code hands over, more so for a model declared with strictToolSchemas', async () => {
    await setSetting('models.capabilities', { 'promptreel-chat': { tools: true, strictToolSchemas: true } });
    const { languageModels } = await testApi();
    const information = (await listed()).find((model) => model.id === 'promptreel-chat');
    assert.ok(information);
    const inputSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { when: { type: ['string', 'null'], format: 'date-time', default: null } },
    };
    await languageModels.provider.provideLanguageModelChatResponse(
      information,
      [vscode.LanguageModelChatMessage.User('hello')],
      {
        tools: [{ name: 'schedule', description: 'Plans', inputSchema }],
        toolMode: vscode.LanguageModelChatToolMode.Auto,
        modelOptions: {},
      } as unknown as vscode.ProvideLanguageModelChatResponseOptions,
      { report: () => undefined },
      token(),
    );
    const [tool] = (lastChatBody(ctx.service).tools ?? []) as { function: { parameters: unknown } }[];
    assert.deepEqual(tool.function.parameters, { type: 'object', properties: { when: { type: 'string' } } });
  });
});
