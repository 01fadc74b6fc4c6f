import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { assertNoSeriousViolations } from './support/axe';
import { fillInput, quickInputRow, runCommand } from './support/palette';
import { LONG_WAIT, chatFrame, normalize, openFile, showPromptreelSideBar, waitUntil } from './support/chatPage';
import { USAGE_AND_LONG_CHAT } from './support/sessions';
import { useWorkbench } from './support/workbench';

// Issue 28 item 2: a 500-message chat in the real chat view. It opens at its end with only the messages near the view
// in the page; scrolling up renders the older ones as it reaches them; a message deep in the history renders like any
// other (markdown, highlighted code, its toolbar acting); the focus and the way back to the end hold.

const TURNS = 250;
const DEEP = 7;

/** A reply deep in the history with everything a reply can hold: a heading, a list, a table, highlighted code. */
const RICH_REPLY = [
  `## Deep answer ${DEEP}`,
  '',
  'The steps, in order:',
  '',
  '1. Read the **settings**.',
  '2. Call the service.',
  '',
  '| name | value |',
  '|---|---|',
  '| deep | yes |',
  '',
  '```ts',
  'export function deep(depth: number): string {',
  '  return `depth ${depth}`;',
  '}',
  '```',
].join('\n');

function reply(turn: number): string {
  if (turn === DEEP) return RICH_REPLY;
  return [
    `Answer ${turn}: here is what \`stream\` does.`,
    '',
    '```ts',
    `const answer${turn} = await client.stream(request);`,
    '```',
    '',
    'See the docs for more.',
  ].join('\n');
}

/** The chat as "Export Chat as JSON…" writes it. */
function longChatJson(): string {
  const now = Date.UTC(2026, 10, 1);
  const messages = [];
  for (let turn = 0; turn < TURNS; turn++) {
    messages.push({ id: `long-user-${turn}`, role: 'user', text: `Question ${turn}: what does stream do here?`, createdAt: now });
    messages.push({
      id: `long-reply-${turn}`,
      role: 'assistant',
      model: 'promptreel-chat',
      text: reply(turn),
      reasoning: '',
      toolCalls: [],
      status: 'done',
      createdAt: now,
    });
  }
  const conversation = { id: 'long-chat', title: 'A long chat', createdAt: now, updatedAt: now, options: {}, messages };
  return JSON.stringify({ format: 'promptreel.chat', version: 1, exportedAt: new Date(now).toISOString(), conversation });
}

/** The message in the page whose text has `key` ("Question 12:", "Answer 249:"; an import gives messages new ids). */
function message(frame: FrameLocator, key: string) {
  return frame.locator('#messages > article.message', { hasText: key });
}

/** How the list stands: messages in the page, the first and last of them (their key), and where it is scrolled. */
async function listState(frame: FrameLocator): Promise<{ inPage: number; first?: string; last?: string; atEnd: boolean; atTop: boolean }> {
  return frame.locator('#messages').evaluate((list) => {
    const articles = Array.from(list.querySelectorAll<HTMLElement>(':scope > article.message'));
    const key = (article: HTMLElement | undefined) => /(Question|Answer) \d+:|Deep answer \d+/.exec(article?.textContent ?? '')?.[0];
    return {
      inPage: articles.length,
      first: key(articles[0]),
      last: key(articles.at(-1)),
      atEnd: list.scrollHeight - list.scrollTop - list.clientHeight < 2,
      atTop: list.scrollTop === 0,
    };
  });
}

/** Whether the message with `key` is in the page and on screen in the list. */
async function inView(frame: FrameLocator, key: string): Promise<boolean> {
  return frame.locator('#messages').evaluate((list, text) => {
    const article = Array.from(list.querySelectorAll(':scope > article.message')).find((candidate) => candidate.textContent?.includes(text));
    if (!article) return false;
    const view = list.getBoundingClientRect();
    const box = article.getBoundingClientRect();
    return box.bottom > view.top && box.top < view.bottom;
  }, key);
}

/**
 * Scrolls the list most of a screen up or down every few frames, as a user paging through it would, until the message
 * with `key` is on screen and, with `to`, the list is at that end. Resolves with the screens scrolled.
 */
async function scrollUntil(frame: FrameLocator, direction: -1 | 1, key: string, to?: 'top' | 'end'): Promise<number> {
  const outcome = await frame.locator('#messages').evaluate(
    (list, { sign, text, end }) =>
      new Promise<{ screens: number; found: boolean }>((resolve) => {
        let screens = 0;
        const found = () => {
          const article = Array.from(list.querySelectorAll(':scope > article.message')).find((candidate) => candidate.textContent?.includes(text));
          const box = article?.getBoundingClientRect();
          const view = list.getBoundingClientRect();
          const atEnd = end === 'top' ? list.scrollTop === 0 : end === 'end' ? list.scrollHeight - list.scrollTop - list.clientHeight < 2 : true;
          return !!box && box.bottom > view.top && box.top < view.bottom && atEnd;
        };
        const step = (frames: number) => {
          if (frames > 0) return requestAnimationFrame(() => step(frames - 1));
          if (found() || screens >= 2_000) return resolve({ screens, found: found() });
          list.scrollTop += sign * list.clientHeight * 0.9;
          screens++;
          requestAnimationFrame(() => step(3));
        };
        step(0);
      }),
    { sign: direction, text: key, end: to },
  );
  assert.ok(
    outcome.found,
    `scrolling ${direction < 0 ? 'up' : 'down'} ${outcome.screens} screens did not bring "${key}" on screen: ${JSON.stringify(await listState(frame))}`,
  );
  return outcome.screens;
}

/** The chat page in the widest webview on screen (an editor panel, beside the side bar's Chat view). */
async function widestChatFrame(page: Page): Promise<FrameLocator> {
  const webviews = page.locator('iframe.webview.ready').filter({ visible: true });
  await waitUntil(async () => (await webviews.count()) >= 2, 'the side bar and panel webviews');
  let widest = 0;
  let width = 0;
  for (let nth = 0; nth < (await webviews.count()); nth++) {
    const box = await webviews.nth(nth).boundingBox();
    if (box && box.width > width) [widest, width] = [nth, box.width];
  }
  return chatFrame(page, widest);
}

describe('a 500-message chat (issue 28 item 2, real VS Code)', () => {
  const context = useWorkbench(USAGE_AND_LONG_CHAT);
  before(() => fs.writeFileSync(path.join(context.workbench.workspace, 'long-chat.json'), longChatJson()));

  it('issue 28.2: opens at its last message with only the messages near the view in the page, renders older ones as they are scrolled to, and a deep one like any other', async () => {
    const { page, workspace } = context.workbench;
    await showPromptreelSideBar(page);
    // The keys go to the workbench, not to a webview that took the focus (F1 opens the palette).
    const sideBarTitle = page.locator('.part.sidebar .title-label', { hasText: 'Promptreel' });
    await sideBarTitle.click();
    await runCommand(page, 'Promptreel: Import Chat from JSON…');
    // VS Code's own file dialog in the browser: once it lists the folder, the file's path is typed and accepted.
    await quickInputRow(page, 'long-chat.json').waitFor({ state: 'visible', timeout: LONG_WAIT });
    await fillInput(page, path.join(workspace, 'long-chat.json'));
    await chatFrame(page).locator('#conversation-picker option:checked', { hasText: 'A long chat' }).waitFor({ state: 'attached', timeout: LONG_WAIT });
    // The imported chat in an editor panel: the widest webview shown.
    await sideBarTitle.click();
    await runCommand(page, 'Promptreel: Open Chat in Editor');
    await page.locator('.tab', { hasText: 'A long chat' }).first().waitFor({ state: 'visible', timeout: LONG_WAIT });
    const frame = await widestChatFrame(page);
    const last = `Answer ${TURNS - 1}:`;
    await message(frame, last).locator('code.hljs').waitFor({ state: 'visible', timeout: LONG_WAIT });
    // Shown before the highlighter loaded (after the first screen), the last screen's code is highlighted when it has.
    await message(frame, last).locator('code.hljs .hljs-keyword').first().waitFor({ state: 'attached', timeout: LONG_WAIT });

    const opened = await listState(frame);
    assert.equal(opened.last, last, 'the last message is the last in the page');
    assert.ok(opened.atEnd, 'the list is at its end');
    assert.ok(await inView(frame, last), 'the last message is on screen');
    assert.ok(opened.inPage >= 2 && opened.inPage <= 40, `${opened.inPage} of ${2 * TURNS} messages in the page`);
    assert.equal(await message(frame, `Deep answer ${DEEP}`).count(), 0, 'a message far up is not in the page yet');
    await context.workbench.screenshot('chat-long-opened');
    await assertNoSeriousViolations(frame, 'chat page with a 500-message chat');

    // Select All over the list and copy: every message's text, not only that of the messages in the page.
    const copied = await frame.locator('#messages').evaluate((list) => {
      const range = document.createRange();
      range.selectNodeContents(list);
      document.getSelection()?.removeAllRanges();
      document.getSelection()?.addRange(range);
      const clipboardData = new DataTransfer();
      list.dispatchEvent(new ClipboardEvent('copy', { clipboardData, bubbles: true, cancelable: true }));
      document.getSelection()?.removeAllRanges();
      return clipboardData.getData('text/plain');
    });
    assert.equal(copied.match(/^Question \d+:/gm)?.length, TURNS, 'every question is copied');
    assert.ok(copied.startsWith('Question 0: what does stream do here?') && copied.includes(`Deep answer ${DEEP}`) && copied.includes(last));

    const screens = await scrollUntil(frame, -1, 'Question 0:', 'top');
    const top = await listState(frame);
    assert.equal(top.first, 'Question 0:');
    assert.ok(await inView(frame, 'Question 0:'), 'the first message is on screen');
    assert.ok(top.inPage <= 40, `${top.inPage} messages in the page at the top: those at the bottom left it`);
    assert.equal(await message(frame, last).count(), 0);
    assert.ok(normalize(await message(frame, 'Question 0:').innerText()).includes('Question 0: what does stream do here?'));
    await assertNoSeriousViolations(frame, 'chat page at the top of a 500-message chat');
    console.log(`      [chat] ${screens} screens up to the first of ${2 * TURNS} messages; ${opened.inPage} in the page at the end, ${top.inPage} at the top`);

    // The deep reply, a few screens down from the top: rendered when the scroll reaches it, as any reply is.
    const deep = message(frame, `Deep answer ${DEEP}`);
    await scrollUntil(frame, 1, `Deep answer ${DEEP}`);
    await deep.scrollIntoViewIfNeeded();
    assert.equal(normalize(await deep.locator('h2').innerText()), `Deep answer ${DEEP}`);
    assert.equal(await deep.locator('ol > li').count(), 2);
    assert.equal(await deep.locator('table td', { hasText: 'deep' }).count(), 1);
    const code = deep.locator('.code-block code.hljs');
    assert.match(normalize(await code.innerText()), /export function deep\(depth: number\): string \{/);
    assert.ok((await code.locator('.hljs-keyword').count()) >= 2, 'the code is highlighted');
    const copy = deep.locator('.code-toolbar button', { hasText: 'Copy' });
    for (const label of ['Insert', 'Replace', 'New File']) await deep.locator('.code-toolbar button', { hasText: label }).waitFor();
    await copy.click();
    await deep.locator('.code-toolbar button', { hasText: 'Copied' }).waitFor({ state: 'visible' });
    await page.locator('#workbench\\.parts\\.statusbar', { hasText: 'Code copied' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    await context.workbench.screenshot('chat-long-deep-reply');

    // Another editor over the panel, then the panel again: VS Code loads its page anew, which comes back to that reply.
    const before = await listState(frame);
    await frame.locator('#messages').evaluate(() => ((window as unknown as { keptPage?: boolean }).keptPage = true));
    await sideBarTitle.click();
    await openFile(page, 'README.md');
    await page.locator('.tab', { hasText: 'A long chat' }).first().click();
    await message(frame, `Deep answer ${DEEP}`).locator('code.hljs').waitFor({ state: 'visible', timeout: LONG_WAIT });
    const back = await listState(frame);
    assert.equal(
      await frame.locator('#messages').evaluate(() => (window as unknown as { keptPage?: boolean }).keptPage),
      undefined,
      'the page was loaded anew',
    );
    assert.ok(await inView(frame, `Deep answer ${DEEP}`), `reply ${DEEP} is on screen again: ${JSON.stringify({ before, back })}`);
    assert.equal(back.atEnd, false, 'the page did not open at the end');
    assert.ok(back.inPage <= 40);

    // Back to the end with the focus on that Copy button: the reply leaves the page and the list keeps the focus.
    await copy.focus();
    await scrollUntil(frame, 1, last, 'end');
    assert.ok(await inView(frame, last));
    assert.equal(await deep.count(), 0, 'the deep reply left the page');
    assert.equal(await frame.locator('#messages').evaluate((list) => document.activeElement === list), true, 'the list has the focus');
    assert.ok((await listState(frame)).inPage <= 40);
  });
});
