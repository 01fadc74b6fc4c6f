import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { peekBody } from '../../../../src/api/chat/peekedBody';

async function all(chunks: AsyncIterable<Uint8Array>): Promise<string[]> {
  const seen: string[] = [];
  for await (const chunk of chunks) seen.push(Buffer.from(chunk).toString('utf8'));
  return seen;
}

describe('peekBody (the first character of a response body, the body kept whole)', () => {
  it('issue 11.15: a body that ends with its first chunk is still read whole', async () => {
    const body = new Readable({ read() {} });
    body.push(Buffer.from('{"choices":[]}'));
    body.push(null);
    const peeked = await peekBody(body);
    assert.equal(peeked.first, '{');
    assert.deepEqual(await all(peeked.chunks), ['{"choices":[]}']);
  });

  it('issue 11.15: skips blank lines and a byte order mark, and keeps every chunk as it came', async () => {
    const body = new Readable({ read() {} });
    const peeked = peekBody(body);
    for (const part of ['\uFEFF', '\n\n  ', 'data: 1\n\n', 'data: 2\n\n']) body.push(Buffer.from(part));
    body.push(null);
    assert.equal((await peeked).first, 'd');
    assert.deepEqual(await all((await peeked).chunks), ['\uFEFF', '\n\n  ', 'data: 1\n\n', 'data: 2\n\n']);
  });

  it('issue 11.15: an empty body has no first character and no chunks', async () => {
    const body = Readable.from([], { objectMode: false });
    const peeked = await peekBody(body);
    assert.equal(peeked.first, '');
    assert.equal(peeked.failed, false);
    assert.deepEqual(await all(peeked.chunks), []);
  });

  it('issue 11.15: a body that fails before its first character reports the failure when read', async () => {
    const body = new Readable({ read() {} });
    const peeked = peekBody(body);
    body.destroy(new Error('socket hang up'));
    const result = await peeked;
    assert.equal(result.failed, true);
    await assert.rejects(all(result.chunks), /socket hang up/);
  });

  it('issue 11.15: stopping early releases the body', async () => {
    const body = new Readable({ read() {} });
    const peeked = peekBody(body);
    body.push(Buffer.from('data: 1\n\n'));
    const result = await peeked;
    for await (const chunk of result.chunks) {
      assert.ok(chunk.length > 0);
      break;
    }
    assert.equal(body.destroyed, true);
  });
});
