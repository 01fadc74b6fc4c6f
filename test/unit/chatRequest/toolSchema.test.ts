import * as assert from 'node:assert/strict';
import { sanitizeToolSchema } from '../../../src/chatRequest/toolSchema';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  properties: {
    format: { type: 'string', enum: ['json', 'text'], default: 'json' },
    when: { type: ['string', 'null'], format: 'date-time', examples: ['2026-11-24'] },
    options: { type: 'object' },
    tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 5 },
  },
  required: ['format'],
};

describe('tool schemas as gateways take them', () => {
  it('drops the metadata keys and gives every object its properties, keeping the rest', () => {
    assert.deepEqual(sanitizeToolSchema(schema), {
      type: 'object',
      additionalProperties: false,
      properties: {
        format: { type: 'string', enum: ['json', 'text'], default: 'json' },
        when: { type: ['string', 'null'], format: 'date-time' },
        options: { type: 'object', properties: {} },
        tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 5 },
      },
      required: ['format'],
    });
  });

  it('for strict gateways, also drops the keywords they refuse and sends a nullable type as its type; property names stay', () => {
    assert.deepEqual(sanitizeToolSchema(schema, true), {
      type: 'object',
      properties: {
        format: { type: 'string', enum: ['json', 'text'] },
        when: { type: 'string' },
        options: { type: 'object', properties: {} },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['format'],
    });
  });
});
