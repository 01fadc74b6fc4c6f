import * as assert from 'node:assert/strict';
import { useHighlighter } from '../../../../../src/chatPanel/webview/page/highlight';
import { highlightJs } from '../../../../../src/chatPanel/webview/page/highlightJs';
import { markdownToHtml, normalizeNewlines, splitStreamingMarkdown, tokensToHtml } from '../../../../../src/chatPanel/webview/page/markdownParser';

/** What the webview's MarkdownStream does per frame, with HTML strings instead of DOM nodes. */
function streamInChunks(text: string, chunkSize: number): { html: string; frames: number; closedBlocks: number } {
  let source = '';
  let stableChars = 0;
  let stableHtml = '';
  let tailHtml = '';
  let frames = 0;
  let closedBlocks = 0;
  for (let i = 0; i < text.length; i += chunkSize) {
    source += text.slice(i, i + chunkSize);
    frames++;
    const split = splitStreamingMarkdown(normalizeNewlines(source).slice(stableChars));
    stableHtml += tokensToHtml(split.closed, split.links);
    stableChars += split.closedChars;
    closedBlocks += split.closed.length;
    tailHtml = tokensToHtml(split.open, split.links);
  }
  return { html: stableHtml + tailHtml, frames, closedBlocks };
}

const SAMPLE = [
  '# Sample heading',
  '',
  'Some **bold** text, some *italic* text and `inline code`.',
  '',
  '- first item',
  '- second item',
  '  - a nested item',
  '- third item',
  '',
  '| Language | Typed |',
  '|---|---|',
  '| TypeScript | yes |',
  '',
  '```ts',
  'export function greet(name: string): string {',
  '  return `Hello, ${name}!`;',
  '}',
  '```',
  '',
  '> a quote',
  '> on two lines',
  '',
  '1. one',
  '2. two',
  '',
  'Setext heading',
  '---',
  '',
  'That is all.',
].join('\n');

describe('chat streaming markdown (block splitting)', () => {
  for (const chunkSize of [1, 3, 8, 64, 10_000]) {
    it(`renders the same HTML as a full render when streamed in chunks of ${chunkSize}`, () => {
      assert.equal(streamInChunks(SAMPLE, chunkSize).html, markdownToHtml(SAMPLE));
    });
  }

  it('renders CRLF and CR text like LF text, even when a CRLF is split across chunks', () => {
    const crlf = SAMPLE.replace(/\n/g, '\r\n');
    assert.equal(streamInChunks(crlf, 1).html, markdownToHtml(SAMPLE));
    assert.equal(streamInChunks(SAMPLE.replace(/\n/g, '\r'), 5).html, markdownToHtml(SAMPLE));
  });

  it('closes blocks as soon as a later block starts, so a long reply re-renders only its last block', () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(60).trim()}.`).join('\n\n');
    const result = streamInChunks(paragraphs, 16);
    assert.equal(result.html, markdownToHtml(paragraphs));
    // 30 paragraphs and 29 blank-line separators: all but the last paragraph end up closed.
    assert.equal(result.closedBlocks, 58);
  });

  it('keeps an unclosed code fence open until it closes', () => {
    const split = splitStreamingMarkdown('Intro\n\n```ts\nconst a = 1;\n');
    assert.deepEqual(
      split.closed.map((token) => token.type),
      ['paragraph', 'space'],
    );
    assert.deepEqual(
      split.open.map((token) => token.type),
      ['code'],
    );
    assert.equal(split.closedChars, 'Intro\n\n'.length);
  });

  it('closes nothing while there is only one block', () => {
    assert.deepEqual(splitStreamingMarkdown('just one para\n\n').closed, []);
    assert.deepEqual(splitStreamingMarkdown('').closed, []);
  });

  it('shows code as escaped text until the highlighter has loaded (the page loads it after its first screen)', () => {
    const html = markdownToHtml('```ts\nconst a = "<b>";\n```');
    assert.match(html, /<code class="hljs" data-lang="ts">const a = &quot;&lt;b&gt;&quot;;<\/code>/);
  });

  it('highlights known languages and escapes unknown ones', () => {
    useHighlighter(highlightJs);
    const html = markdownToHtml('```ts\nconst a = "<b>";\n```\n\n```nosuchlang\n<script>x</script>\n```');
    assert.match(html, /<code class="hljs language-ts" data-lang="ts"><span class="hljs-keyword">const<\/span>/);
    assert.match(html, /<code class="hljs" data-lang="nosuchlang">&lt;script&gt;x&lt;\/script&gt;/);
  });

  it('turns images into links (the page loads no image from a reply)', () => {
    assert.equal(markdownToHtml('![alt text](https://example.com/a.png)').trim(), '<p><a href="https://example.com/a.png">alt text</a></p>');
  });
});
