import * as assert from 'node:assert/strict';
import { imageFromDataUrl } from '../../../../src/chatPanel/core/images';
import { renderMention, userPromptText } from '../../../../src/chatPanel/core/contextPrompt';
import { formatBytes, locationLabel, looksBinary, stripAnsi } from '../../../../src/chatPanel/mentions/core/mentionFormat';
import { mentionKey, parseMentionKey } from '../../../../src/chatPanel/mentions/core/mentionTarget';

describe('mention keys, formats and pasted images', () => {
  it('reads back the keys it wrote, and nothing else', () => {
    const target = { kind: 'symbol' as const, uri: 'file:///w/a.ts', name: 'greet', startLine: 3, endLine: 9 };
    assert.deepEqual(parseMentionKey(mentionKey(target)), target);
    assert.equal(parseMentionKey('{"kind":"file"}'), undefined, 'no uri');
    assert.equal(parseMentionKey('{"kind":"shell","command":"rm -rf /"}'), undefined);
    assert.equal(parseMentionKey('not json'), undefined);
    assert.equal(parseMentionKey(JSON.stringify({ kind: 'problems', scope: 'file', extra: 1 })), undefined, 'strict');
  });

  it('renders a mention in a fence its text cannot close, before what the user wrote', () => {
    const text = userPromptText('Explain', undefined, [{ id: '1', kind: 'file', label: 'src/a.md', detail: '20 B', content: 'has ``` inside', tokens: 9 }]);
    assert.equal(text, 'src/a.md (20 B):\n\n````\nhas ``` inside\n````\n\nExplain');
    assert.equal(
      renderMention({ id: '2', kind: 'gitChanges', label: 'Git: staged changes', content: 'diff', tokens: 3 }),
      'Git: staged changes:\n\n```\ndiff\n```',
    );
  });

  it('formats sizes and locations, spots binary files, strips terminal escapes', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(2150), '2.1 KB');
    assert.equal(formatBytes(3 * 1024 * 1024), '3.0 MB');
    assert.equal(locationLabel('a.ts', 3, 7), 'a.ts:3-7');
    assert.equal(locationLabel('a.ts', 3, 3), 'a.ts:3');
    assert.equal(locationLabel('a.ts'), 'a.ts');
    assert.equal(looksBinary(new Uint8Array([104, 105, 0, 1])), true);
    assert.equal(looksBinary(new TextEncoder().encode('hello')), false);
    assert.equal(stripAnsi('\u001b[32mok\u001b[0m\r\n\u001b]633;A\u0007done'), 'ok\r\ndone');
  });

  it('accepts a pasted PNG and refuses what is not one', () => {
    const png = imageFromDataUrl('shot.png', 'image/png', 'data:image/png;base64,iVBORw0KGgo=');
    assert.deepEqual(png, { name: 'shot.png', mimeType: 'image/png', size: 8, dataUrl: 'data:image/png;base64,iVBORw0KGgo=' });
    assert.match(String(imageFromDataUrl('x.svg', 'image/svg+xml', 'data:image/svg+xml;base64,PHN2Zz4=')), /cannot be sent/);
    assert.match(String(imageFromDataUrl('x.png', 'image/png', 'data:image/jpeg;base64,AAAA')), /not an image/);
    assert.match(String(imageFromDataUrl('x.png', 'image/png', 'data:image/png;base64,')), /empty/);
    const big = 'A'.repeat(Math.ceil((6 * 1024 * 1024 * 4) / 3));
    assert.match(String(imageFromDataUrl('x.png', 'image/png', `data:image/png;base64,${big}`)), /at most 5 MB/);
    const renamed = imageFromDataUrl('../../etc/passwd', 'image/png', 'data:image/png;base64,AAAA');
    assert.equal(typeof renamed === 'object' && renamed.name, '.._.._etc_passwd');
  });
});
