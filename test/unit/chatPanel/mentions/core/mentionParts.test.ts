import * as assert from 'node:assert/strict';
import { imageFromDataUrl } from '../../../../../src/chatPanel/core/images';
import { renderMention, userPromptText } from '../../../../../src/chatPanel/core/contextPrompt';
import { mentionView } from '../../../../../src/chatPanel/core/webviewViews';
import {
  english,
  fileCount,
  formatBytes,
  lineCount,
  listText,
  locationLabel,
  looksBinary,
  stripAnsi,
  type Words,
} from '../../../../../src/chatPanel/mentions/core/mentionFormat';
import { formatMessage } from '../../../../../src/api/l10n';
import { mentionKey, parseMentionKey } from '../../../../../src/chatPanel/mentions/core/mentionTarget';

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

  it("a chip in the user's language: the model reads its English heading, the page never gets it", () => {
    const mention = {
      id: '3',
      kind: 'gitChanges' as const,
      label: 'Git：暂存的更改',
      detail: '2 个文件',
      heading: 'Git: staged changes (2 files)',
      content: 'diff',
      tokens: 3,
    };
    assert.equal(renderMention(mention), 'Git: staged changes (2 files):\n\n```\ndiff\n```');
    assert.deepEqual(mentionView(mention), { id: '3', kind: 'gitChanges', label: 'Git：暂存的更改', detail: '2 个文件', tokens: 3 });
  });

  it('counts and lists in the words of the writer given: English for the model, the translation for the chip', () => {
    const chinese: Record<string, string> = { '1 line': '1 行', '{0} lines': '{0} 行', '{0} files': '{0} 个文件', '{0}, {1}': '{0}，{1}' };
    const zh: Words = (message, ...args) => formatMessage(chinese[message] ?? message, args);
    assert.deepEqual([lineCount(1, english), lineCount(0, english), fileCount(1, english), fileCount(3, english)], ['1 line', '0 lines', '1 file', '3 files']);
    assert.equal(listText(['exit code 0', lineCount(12, english), fileCount(2, english)], english), 'exit code 0, 12 lines, 2 files');
    assert.equal(listText([lineCount(1, zh), fileCount(2, zh)], zh), '1 行，2 个文件');
    assert.equal(listText([], zh), '');
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
