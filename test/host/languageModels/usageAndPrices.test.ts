import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { defaultScenario } from '../../service';
import { planReply } from '../../service/chatReply';
import { chatRequestSchema } from '../../service/chatRequest';
import { useConnectedService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';
import { lastChatBody, promptreelModel, setSetting, testApi } from './languageModelSupport';

interface DataPartLike {
  mimeType: string;
  data: Uint8Array;
}

function isDataPart(part: unknown): part is DataPartLike {
  return typeof part === 'object' && part !== null && 'mimeType' in part && 'data' in part && part.data instanceof Uint8Array;
}

/** Sends one message through vscode.lm, as Copilot Chat would, and keeps the data parts of the answer. */
async function dataPartsOfAnswer(): Promise<{ parts: DataPartLike[]; text: string }> {
  const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the promptreel-chat model', timeoutMs: 20_000 });
  const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('How many tokens is this?')], {}, new vscode.CancellationTokenSource().token);
  const parts: DataPartLike[] = [];
  let text = '';
  for await (const part of response.stream) {
    if (isDataPart(part)) parts.push(part);
    else if (part instanceof vscode.LanguageModelTextPart) text += part.value;
  }
  return { parts, text };
}

describe("language models: usage and prices for VS Code's Chat", () => {
  const ctx = useConnectedService();

  it('reports the tokens the service counted as one token_usage data part, after the text', async () => {
    assert.equal(typeof (vscode as unknown as Record<string, unknown>).LanguageModelDataPart, 'function', 'this VS Code has LanguageModelDataPart');
    const { parts, text } = await dataPartsOfAnswer();
    assert.equal(text, 'You said: How many tokens is this?');
    assert.deepEqual(
      parts.map((part) => part.mimeType),
      ['token_usage'],
    );
    // What the service put in its usage chunk for exactly this request.
    const served = planReply(chatRequestSchema.parse(lastChatBody(ctx.service)), defaultScenario().chat).usage;
    assert.ok(served.prompt_tokens > 0 && served.completion_tokens > 0);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(parts[0].data)), served);
  });

  it('reports no data part when the service sends no usage', async () => {
    ctx.service.setScenario({ chat: { usage: 'none' } });
    const { parts, text } = await dataPartsOfAnswer();
    assert.equal(text, 'You said: How many tokens is this?');
    assert.deepEqual(parts, []);
  });

  it("puts each model's price from the service in the details of VS Code's model picker, once the prices arrive", async () => {
    const { languageModels, connection } = await testApi();
    const provider = languageModels.provider;
    const token = new vscode.CancellationTokenSource().token;
    let changes = 0;
    const listener = provider.onDidChangeLanguageModelChatInformation(() => changes++);
    try {
      connection.prices.forget();
      const before = changes;
      assert.ok(before >= 1, 'forgetting the prices tells VS Code to ask again');
      // Each answer comes at once from what is known; the price list is read in the background.
      const information = await waitFor(
        async () => {
          const listed = await provider.provideLanguageModelChatInformation({ silent: true }, token);
          return listed.find((model) => model.id === 'promptreel-chat')?.detail === 'Promptreel' ? undefined : listed;
        },
        { what: 'the price of promptreel-chat in its details' },
      );
      assert.ok(changes > before, 'the arrival of the prices tells VS Code to ask again');
      const chat = information.find((model) => model.id === 'promptreel-chat');
      assert.equal(chat?.detail, 'Promptreel · $3.00 in / $12.00 out per 1M tokens');
      assert.match(chat?.tooltip ?? '', /\nPrice: \$3\.00 in \/ \$12\.00 out per 1M tokens, from the service's price list\.$/);
      assert.equal(information.find((model) => model.id === 'promptreel-reasoner')?.detail, 'Promptreel · $10.00 in / $40.00 out per 1M tokens');
      const reads = ctx.service.requests.filter((request) => request.path === '/api/pricing').length;
      await provider.provideLanguageModelChatInformation({ silent: true }, token);
      assert.equal(ctx.service.requests.filter((request) => request.path === '/api/pricing').length, reads, 'the price list is read once');
    } finally {
      listener.dispose();
      connection.prices.forget();
    }
  });

  it('says when the price comes from the promptreel.models.prices setting', async () => {
    const { languageModels } = await testApi();
    const token = new vscode.CancellationTokenSource().token;
    await setSetting('models.prices', { 'promptreel-chat': { perRequest: 0.02 } });
    try {
      const chat = await waitFor(
        async () => {
          const listed = await languageModels.provider.provideLanguageModelChatInformation({ silent: true }, token);
          const found = listed.find((model) => model.id === 'promptreel-chat');
          return found?.detail === 'Promptreel · $0.02 per request' ? found : undefined;
        },
        { what: 'the price of the setting in the details' },
      );
      assert.match(chat.tooltip ?? '', /\nPrice: \$0\.02 per request, from the promptreel\.models\.prices setting\.$/);
    } finally {
      await setSetting('models.prices', undefined);
    }
  });
});
