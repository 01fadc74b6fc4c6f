import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { joinSentences } from '../../src/api/sentences';
import { LONG_WAIT, chatFrame, lastReply, normalize, send, waitForStatus } from './support/chatPage';
import { paths } from './support/harness';
import { clearNotifications, notificationMessage } from './support/notifications';
import { activityBarItem, frameWith, openViewContainer, viewPane } from './support/views';
import { useWorkbench } from './support/workbench';

// The workbench with VS Code's display language set to Simplified Chinese (`--locale zh-cn` and a stub language pack,
// see workbench.ts): Promptreel's contributions (package.nls.zh-cn.json), its host messages and its pages
// (l10n/bundle.l10n.zh-cn.json) are in Chinese; VS Code's own strings stay English (no language pack offline).
// The expected texts are read from the translation files at run time, and the English ones must be gone.

const LOCALE = 'zh-cn';

type Messages = Record<string, string>;

/** A translation file: `key: text`, or VS Code's `key: { message, comment }`. */
function readMessages(relative: string): Messages {
  const parsed = JSON.parse(fs.readFileSync(path.join(paths.ROOT, relative), 'utf8')) as Record<string, string | { message: string }>;
  return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, typeof value === 'string' ? value : value.message]));
}

function fill(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (placeholder, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : placeholder));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A template as a regular expression: its placeholders are the given patterns, the rest is literal. */
function templatePattern(template: string, args: readonly string[]): RegExp {
  const source = template
    .split(/(\{\d+\})/)
    .map((part) => {
      const placeholder = /^\{(\d+)\}$/.exec(part);
      return placeholder ? (args[Number(placeholder[1])] ?? escapeRegExp(part)) : escapeRegExp(part);
    })
    .join('');
  return new RegExp(source);
}

/** The text a welcome view shows for its contents: one line a paragraph or a button, links by their text. */
function welcomeLines(contents: string): string[] {
  return contents
    .split('\n')
    .map((line) => line.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').trim())
    .filter(Boolean);
}

function squash(text: string): string {
  return normalize(text).replace(/\s+/g, ' ').trim();
}

const englishNls = readMessages('package.nls.json');
const chineseNls = readMessages(`package.nls.${LOCALE}.json`);
const chineseBundle = readMessages(`l10n/bundle.l10n.${LOCALE}.json`);

/** A contribution's text (package.json `%key%`) in English and in Chinese; the test is void unless they differ. */
function nls(key: string): { en: string; zh: string } {
  const en = englishNls[key];
  const zh = chineseNls[key];
  assert.ok(en !== undefined, `package.nls.json has no ${key}`);
  assert.ok(zh !== undefined, `package.nls.${LOCALE}.json has no ${key}`);
  return { en, zh };
}

/** A message of the extension (`t('…')`, the English text is the key) in English and in Chinese, filled. */
function message(key: string, ...args: (string | number | { en: string; zh: string })[]): { en: string; zh: string } {
  const zh = chineseBundle[key];
  assert.ok(zh !== undefined, `l10n/bundle.l10n.${LOCALE}.json has no translation of "${key}"`);
  // A message placed inside another is filled in its own language on each side.
  const side = (language: 'en' | 'zh') => args.map((arg) => (typeof arg === 'object' ? arg[language] : arg));
  return { en: fill(key, side('en')), zh: fill(zh, side('zh')) };
}

/** Asserts the Chinese text differs from the English one (else nothing would be proven) and returns both. */
function translated<T extends { en: string; zh: string }>(text: T, what: string): T {
  assert.notEqual(text.zh, text.en, `${what} is not translated`);
  return text;
}

/** "Promptreel: <title>" as the Command Palette lists a command of ours in Chinese (the category stays). */
function paletteTitle(key: string): string {
  return `Promptreel: ${translated(nls(key), key).zh}`;
}

async function textOf(locator: Locator): Promise<string> {
  return squash((await locator.textContent()) ?? '');
}

async function showContainer(page: Page): Promise<void> {
  const container = nls('viewsContainer.promptreel.title').zh;
  await openViewContainer(page, container);
  const sideBar = page.locator('.part.sidebar');
  // A click too early after start-up can leave the side bar closed: once more, after a wait.
  try {
    await sideBar.waitFor({ state: 'visible', timeout: 5_000 });
  } catch {
    await activityBarItem(page, container).click();
    await sideBar.waitFor({ state: 'visible', timeout: LONG_WAIT });
  }
}

describe(`the workbench in Simplified Chinese (${LOCALE}): side bar, a notification, the chat panel`, () => {
  const context = useWorkbench({
    name: 'l10n-zh-cn',
    locale: LOCALE,
    env: (service) => ({ PROMPTREEL_API_KEY: service.demoKey }),
    settings: { 'promptreel.chat.model': 'promptreel-chat' },
  });

  it("shows Promptreel's side bar in Chinese: the view titles and the Video Tasks welcome", async () => {
    const { page } = context.workbench;
    await showContainer(page);
    const chat = translated(nls('view.chat.name'), 'the Chat view name');
    const videoTasks = translated(nls('view.videoTasks.name'), 'the Video Tasks view name');

    const tasksPane = viewPane(page, videoTasks.zh);
    await viewPane(page, chat.zh).waitFor({ state: 'visible', timeout: LONG_WAIT });
    await tasksPane.waitFor({ state: 'visible', timeout: LONG_WAIT });
    const titles = await page
      .locator('.part.sidebar .pane-header .title')
      .evaluateAll((elements) => elements.map((element) => element.textContent?.trim() ?? ''));
    assert.ok(titles.includes(chat.zh) && titles.includes(videoTasks.zh), `the side bar's view titles: ${titles.join(', ')}`);
    const english = titles.filter((title) => [chat.en, videoTasks.en].some((en) => title.toLowerCase() === en.toLowerCase()));
    assert.deepEqual(english, [], 'a view title is in English');

    // A key comes from PROMPTREEL_API_KEY and there is no task yet: the second welcome of Video Tasks.
    const welcome = translated(nls('viewsWelcome.videoTasks.1'), 'the Video Tasks welcome');
    const lines = welcomeLines(welcome.zh);
    // The welcome without a key shows until the extension has found the key: wait for the one with a key.
    const content = tasksPane.locator('.welcome-view-content');
    await content.filter({ hasText: lines[0] }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    const shown = await textOf(content);
    for (const line of lines) assert.ok(shown.includes(squash(line)), `the welcome lacks "${line}"; it shows: ${shown}`);
    for (const line of welcomeLines(welcome.en)) assert.ok(!shown.includes(squash(line)), `the welcome shows the English "${line}"`);
    // The welcome's buttons: the links alone on their line, in Chinese.
    const generate = translated(nls('command.generateVideo.title'), 'Generate Video');
    await content.getByRole('button', { name: generate.zh, exact: true }).waitFor({ state: 'visible' });
    assert.equal(await content.getByRole('button', { name: generate.en, exact: true }).count(), 0, 'an English button in the welcome');
    // The Chat view's page too, for the picture (its texts are checked below).
    await chatFrame(page).locator('#prompt').waitFor({ state: 'visible', timeout: LONG_WAIT });
    await context.workbench.screenshot(`l10n-${LOCALE}-side-bar`);
  });

  it('reports Test Connection in a Chinese notification, with Chinese buttons', async () => {
    const { page, service } = context.workbench;
    const testConnection = paletteTitle('command.testConnection.title');

    // Connected: the message's placeholders filled in the Chinese sentence.
    await context.workbench.runCommand(testConnection);
    const connectedKey = 'Connected to {0} — {1} models; chat model {2} answered in {3} ms.';
    const connectedZh = translated(message(connectedKey), 'the Test Connection result').zh;
    const connectedPattern = templatePattern(connectedZh, [escapeRegExp(service.baseUrl), '3', 'promptreel-chat', '\\d+']);
    const connected = await context.workbench.waitForNotification(connectedPattern, { timeoutMs: LONG_WAIT });
    const connectedText = squash(await notificationMessage(connected));
    assert.match(connectedText, connectedPattern);
    assert.doesNotMatch(connectedText, templatePattern(connectedKey, ['.*', '\\d+', '\\S+', '\\d+']), 'the English message is shown');

    // Refused: an error with the service's words and two actions, all in Chinese.
    service.setScenario({
      fault: { status: 401, body: 'openai', code: 'invalid_api_key', type: 'invalid_request_error', message: 'Invalid token', requestId: false },
    });
    try {
      await context.workbench.runCommand(testConnection);
      const parts = [
        translated(message('{0}: the service refused the API key (HTTP 401).', message('Listing the models at {0}', service.baseUrl)), 'the 401 headline'),
        translated(message('The service said: "{0}".', 'Invalid token'), "the service's words"),
        translated(message('The API key is invalid, expired, disabled or out of quota: set a new key.'), 'the 401 hint'),
      ];
      const expected = joinSentences(parts.map((part) => part.zh));
      const refused = await context.workbench.waitForNotification(parts[0]!.zh, { timeoutMs: LONG_WAIT });
      const refusedText = squash(await notificationMessage(refused));
      assert.equal(refusedText, squash(expected));
      for (const part of parts) assert.ok(!refusedText.includes(part.en), `the English "${part.en}" is shown`);

      for (const key of ['Set API Key', 'Show Logs']) {
        const label = translated(message(key), `the button ${key}`);
        await refused.getByRole('button', { name: label.zh, exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
        assert.equal(await refused.getByRole('button', { name: label.en, exact: true }).count(), 0, `the English button ${key}`);
      }
      // The progress of Test Connection closes once it is done; then the picture shows the result alone.
      const progress = translated(message('Promptreel: Test Connection'), 'the progress title');
      await page.locator('.notifications-toasts .notification-toast', { hasText: progress.zh }).waitFor({ state: 'hidden', timeout: LONG_WAIT });
      await context.workbench.screenshot(`l10n-${LOCALE}-notification`);
    } finally {
      service.setScenario({ fault: null });
    }
    await clearNotifications(page);
    // The refusal marked the key as refused (status bar); read the quota again so the next test starts with a good key.
    const refusedKey = translated(message('$(warning) key refused'), 'the refused key in the status bar').zh.replace(/\$\([a-z-]+\)\s*/, '');
    await context.workbench.runCommand(paletteTitle('command.refreshKeyHealth.title'));
    await page.locator('.statusbar', { hasText: refusedKey }).waitFor({ state: 'hidden', timeout: LONG_WAIT });
  });

  it('shows the chat panel in Chinese (lang zh-CN) and renders a reply', async () => {
    const { page } = context.workbench;
    await showContainer(page);
    // More room for the chat (and its picture): fold the Video Tasks view below it.
    const tasksPane = viewPane(page, nls('view.videoTasks.name').zh);
    const tasksHeader = tasksPane.locator('.pane-header').first();
    // On its title: the middle of the header can be one of the view's actions (Generate Video).
    if ((await tasksHeader.getAttribute('aria-expanded')) === 'true') await tasksHeader.locator('.title').click();
    await tasksPane.locator('.pane-header[aria-expanded="false"]').waitFor({ state: 'visible', timeout: 30_000 });
    const frame: FrameLocator = chatFrame(page);
    const prompt = frame.locator('#prompt');
    await prompt.waitFor({ state: 'visible', timeout: LONG_WAIT });
    const emptyState = frame.locator('.empty-state');
    await emptyState.waitFor({ state: 'visible', timeout: LONG_WAIT });

    assert.equal(await frame.locator('html').getAttribute('lang'), 'zh-CN');
    const placeholder = translated(message('Ask about your code… (@ to mention files, problems, git changes; Enter to send)'), 'the placeholder');
    assert.equal(await prompt.getAttribute('placeholder'), placeholder.zh);
    assert.equal(await prompt.getAttribute('aria-label'), translated(message('Message to the model'), 'the prompt label').zh);

    const sendButton = translated(message('Send'), 'Send');
    assert.equal(await textOf(frame.locator('#send')), sendButton.zh);
    assert.equal(await frame.locator('#send').getAttribute('aria-label'), translated(message('Send the message (Enter)'), 'Send (Enter)').zh);
    const options = translated(message('Model & options'), 'Model & options');
    assert.equal(await textOf(frame.locator('#options > summary')), options.zh);

    const heading = translated(message('Chat with your model'), 'the empty state heading');
    const hint = translated(message('Enter sends, Shift+Enter starts a new line, Escape stops a reply.'), 'the empty state hint');
    assert.equal(await textOf(emptyState.locator('h2')), heading.zh);
    assert.ok((await emptyState.locator('p').allTextContents()).map(squash).includes(squash(hint.zh)), 'the Chinese keyboard hint');

    // What the page shows (innerText: not the translations' data block, not hidden parts) has no English left.
    const visible = squash(await frame.locator('body').innerText()).toLowerCase();
    for (const text of [heading, hint, options]) assert.ok(!visible.includes(text.en.toLowerCase()), `the page shows the English "${text.en}"`);
    assert.ok(visible.includes(heading.zh.toLowerCase()), 'the page shows the Chinese heading');
    await context.workbench.screenshot(`l10n-${LOCALE}-chat-panel`);

    // A message and its reply (the local service echoes it), with the reply's labels in Chinese.
    const text = '你好，Promptreel';
    await send(frame, text);
    await waitForStatus(frame, 'done');
    const reply = lastReply(frame);
    assert.match(normalize(await reply.innerText()), new RegExp(escapeRegExp(`You said: ${text}`)));
    assert.equal(await reply.getAttribute('aria-label'), translated(message('Assistant reply'), 'Assistant reply').zh);
    assert.equal(await textOf(reply.locator('.message-role')), translated(message('Assistant'), 'Assistant').zh);
    const tokens = translated(message('Tokens: {0} prompt · {1} completion · {2} total'), 'the token counts');
    const usage = squash(await reply.locator('.message-usage').innerText());
    assert.match(usage, templatePattern(fill(tokens.zh, []), ['[\\d,]+', '[\\d,]+', '[\\d,]+']));
    assert.doesNotMatch(usage, /prompt|completion|total/i, 'the token counts are in English');
    const regenerate = translated(message('Regenerate'), 'Regenerate');
    await reply.getByRole('button', { name: translated(message('Regenerate the last reply'), 'Regenerate the last reply').zh }).waitFor({ state: 'visible' });
    assert.equal(await textOf(reply.locator('.message-actions button')), regenerate.zh);
    const user = frame.locator('article.message.user').last();
    assert.equal(await textOf(user.locator('.message-role')), translated(message('You'), 'You').zh);
    await context.workbench.screenshot(`l10n-${LOCALE}-chat-reply`);
  });

  it('shows the Video Gallery in Chinese (lang zh-CN): its tab, filters and empty state', async () => {
    const { page } = context.workbench;
    await context.workbench.runCommand(paletteTitle('command.openVideoGallery.title'));
    const gallery = await frameWith(page, 'main#gallery #state-filter');
    assert.equal(await gallery.locator('html').getAttribute('lang'), 'zh-CN');
    const tabTitle = translated(message('Video Gallery'), 'the tab title');
    await page.locator('.tab', { hasText: tabTitle.zh }).first().waitFor({ state: 'visible', timeout: LONG_WAIT });
    const empty = translated(
      message('No video tasks yet. Make one with Promptreel: Generate Video, Generate Video Variants or Generate Video from Recipe.'),
      'the empty gallery',
    );
    await gallery.locator('p.empty', { hasText: empty.zh }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    const allStates = translated(message('All states'), 'the state filter');
    assert.equal(squash(await gallery.locator('#state-filter option[value="all"]').innerText()), allStates.zh);
    const visible = squash(await gallery.locator('body').innerText());
    for (const text of [empty, allStates, translated(message('All models'), 'the model filter')]) {
      assert.ok(!visible.includes(text.en), `the gallery shows the English "${text.en}"`);
    }
    await context.workbench.screenshot(`l10n-${LOCALE}-video-gallery`);
  });
});
