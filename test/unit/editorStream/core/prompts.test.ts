import * as assert from 'node:assert/strict';
import { CURSOR_MARKER, clipAfter, clipBefore, completionPrompt, rewritePrompt } from '../../../../src/editorStream/core/prompts';

describe('editor prompts', () => {
  it('Complete at Cursor sends the text around the cursor with the file name and language, and asks for the continuation only', () => {
    const prompt = completionPrompt({ fileName: 'src/sum.ts', languageId: 'typescript', before: 'function sum(a, b) {\n  return ', after: '\n}\n' });
    assert.match(prompt.instructions, /only the text to insert/);
    assert.match(prompt.instructions, /no code fences/);
    const [user] = prompt.messages;
    assert.equal(user?.role, 'user');
    const content = String(user?.content);
    assert.ok(content.includes('File: src/sum.ts (language: typescript)'));
    assert.ok(content.includes(`function sum(a, b) {\n  return ${CURSOR_MARKER}\n}\n`), 'the text before, the marker and the text after, in place');
  });

  it('Rewrite Selection sends the selection and the instruction, and asks for the replacement only', () => {
    const prompt = rewritePrompt({
      fileName: 'a.py',
      languageId: 'python',
      instruction: 'Add type hints',
      selection: 'def f(x):\n    return x\n',
      before: 'import os\n',
      after: '\nf(1)\n',
    });
    assert.match(prompt.instructions, /only the text that replaces the selection/);
    const content = String(prompt.messages[0]?.content);
    assert.ok(content.includes('Instruction: Add type hints'));
    assert.ok(content.includes('<selection>\ndef f(x):\n    return x\n\n</selection>'));
    assert.ok(content.includes('File: a.py (language: python)'));
    assert.ok(content.indexOf('import os') < content.indexOf('<selection>') && content.indexOf('f(1)') > content.indexOf('</selection>'));
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
