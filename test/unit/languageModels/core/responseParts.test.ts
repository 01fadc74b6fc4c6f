import * as assert from 'node:assert/strict';
import { isApiError, type ChatStreamEvent } from '../../../../src/api';
import { ToolArgumentsError } from '../../../../src/chatRequest/messages';
import { responseParts, type ResponsePart, type ResponseSummary } from '../../../../src/languageModels/core/responseParts';
import { clientFor, collect, useLocalService } from '../../support/localService';

async function* events(...list: ChatStreamEvent[]): AsyncGenerator<ChatStreamEvent> {
  yield* list;
}

describe('language models: response parts', () => {
  const context = useLocalService();

  it('yields the text of the local service as it streams, the reasoning (<think>) apart from it', async () => {
    const client = clientFor(context.service);
    context.service.setScenario({ chat: { chunkChars: 3, reasoning: 'think', delayMs: 10 } });
    const summary: ResponseSummary = {};
    const parts = await collect(
      responseParts(client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'streaming' }] }), summary),
    );
    const texts = parts.filter((part) => part.kind === 'text');
    assert.ok(texts.length > 3, `several text parts (${texts.length})`);
    assert.ok(parts.every((part) => part.kind === 'text' || part.kind === 'reasoning'));
    assert.equal(texts.map((part) => part.text).join(''), 'You said: streaming');
    const reasoning = parts.flatMap((part) => (part.kind === 'reasoning' ? [part.text] : [])).join('');
    assert.equal(reasoning, 'The user wrote "streaming". A short, direct answer fits best.');
    assert.equal(summary.reasoning, reasoning);
    assert.equal(summary.reasoning?.length, reasoning.length);
    assert.ok(parts.findIndex((part) => part.kind === 'reasoning') < parts.findIndex((part) => part.kind === 'text'), 'the reasoning comes first');
    assert.equal(summary.finishReason, 'stop');
  });

  it('yields each tool call of the local service once, complete, with its input parsed', async () => {
    const client = clientFor(context.service);
    context.service.setScenario({ chat: { chunkChars: 2 } });
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
      },
      {
        type: 'function' as const,
        function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string', enum: ['UTC', 'CET'] } } } },
      },
    ];
    const parts = await collect(
      responseParts(client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'use get_weather and get_time' }], tools })),
    );
    const calls = parts.filter((part): part is Extract<ResponsePart, { kind: 'tool-call' }> => part.kind === 'tool-call');
    assert.deepEqual(
      calls.map((call) => [call.name, call.input]),
      [
        ['get_weather', { city: 'example', days: 1 }],
        ['get_time', { zone: 'UTC' }],
      ],
    );
    assert.ok(calls.every((call) => call.callId.startsWith('call_')));
    assert.notEqual(calls[0].callId, calls[1].callId);
  });

  it('names calls without an id by their position, and fails on arguments that are not an object', async () => {
    const parts = await collect(
      responseParts(events({ type: 'tool-calls', calls: [{ id: '', name: 'a', arguments: '' }] }, { type: 'finish', reason: 'tool_calls' })),
    );
    assert.deepEqual(parts, [{ kind: 'tool-call', callId: 'call_0', name: 'a', input: {} }]);
    await assert.rejects(collect(responseParts(events({ type: 'tool-calls', calls: [{ id: 'x', name: 'a', arguments: '[1]' }] }))), ToolArgumentsError);
  });

  it('passes a mid-stream error of the service on', async () => {
    const client = clientFor(context.service);
    context.service.setScenario({ chat: { midStreamError: { afterChunks: 1, message: 'upstream overloaded', code: '503', type: 'server_error' } } });
    await assert.rejects(
      collect(responseParts(client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'hello there' }] }))),
      (error: unknown) => {
        return isApiError(error) && error.kind === 'stream' && error.serverMessage === 'upstream overloaded';
      },
    );
  });
});
