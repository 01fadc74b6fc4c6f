import * as assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { orElse, orUndefined } from '../../../src/api/tolerant';

describe('tolerant fields (src/api/tolerant.ts): what a gateway sends oddly never fails the answer around it', () => {
  const answer = z.object({
    id: z.string(),
    created: orUndefined(z.nullish(z.number())),
    limits: orUndefined(z.optional(z.object({ max: z.int() }))),
    options: orElse(z.object({ temperature: orUndefined(z.optional(z.number())) }), {}),
  });

  it('keeps a field that is what it expects', () => {
    assert.deepEqual(answer.parse({ id: 'm', created: 5, limits: { max: 3 }, options: { temperature: 0.5 } }), {
      id: 'm',
      created: 5,
      limits: { max: 3 },
      options: { temperature: 0.5 },
    });
  });

  it('turns a field of another type into undefined, or the fallback, and the answer still parses', () => {
    const parsed = answer.parse({ id: 'm', created: 'yesterday', limits: { max: 'many' }, options: 'warm', extra: true });
    assert.deepEqual(parsed, { id: 'm', created: undefined, limits: undefined, options: {} });
    assert.deepEqual(answer.parse({ id: 'm', options: { temperature: 'hot' } }).options, { temperature: undefined });
  });

  it('lets an optional field be absent, and still fails on what is required', () => {
    assert.deepEqual(answer.parse({ id: 'm', options: {} }), { id: 'm', options: {} });
    assert.equal(answer.safeParse({ created: 5, options: {} }).success, false);
  });
});
