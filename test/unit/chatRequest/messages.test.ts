import * as assert from 'node:assert/strict';
import { parseToolInput, textOf, toChatMessages, toChatTools, ToolArgumentsError, type PlainMessage } from '../../../src/chatRequest/messages';
import { validateChatRequest } from '../../../src/api';

const text = (value: string) => ({ kind: 'text' as const, text: value });
const plain = {};

describe('language models: VS Code messages to chat-completions messages', () => {
  it('joins the text parts of user and assistant messages', () => {
    const messages: PlainMessage[] = [
      { role: 'user', parts: [text('Hello, '), text('world')] },
      { role: 'assistant', parts: [text('Hi!')] },
    ];
    assert.deepEqual(toChatMessages(messages, plain), [
      { role: 'user', content: 'Hello, world' },
      { role: 'assistant', content: 'Hi!' },
    ]);
  });

  it('keeps instructions as system messages (the chat-request layer sends them as developer where the model takes that role)', () => {
    const messages: PlainMessage[] = [
      { role: 'system', parts: [text('Be brief.')] },
      { role: 'user', parts: [text('Hi')] },
    ];
    assert.equal(toChatMessages(messages, plain)[0].role, 'system');
  });

  it('maps assistant tool calls to tool_calls and tool results to tool messages right after them', () => {
    const messages: PlainMessage[] = [
      { role: 'user', parts: [text('Weather in Paris?')] },
      { role: 'assistant', parts: [text('Let me look.'), { kind: 'tool-call', callId: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
      {
        role: 'user',
        parts: [{ kind: 'tool-result', callId: 'call_1', parts: [text('Sunny, '), text('21 °C')] }, text('And tomorrow?')],
      },
    ];
    const converted = toChatMessages(messages, plain);
    assert.deepEqual(converted, [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 21 °C' },
      { role: 'user', content: 'And tomorrow?' },
    ]);
    // The API layer accepts what the conversion produces.
    assert.doesNotThrow(() => validateChatRequest({ model: 'm', messages: converted }));
  });

  it('gives an assistant turn made only of tool calls a null content, and adds no empty user turn after results', () => {
    const converted = toChatMessages(
      [
        {
          role: 'assistant',
          parts: [
            { kind: 'tool-call', callId: 'a', name: 'one', input: {} },
            { kind: 'tool-call', callId: 'b', name: 'two', input: { n: 1 } },
          ],
        },
        {
          role: 'user',
          parts: [
            { kind: 'tool-result', callId: 'a', parts: [text('1')] },
            { kind: 'tool-result', callId: 'b', parts: [text('2')] },
          ],
        },
      ],
      plain,
    );
    assert.deepEqual(
      converted.map((message) => message.role),
      ['assistant', 'tool', 'tool'],
    );
    assert.equal(converted[0].content, null);
  });

  it('turns textual data in tool results into text, and describes binary data', () => {
    const [tool] = toChatMessages(
      [
        {
          role: 'user',
          parts: [
            {
              kind: 'tool-result',
              callId: 'x',
              parts: [
                { kind: 'data', mimeType: 'application/json', data: new TextEncoder().encode('{"ok":true}') },
                { kind: 'data', mimeType: 'application/octet-stream', data: new Uint8Array(3) },
              ],
            },
          ],
        },
      ],
      plain,
    );
    assert.deepEqual(tool, { role: 'tool', tool_call_id: 'x', content: '{"ok":true}[application/octet-stream data, 3 bytes]' });
  });

  it('sends images as data-URL image parts (a model that takes none gets a note from the chat-request layer)', () => {
    const png = new Uint8Array([1, 2, 3]);
    const message: PlainMessage = { role: 'user', parts: [text('What is this?'), { kind: 'data', mimeType: 'image/PNG', data: png }] };
    assert.deepEqual(toChatMessages([message], plain), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } },
        ],
      },
    ]);
  });

  it('drops data the service cannot use, keeps valid names and leaves out empty assistant turns', () => {
    const converted = toChatMessages(
      [
        { role: 'user', name: 'ada_l', parts: [text('Hi'), { kind: 'data', mimeType: 'cache_control', data: new TextEncoder().encode('ephemeral') }] },
        { role: 'user', name: 'not valid!', parts: [text('Again')] },
        { role: 'assistant', parts: [] },
      ],
      plain,
    );
    assert.deepEqual(converted, [
      { role: 'user', content: 'Hi', name: 'ada_l' },
      { role: 'user', content: 'Again' },
    ]);
  });

  it('reads the text of parts', () => {
    assert.equal(textOf([text('a'), { kind: 'tool-call', callId: 'c', name: 'n', input: {} }, text('b')]), 'ab');
  });
});

describe('language models: tools', () => {
  it('maps VS Code tools to function tools, with an empty object schema when there is none', () => {
    assert.deepEqual(
      toChatTools([
        { name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'now', description: '' },
      ]),
      [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        },
        { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
      ],
    );
  });

  it('parses streamed tool arguments into an object', () => {
    assert.deepEqual(parseToolInput('t', '{"a":1,"b":[true]}'), { a: 1, b: [true] });
    assert.deepEqual(parseToolInput('t', '  '), {});
  });

  it('refuses arguments that are not a JSON object, naming the tool', () => {
    for (const raw of ['{"a":', '[1,2]', '"text"', 'null']) {
      assert.throws(
        () => parseToolInput('get_weather', raw),
        (error: unknown) => error instanceof ToolArgumentsError && error.toolName === 'get_weather' && error.message.includes('get_weather'),
      );
    }
  });
});
