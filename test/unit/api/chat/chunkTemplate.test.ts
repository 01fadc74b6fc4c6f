import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChunkTemplate } from '../../../../src/api/chat/chunkTemplate';
import { ChatStreamDecoder } from '../../../../src/api/chat/decoder';
import type { ChatStreamEvent } from '../../../../src/api/chat/events';
import { chunkSchema, type ChatChunk } from '../../../../src/api/chat/schemas';

/** A chunk the way gateways write it: id, object, created and model before the choices, JSON.stringify escaping. */
function chunkText(delta: object, options: { id?: string; finish?: string | null; usage?: object | null; extra?: object } = {}): string {
  return JSON.stringify({
    id: options.id ?? 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1763790000,
    model: 'promptreel-chat',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: options.finish ?? null }],
    usage: options.usage ?? null,
    ...options.extra,
  });
}

/** What the full path makes of a text: JSON.parse then the schema (undefined when either refuses it). */
function fullParse(text: string): ChatChunk | undefined {
  try {
    const parsed = chunkSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function templateOf(text: string): ChunkTemplate | undefined {
  const chunk = fullParse(text);
  assert.ok(chunk, 'the template text is a valid chunk');
  return ChunkTemplate.from(text, chunk);
}

/** The delta text the full parse finds in a chunk. */
function contentOf(chunk: ChatChunk | undefined): string | null | undefined {
  return chunk?.choices?.[0]?.delta?.content;
}

function decodeAll(payloads: string[]): ChatStreamEvent[] {
  const decoder = new ChatStreamDecoder();
  const out: ChatStreamEvent[] = [];
  for (const payload of payloads) decoder.accept(payload, out);
  return out;
}

describe('chunk templates (the JSON.parse shortcut for repeated chunk layouts)', () => {
  it('reads a chunk of the same layout exactly as the full parse does, whatever the text (property)', () => {
    const template = templateOf(chunkText({ content: 'first' }));
    assert.ok(template);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (content) => {
        const text = chunkText({ content });
        const matched = template.match(text);
        if (content !== '') assert.ok(matched, 'a JSON.stringify-escaped text always fits');
        if (matched !== undefined) assert.equal(matched, contentOf(fullParse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('decodes escapes the way JSON.parse does, including ones JSON.stringify would not write', () => {
    const template = templateOf(chunkText({ content: 'first' }));
    assert.ok(template);
    const prefix = chunkText({ content: 'X' }).split('"X"')[0];
    const suffix = chunkText({ content: 'X' }).split('"X"')[1];
    for (const body of ['caf\\u00e9', 'a\\/b', 'line\\nbreak\\ttab', 'quote \\" inside', 'back\\\\slash', '\\ud83c\\udfac', 'é中文🎬']) {
      const text = `${prefix}"${body}"${suffix}`;
      assert.equal(template.match(text), contentOf(fullParse(text)), body);
    }
  });

  it('refuses what would change the structure or is not JSON, leaving it to the full parse', () => {
    const template = templateOf(chunkText({ content: 'first' }));
    assert.ok(template);
    const [prefix, suffix] = chunkText({ content: 'X' }).split('"X"');
    const refused = [
      `${prefix}"abc","role":"system"${suffix}`, // an unescaped quote ends the string early
      `${prefix}"abc\\"${suffix}`, // a trailing backslash escapes the closing quote
      `${prefix}"tab\there"${suffix}`, // a raw control character is not allowed in JSON strings
      `${prefix}"${'long\u0001'.repeat(20)}"${suffix}`,
      `${prefix}"bad \\x escape"${suffix}`,
      chunkText({ content: 'other id' }, { id: 'chatcmpl-2' }),
      chunkText({ content: 'finishing' }, { finish: 'stop' }),
      chunkText({ content: 'with usage' }, { usage: { prompt_tokens: 1 } }),
      chunkText({ content: 'obfuscated' }, { extra: { obfuscation: 'abc' } }),
      chunkText({ reasoning_content: 'other field' }),
      'data that is not a chunk',
    ];
    for (const text of refused) assert.equal(template.match(text), undefined, text);
  });

  it('makes no template when there is no single text to vary, or the text is escaped another way', () => {
    const none = [
      chunkText({ role: 'assistant', content: '' }),
      chunkText({ content: 'done' }, { finish: 'stop' }),
      chunkText({ content: 'x' }, { usage: { prompt_tokens: 1 } }),
      chunkText({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
      chunkText({ content: 'both', reasoning_content: 'both' }),
      chunkText({ content: 'café' }).replace('café', 'caf\\u00e9'),
      JSON.stringify({ choices: [{ delta: { content: 'twice' } }, { delta: { content: 'twice' } }] }),
      // The needle appears in an unknown field too: ambiguous.
      JSON.stringify({ note: { content: 'same' }, choices: [{ delta: { content: 'same' } }] }),
    ];
    for (const text of none) assert.equal(templateOf(text), undefined, text);
  });

  it('varies reasoning fields too, keeping the other fields of the layout', () => {
    const template = templateOf(chunkText({ content: null, reasoning_content: 'think' }));
    assert.ok(template);
    const text = chunkText({ content: null, reasoning_content: 'more thinking' });
    assert.equal(template.field, 'reasoning_content');
    assert.equal(template.match(text), 'more thinking');
    assert.equal(fullParse(text)?.choices?.[0]?.delta?.reasoning_content, 'more thinking');
    assert.equal(template.match(chunkText({ content: 'answer', reasoning_content: null })), undefined);
  });

  it('a decoder gives the same events as parsing every chunk in full, across layout changes (property)', () => {
    const piece = fc.oneof(
      fc.record({ kind: fc.constant('content' as const), text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) }),
      fc.record({ kind: fc.constant('reasoning_content' as const), text: fc.string({ minLength: 1, maxLength: 12 }) }),
      fc.record({ kind: fc.constant('id' as const), text: fc.string({ minLength: 1, maxLength: 6 }) }),
      fc.record({ kind: fc.constant('bad' as const), text: fc.constantFrom('{"choices":', 'nonsense', '{"choices":"wrong"}') }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        let id = 'chatcmpl-1';
        const payloads = [chunkText({ role: 'assistant', content: '' })];
        for (const { kind, text } of pieces) {
          if (kind === 'id') id = text;
          else if (kind === 'bad') payloads.push(text);
          // Content starts with a letter: a first text that could open `<think>` is held back by the splitter.
          else payloads.push(chunkText({ [kind]: kind === 'content' ? `x${text}` : text }, { id }));
        }
        payloads.push(chunkText({}, { id, finish: 'stop' }), '[DONE]');
        // The reference: each payload alone in a fresh decoder, which has no template to use.
        const expected = payloads.flatMap((payload, index) => (index === payloads.length - 1 ? [] : reference(payload)));
        const events = decodeAll(payloads);
        assert.deepEqual(
          events.filter((event) => event.type === 'text' || event.type === 'reasoning' || event.type === 'finish'),
          expected,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('gives every event of a templated chunk, the role each chunk repeats included', () => {
    const payloads = ['one', 'two', 'three'].map((content) => chunkText({ role: 'assistant', content }));
    assert.deepEqual(decodeAll(payloads), [
      { type: 'role', role: 'assistant' },
      { type: 'text', text: 'one' },
      { type: 'role', role: 'assistant' },
      { type: 'text', text: 'two' },
      { type: 'role', role: 'assistant' },
      { type: 'text', text: 'three' },
    ]);
  });

  it('reads `reasoning` next to an empty `reasoning_content`, through the template as in the full parse', () => {
    const payloads = ['a', 'b', 'c'].map((reasoning) => chunkText({ content: null, reasoning_content: '', reasoning }));
    const expected = ['a', 'b', 'c'].map((text) => ({ type: 'reasoning', text }));
    assert.deepEqual(decodeAll(payloads), expected);
    assert.deepEqual(payloads.flatMap(reference), expected);
  });
});

/** Events of one payload decoded on its own (think-splitting aside: the property uses no `<think>` text). */
function reference(payload: string): ChatStreamEvent[] {
  const chunk = fullParse(payload);
  const choice = chunk?.choices?.[0];
  if (!choice) return [];
  const events: ChatStreamEvent[] = [];
  const reasoning = choice.delta?.reasoning_content || choice.delta?.reasoning;
  if (reasoning) events.push({ type: 'reasoning', text: reasoning });
  if (choice.delta?.content) events.push({ type: 'text', text: choice.delta.content });
  if (choice.finish_reason) events.push({ type: 'finish', reason: choice.finish_reason });
  return events;
}
