import * as assert from 'node:assert/strict';
import type { ChargedRequestRecord } from '../../../src/api/charges';
import { clientFor, collect, useLocalService } from '../support/localService';

describe('charged requests reported by the client (issue 26: what each request cost is matched to them)', () => {
  const ctx = useLocalService();

  it('a streamed reply is reported once it ends, with the usage the service counted', async () => {
    const records: ChargedRequestRecord[] = [];
    const client = clientFor(ctx.service, { onRequestCharged: (record) => records.push(record) });
    const before = Date.now();
    await collect(client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'Hello there' }] }));
    assert.equal(records.length, 1);
    const [record] = records;
    assert.ok(record?.kind === 'chat', JSON.stringify(record));
    assert.equal(record.model, 'promptreel-chat');
    assert.equal(record.stream, true);
    assert.ok(record.usage && record.usage.promptTokens > 0 && record.usage.completionTokens > 0, JSON.stringify(record.usage));
    assert.ok(record.at >= before && record.at <= Date.now());
  });

  it('a reply abandoned midway is reported too (the service charges what it generated), without usage', async () => {
    ctx.service.setScenario({ chat: { reply: 'word '.repeat(200), chunkChars: 5 } });
    const records: ChargedRequestRecord[] = [];
    const client = clientFor(ctx.service, { onRequestCharged: (record) => records.push(record) });
    for await (const event of client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'Long' }] })) {
      if (event.type === 'text') break;
    }
    assert.equal(records.length, 1);
    assert.equal(records[0]?.kind === 'chat' ? records[0].usage : 'not chat', undefined);
  });

  it('a non-streamed reply and a created video task are reported; a refused request is not', async () => {
    const records: ChargedRequestRecord[] = [];
    const client = clientFor(ctx.service, { onRequestCharged: (record) => records.push(record) });
    await client.createChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'Once' }] });
    const task = await client.createVideoTask({ model: 'promptreel-video', prompt: 'A charged task' });
    ctx.service.setScenario({ fault: { status: 403, code: 'insufficient_user_quota', times: 1 } });
    await assert.rejects(client.createVideoTask({ model: 'promptreel-video', prompt: 'Refused' }));
    assert.deepEqual(
      records.map((record) => [record.kind, record.model, record.kind === 'video' ? record.taskId : record.stream]),
      [
        ['chat', 'promptreel-chat', false],
        ['video', 'promptreel-video', task.id],
      ],
    );
  });

  it('carries the id the gateway gave the request (X-Oneapi-Request-Id), which its log entry carries too', async () => {
    ctx.service.setScenario({ account: { requestIdHeader: true } });
    const records: ChargedRequestRecord[] = [];
    const client = clientFor(ctx.service, { onRequestCharged: (record) => records.push(record) });
    await collect(client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'With an id' }] }));
    await client.createVideoTask({ model: 'promptreel-video', prompt: 'With an id too' });
    const logged = ctx.service.keyLog().map((entry) => entry['request_id']);
    assert.equal(records.length, 2);
    for (const record of records) {
      assert.match(record.requestId ?? '', /\S+/, JSON.stringify(record));
      assert.ok(logged.includes(record.requestId), `${record.requestId} is in the log: ${JSON.stringify(logged)}`);
    }
  });

  it('an observer that throws costs the request nothing', async () => {
    const client = clientFor(ctx.service, {
      onRequestCharged: () => {
        throw new Error('observer broke');
      },
    });
    const events = await collect(client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'Still fine' }] }));
    assert.ok(events.some((event) => event.type === 'text'));
  });
});
