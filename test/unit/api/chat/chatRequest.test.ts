import * as assert from 'node:assert/strict';
import { validateChatRequest } from '../../../../src/api/chat/request';
import { ApiError } from '../../../../src/api/errors';

const base = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('chat request validation', () => {
  it('accepts the documented request with every role and content parts', () => {
    const request = validateChatRequest({
      model: 'm',
      messages: [
        { role: 'system', content: 's' },
        { role: 'developer', content: 'd' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', content: '42', tool_call_id: 'c1' },
      ],
      temperature: 2,
      top_p: 0,
      frequency_penalty: -2,
      presence_penalty: 2,
      max_tokens: 1,
      response_format: { type: 'json_object' },
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
    });
    assert.equal(request.messages.length, 5);
  });

  const invalid: Array<[string, object]> = [
    ['temperature', { temperature: 2.01 }],
    ['temperature', { temperature: -0.1 }],
    ['top_p', { top_p: 1.5 }],
    ['frequency_penalty', { frequency_penalty: -2.5 }],
    ['presence_penalty', { presence_penalty: 3 }],
    ['max_tokens', { max_tokens: 0 }],
    ['max_tokens', { max_tokens: 1.5 }],
    ['model', { model: '  ' }],
    ['messages', { messages: [] }],
  ];
  for (const [param, patch] of invalid) {
    it(`refuses ${JSON.stringify(patch)} naming "${param}"`, () => {
      assert.throws(
        () => validateChatRequest({ ...base, ...patch }),
        (error: unknown) => error instanceof ApiError && error.kind === 'invalid-request' && error.param === param && error.hint.includes(param),
      );
    });
  }
});
