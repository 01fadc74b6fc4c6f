import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ReadableChunks } from '../../../../src/api/chat/readableChunks';

function body(): Readable {
  return new Readable({ read() {} });
}

describe('ReadableChunks (a response body read chunk by chunk)', () => {
  it('hands out each chunk as it was pushed, never joined into a copy', async () => {
    const stream = body();
    const pushed = [Buffer.from('one'), Buffer.from('two'), Buffer.from('three')];
    const reader = new ReadableChunks(stream);
    const first = reader.next();
    for (const chunk of pushed) stream.push(chunk);
    stream.push(null);
    const seen: Uint8Array[] = [];
    for (let step = await first; !step.done; step = await reader.next()) seen.push(step.value);
    assert.equal(seen.length, 3);
    seen.forEach((chunk, index) => assert.equal(chunk, pushed[index], 'the same Buffer, not a copy'));
  });

  it('pauses the body while many chunks wait, and resumes it as they are read', async () => {
    const stream = body();
    const reader = new ReadableChunks(stream);
    const first = reader.next();
    for (let i = 0; i < 40; i++) stream.push(Buffer.from(`chunk ${i}`));
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(stream.isPaused(), 'paused while chunks wait');
    let read = 1;
    while (read < 40) {
      const step = await reader.next();
      assert.equal(step.done, false);
      assert.equal(Buffer.from(step.value as Uint8Array).toString(), `chunk ${read}`);
      read++;
    }
    assert.ok(!stream.isPaused(), 'flowing again once read');
  });

  it('gives the chunks before an error, then the error', async () => {
    const stream = body();
    const reader = new ReadableChunks(stream);
    const first = reader.next();
    stream.push(Buffer.from('before'));
    stream.destroy(new Error('socket reset'));
    assert.equal(Buffer.from((await first).value as Uint8Array).toString(), 'before');
    await assert.rejects(reader.next(), /socket reset/);
  });

  it('reports a body closed before its end', async () => {
    const stream = body();
    const reader = new ReadableChunks(stream);
    const pending = reader.next();
    stream.destroy();
    await assert.rejects(pending, /closed before its end/);
  });

  it('destroys the body when the reader stops (which frees its connection)', async () => {
    const stream = body();
    const reader = new ReadableChunks(stream);
    const pending = reader.next();
    stream.push(Buffer.from('x'));
    await pending;
    await reader.return();
    assert.ok(stream.destroyed);
    assert.deepEqual(await reader.next(), { value: undefined, done: true });
  });
});
