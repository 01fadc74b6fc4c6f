import * as assert from 'node:assert/strict';
import type { ChatStreamEvent } from '../../../../src/api';
import { responseParts, type ResponseSummary } from '../../../../src/languageModels/core/responseParts';
import { USAGE_MIME_TYPE, describeUsage, usagePayload, usagePayloadBytes } from '../../../../src/languageModels/core/usagePayload';

async function* events(...list: ChatStreamEvent[]): AsyncGenerator<ChatStreamEvent> {
  yield* list;
}

describe("language models: the usage part for VS Code's Chat", () => {
  it('keeps the usage the service reported out of the answer, in the summary', async () => {
    const summary: ResponseSummary = {};
    const parts = [];
    const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15 };
    for await (const part of responseParts(events({ type: 'text', text: 'hi' }, { type: 'usage', usage }, { type: 'finish', reason: 'stop' }), summary)) {
      parts.push(part);
    }
    assert.deepEqual(parts, [{ kind: 'text', text: 'hi' }]);
    assert.deepEqual(summary.usage, usage);
  });

  it('leaves the usage undefined when the service reported none', async () => {
    const summary: ResponseSummary = {};
    for await (const part of responseParts(events({ type: 'text', text: 'hi' }, { type: 'finish', reason: 'stop' }), summary)) assert.ok(part);
    assert.equal(summary.usage, undefined);
  });

  it("words the usage as OpenAI's API does, as UTF-8 JSON under the token_usage mime type", () => {
    const usage = { promptTokens: 1200, completionTokens: 34, totalTokens: 1234 };
    assert.equal(USAGE_MIME_TYPE, 'token_usage');
    assert.deepEqual(usagePayload(usage), { prompt_tokens: 1200, completion_tokens: 34, total_tokens: 1234 });
    assert.deepEqual(JSON.parse(new TextDecoder().decode(usagePayloadBytes(usage))), { prompt_tokens: 1200, completion_tokens: 34, total_tokens: 1234 });
    assert.equal(describeUsage(usage), '1200 prompt + 34 completion tokens');
  });

  it('adds the cached prompt tokens when they are known (zero included)', () => {
    const usage = { promptTokens: 1200, completionTokens: 34, totalTokens: 1234, cachedTokens: 1024 };
    assert.deepEqual(usagePayload(usage), { prompt_tokens: 1200, completion_tokens: 34, total_tokens: 1234, prompt_tokens_details: { cached_tokens: 1024 } });
    assert.deepEqual(usagePayload({ ...usage, cachedTokens: 0 }).prompt_tokens_details, { cached_tokens: 0 });
    assert.equal(describeUsage(usage), '1200 prompt (1024 cached) + 34 completion tokens');
  });
});
