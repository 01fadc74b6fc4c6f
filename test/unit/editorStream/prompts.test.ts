import * as assert from 'node:assert/strict';
import { validateChatRequest } from '../../../src/api';
import { CURSOR_MARKER, clipAfter, clipBefore, completionRequest, rewriteRequest, type RequestOptions } from '../../../src/editorStream/core/prompts';

const options: RequestOptions = { model: 'promptreel-chat', temperature: 0.2, topP: 0.9, frequencyPenalty: 0, presencePenalty: 0.5, maxTokens: null };

describe('editor prompts', () => {
  it('Complete at Cursor sends the text around the cursor with the file name and language, and asks for the continuation only', () => {
    const request = completionRequest(
      { fileName: 'src/sum.ts', languageId: 'typescript', before: 'function sum(a, b) {\n  return ', after: '\n}\n' },
      options,
      undefined,
    );
    validateChatRequest(request);
    assert.equal(request.model, 'promptreel-chat');
    const [system, user] = request.messages;
    assert.equal(system.role, 'system');
    assert.match(String(system.content), /only the text to insert/);
    assert.match(String(system.content), /no code fences/);
    assert.equal(user.role, 'user');
    const content = String(user.content);
    assert.ok(content.includes('File: src/sum.ts (language: typescript)'));
    assert.ok(content.includes(`function sum(a, b) {\n  return ${CURSOR_MARKER}\n}\n`), 'the text before, the marker and the text after, in place');
  });

  it('Rewrite Selection sends the selection and the instruction, and asks for the replacement only', () => {
    const request = rewriteRequest(
      {
        fileName: 'a.py',
        languageId: 'python',
        instruction: 'Add type hints',
        selection: 'def f(x):\n    return x\n',
        before: 'import os\n',
        after: '\nf(1)\n',
      },
      options,
      undefined,
    );
    validateChatRequest(request);
    const [system, user] = request.messages;
    assert.match(String(system.content), /only the text that replaces the selection/);
    const content = String(user.content);
    assert.ok(content.includes('Instruction: Add type hints'));
    assert.ok(content.includes('<selection>\ndef f(x):\n    return x\n\n</selection>'));
    assert.ok(content.includes('File: a.py (language: python)'));
    assert.ok(content.indexOf('import os') < content.indexOf('<selection>') && content.indexOf('f(1)') > content.indexOf('</selection>'));
  });

  it('uses the developer role only where the model is declared to accept it', () => {
    const input = { fileName: 'x', languageId: 'plaintext', before: '', after: '' };
    assert.equal(completionRequest(input, options, { developerRole: true }).messages[0].role, 'developer');
    assert.equal(completionRequest(input, options, { developerRole: false }).messages[0].role, 'system');
    assert.equal(completionRequest(input, options, {}).messages[0].role, 'system');
  });

  it('sends the sampling settings, leaving out zero penalties, and none for a model that refuses sampling', () => {
    const input = { fileName: 'x', languageId: 'plaintext', before: '', after: '' };
    const sampled = completionRequest(input, options, undefined);
    assert.deepEqual(
      { temperature: sampled.temperature, top_p: sampled.top_p, frequency_penalty: sampled.frequency_penalty, presence_penalty: sampled.presence_penalty },
      { temperature: 0.2, top_p: 0.9, frequency_penalty: undefined, presence_penalty: 0.5 },
    );
    const plain = completionRequest(input, options, { sampling: false });
    assert.equal('temperature' in plain || 'top_p' in plain || 'presence_penalty' in plain, false);
  });

  it('sends max_tokens from the settings, capped by the declared output limit', () => {
    const input = { fileName: 'x', languageId: 'plaintext', before: '', after: '' };
    assert.equal(completionRequest(input, options, undefined).max_tokens, undefined);
    assert.equal(completionRequest(input, { ...options, maxTokens: 500 }, undefined).max_tokens, 500);
    assert.equal(completionRequest(input, { ...options, maxTokens: 500 }, { maxOutputTokens: 100 }).max_tokens, 100);
  });

  it('clips the context at line boundaries', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const before = clipBefore(lines, 100);
    assert.ok(before.length <= 100 && lines.endsWith(before));
    assert.match(before, /^line \d+\n/, 'starts at a whole line');
    const after = clipAfter(lines, 100);
    assert.ok(after.length <= 100 && lines.startsWith(after));
    assert.match(after, /\n$/, 'ends at a whole line');
    assert.equal(clipBefore('short'), 'short');
    assert.equal(clipBefore('x'.repeat(50), 10), 'x'.repeat(10), 'no line break near: a plain cut');
  });
});
