import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { sampleBytes, type LocalService } from '../service';
import { clearNotifications, notificationMessage } from './support/notifications';
import { quickInputBox, quickInputRow, runCommand } from './support/palette';
import { expandView, frameWith, openViewContainer, runContextMenuItem, treeRow, viewPane } from './support/views';
import { VIDEO_AND_EDITOR } from './support/sessions';
import { useWorkbench } from './support/workbench';
import { LONG_WAIT } from './support/chatPage';

const PROMPT = 'A paper boat drifting down a rainy street at dusk';
/** How the tree shortens it (48 characters at most). */
const LABEL = 'A paper boat drifting down a rainy street at du';

function taskRow(page: Page): Locator {
  return treeRow(page, LABEL, 'Video Tasks');
}

/** The codicon of a tree row's icon, e.g. `loading~spin` shows as `codicon-loading` + `codicon-modifier-spin`. */
function rowIcon(row: Locator, codicon: string): Locator {
  return row.locator(`.custom-view-tree-node-item-icon.codicon-${codicon}, .codicon.codicon-${codicon}`).first();
}

function playerFrame(page: Page, timeoutMs = 30_000): Promise<FrameLocator> {
  return frameWith(page, 'video#player', timeoutMs);
}

function videoPosts(service: LocalService): number {
  return service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').length;
}

/** Waits until every video of `videos` has played past `seconds`. */
async function playedPast(videos: Locator, seconds: number): Promise<void> {
  const count = await videos.count();
  for (let nth = 0; nth < count; nth++) {
    await videos.nth(nth).evaluate(
      (element: HTMLVideoElement, past: number) =>
        new Promise<void>((resolve, reject) => {
          const started = Date.now();
          const check = () =>
            element.currentTime > past
              ? resolve()
              : Date.now() - started > 15_000
                ? reject(new Error(`stuck at ${element.currentTime}`))
                : setTimeout(check, 100);
          check();
        }),
      seconds,
    );
  }
}

// The video flow as a user takes it: Generate Video in the command palette (prompt, then the review step),
// the task in the Video Tasks view going from running to completed, Download from the notification, and the
// video playing in the player webview. The service plays a task that stays running for a few polls.
describe('video tasks (command palette, tree, download, player; end to end)', () => {
  const context = useWorkbench(VIDEO_AND_EDITOR);

  it('shows the empty Video Tasks view with a Generate Video button', async () => {
    const { page } = context.workbench;
    await openViewContainer(page, 'Promptreel');
    const pane = await expandView(page, 'Video Tasks');
    await pane.locator('.monaco-text-button', { hasText: 'Generate Video' }).waitFor({ state: 'visible', timeout: 30_000 });
    // Only the Video Tasks view open, and a wider side bar: the screenshots show each task's model, progress and time.
    const chatHeader = viewPane(page, 'Chat').locator('.pane-header').first();
    if ((await chatHeader.getAttribute('aria-expanded')) === 'true') await chatHeader.click();
    const sash = page.locator('.monaco-sash.vertical').filter({ visible: true }).first();
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    if (sidebar) {
      await page.mouse.move(sidebar.x + sidebar.width + 1, sidebar.y + 200);
      await page.mouse.down();
      await page.mouse.move(sidebar.x + 560, sidebar.y + 200, { steps: 8 });
      await page.mouse.up();
    }
    await sash.waitFor({ state: 'attached' });
    await context.workbench.screenshot('video-empty');
  });

  it('generates a video through the quick input and shows it running', async () => {
    const { page, service } = context.workbench;
    await context.workbench.runCommand('Promptreel: Generate Video');
    await context.workbench.fillInput(PROMPT);
    // The review step: every option with the configured default; Enter on "Generate video".
    await quickInputRow(page, '$(play) Generate video')
      .or(page.locator('.quick-input-list .monaco-list-row', { hasText: 'Generate video' }))
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    const review = await page.locator('.quick-input-list').innerText();
    for (const option of ['Duration', '5 s', 'Resolution', '720p', 'Aspect ratio', 'adaptive', 'Seed', 'Content review'])
      assert.ok(review.includes(option), `the review lists ${option}:\n${review}`);
    // The price of the task (the service's /api/pricing) and what the key keeps, before anything is charged.
    assert.ok(review.includes('$0.40 · $2.80 left after'), `the review shows the price:\n${review}`);
    assert.equal(service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').length, 0);
    await context.workbench.screenshot('video-review-price');
    await quickInputBox(page).press('Enter');

    const row = taskRow(page);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const post = service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos');
    assert.equal(post.length, 1);
    assert.deepEqual(post[0].body, {
      model: 'promptreel-video',
      prompt: PROMPT,
      seconds: '5',
      moderator: true,
      metadata: { resolution: '720p', ratio: 'adaptive', generate_audio: true, watermark: false },
    });
    const spinner = rowIcon(row, 'loading');
    await spinner.waitFor({ state: 'visible', timeout: 30_000 });
    // The state icons carry a theme colour (not the row's text colour).
    const colours = await spinner.evaluate((icon) => ({
      icon: getComputedStyle(icon).color,
      text: getComputedStyle(icon.closest('.monaco-list-row') ?? icon).color,
    }));
    assert.notEqual(colours.icon, colours.text, JSON.stringify(colours));
    await row.filter({ hasText: /promptreel-video · \d+% · \d+s/ }).waitFor({ state: 'visible', timeout: 30_000 });
    // The status bar counts the running task next to the chat model.
    await page
      .locator('.statusbar-item')
      .filter({ has: page.locator('.codicon-comment-discussion') })
      .locator('.codicon-loading')
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('video-running');
  });

  it('watches the task complete, with a notification offering Download and Open', async () => {
    const { page } = context.workbench;
    const row = taskRow(page);
    await rowIcon(row, 'check').waitFor({ state: 'visible', timeout: 60_000 });
    const ready = await context.workbench.waitForNotification(/is ready/, { timeoutMs: 30_000 });
    assert.match(await notificationMessage(ready), /^The video "A paper boat drifting down a rainy stre…" is ready\.$/);
    await ready.getByRole('button', { name: 'Open', exact: true }).waitFor({ state: 'visible' });
    await row.hover();
    await context.workbench.screenshot('video-completed');
    await ready.getByRole('button', { name: 'Download', exact: true }).click();
  });

  it('downloads the MP4 into videos/ of the workspace', async () => {
    const { page, workspace, service } = context.workbench;
    const saved = await context.workbench.waitForNotification(/Saved videos\//, { timeoutMs: 30_000 });
    const message = await notificationMessage(saved);
    const name = /Saved (videos\/[^ ]+\.mp4)/.exec(message)?.[1];
    assert.ok(name, message);
    const file = path.join(workspace, name);
    assert.ok(fs.readFileSync(file).equals(sampleBytes()), 'the saved file is the video');
    assert.ok(
      service.cdnRequests.every((request) => request.headers['authorization'] === undefined),
      'no key at the CDN',
    );
    await rowIcon(taskRow(page), 'pass-filled').waitFor({ state: 'visible', timeout: 30_000 });
    // The file shows in the explorer too.
    await viewPane(page, 'Video Tasks').waitFor({ state: 'visible' });
    await context.workbench.screenshot('video-downloaded');
    await saved.getByRole('button', { name: 'Open Video', exact: true }).click();
  });

  it('plays the video in the player webview', async () => {
    const { page } = context.workbench;
    await page
      .locator('.tab', { hasText: /a-paper-boat-drifting-down-a-rainy-stree-task_\w+\.mp4/ })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    // Other webviews (the Chat view) are visible too: take the one holding the player.
    const frame = await playerFrame(page);
    const video = frame.locator('video#player');
    await frame.locator('#status', { hasText: '320×180, 3.0 s' }).waitFor({ state: 'visible', timeout: 30_000 });
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<void>((resolve, reject) => {
          const started = Date.now();
          const check = () =>
            element.currentTime > 1 ? resolve() : Date.now() - started > 15_000 ? reject(new Error(`stuck at ${element.currentTime}`)) : setTimeout(check, 100);
          check();
        }),
    );
    await video.evaluate((element: HTMLVideoElement) => element.pause());
    const state = await video.evaluate((element: HTMLVideoElement) => ({
      time: element.currentTime,
      width: element.videoWidth,
      error: element.error?.code ?? 0,
    }));
    assert.ok(state.time > 1 && state.width === 320 && state.error === 0, JSON.stringify(state));
    await context.workbench.screenshot('video-player');
  });

  it('brings the player back after a window reload', async () => {
    const { page } = context.workbench;
    // The page saves its file when it loads it (before it reads its size): the state the reload brings back.
    await (await playerFrame(page)).locator('#status', { hasText: '320×180, 3.0 s' }).waitFor({ state: 'visible', timeout: 30_000 });
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });
    await page
      .locator('.tab', { hasText: /a-paper-boat-drifting-down-a-rainy-stree-task_\w+\.mp4/ })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    const frame = await playerFrame(page, 60_000);
    await frame.locator('#status', { hasText: '320×180, 3.0 s' }).waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('video-player-restored-after-reload');
  });

  it('asks before Regenerate starts a new, charged task, and starts none when cancelled', async () => {
    const { page, service } = context.workbench;
    const posts = () => service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').length;
    const before = posts();
    await runContextMenuItem(taskRow(page), 'Regenerate');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.getByText('Generate this video again?').waitFor({ state: 'visible', timeout: 30_000 });
    // The price of the new task and what the key keeps, before it is charged.
    await dialog.getByText(/Price: \$0\.40 · \$\d+\.\d{2} left after\./).waitFor({ state: 'visible' });
    await context.workbench.screenshot('video-regenerate-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForTimeout(1000); // the point: nothing sent during it
    assert.equal(posts(), before, 'no new task');
    assert.equal(await viewPane(page, 'Video Tasks').locator('.monaco-list-row').count(), 1, 'still one task in the list');
  });

  it("review 2.3, 2.4: a task's command input that calls Generate Video opens the review with the service's price, and nothing is sent without it", async () => {
    const { page, service } = context.workbench;
    const before = videoPosts(service);
    await context.workbench.runCommand('Tasks: Run Task');
    await context.workbench.pickItem('Make a promo video');
    const generate = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Generate video' }).first();
    await generate.waitFor({ state: 'visible', timeout: 30_000 });
    const review = await page.locator('.quick-input-widget').innerText();
    assert.ok(review.includes('A kite from a task input'), `the review shows the task's prompt:\n${review}`);
    assert.ok(review.includes('$0.40 ·'), `the service's price, not the folder's:\n${review}`);
    assert.ok(!review.includes('$0.01'), `the folder's price is never shown:\n${review}`);
    await context.workbench.screenshot('video-review-from-task-input');
    await page.waitForTimeout(1000); // the point: nothing sent during it
    assert.equal(videoPosts(service), before, 'nothing sent while the review is open');
    await quickInputBox(page).press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
    await page.waitForTimeout(1500); // the point: nothing sent during it
    assert.equal(videoPosts(service), before, 'nothing sent after the review was dismissed');
  });

  it('issue 11.4: after a window reload, a task still rendering is followed and its completion announced with no Promptreel view open', async () => {
    const { page, service } = context.workbench;
    const prompt = 'A lighthouse beam sweeping over a stormy sea';
    service.setScenario({ video: { pollsToDone: 100_000 } });
    try {
      await context.workbench.runCommand('Promptreel: Generate Video');
      await context.workbench.fillInput(prompt);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Generate video' }).first().waitFor({ state: 'visible', timeout: 30_000 });
      await quickInputBox(page).press('Enter');
      await treeRow(page, /A lighthouse beam/, 'Video Tasks').waitFor({ state: 'visible', timeout: 30_000 });
      const created = service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').at(-1);
      const id = ((await (await fetch(`${service.baseUrl}/__control/tasks`)).json()) as { tasks: { id: string; prompt: string }[] }).tasks.find(
        (task) => task.prompt === prompt,
      )?.id;
      assert.ok(created && id, 'the task was created');

      // As a user keeps working: no editor, the Explorer in front, then a reload.
      await runCommand(page, 'View: Close All Editors');
      await openViewContainer(page, 'Explorer');
      await runCommand(page, 'Developer: Reload Window');
      await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });
      const reloadedAt = Date.now();
      const polls = () =>
        service.requests.filter((request) => request.method === 'GET' && request.path === `/v1/videos/${id}` && request.at > reloadedAt).length;
      // The reloaded window is the poll lease's owner still (its release may never have landed): it polls within an
      // interval. The deadline only bounds a failure.
      const deadline = Date.now() + 60_000;
      while (polls() === 0 && Date.now() < deadline) await page.waitForTimeout(250);
      assert.ok(polls() > 0, 'the task is polled again after the reload, with no Promptreel view open');

      const task = service.task(id);
      assert.ok(task);
      task.forced = 'completed';
      const ready = await context.workbench.waitForNotification(/"A lighthouse beam sweeping over a stormy sea" is ready|A lighthouse beam.* is ready/, {
        timeoutMs: 60_000,
      });
      assert.match(await notificationMessage(ready), /is ready\.$/);
      assert.equal(await viewPane(page, 'Video Tasks').isVisible(), false, 'the Promptreel view stayed closed');
      await context.workbench.screenshot('video-completed-in-background');
    } finally {
      // The tests after this one need their tasks to finish.
      service.setScenario({ video: { pollsToDone: 6 } });
    }
  });

  it('issue 16.3: Generate Variants shows the total price first, then makes one task per variant, grouped in the tree', async () => {
    const { page, service } = context.workbench;
    const before = videoPosts(service);
    // (The running-task badge on the activity bar icon takes the clicks: the container is opened by its command.)
    await context.workbench.runCommand('View: Show Promptreel');
    await context.workbench.runCommand('Promptreel: Generate Video Variants…');
    await context.workbench.pickItem('One prompt, different seeds');
    await context.workbench.fillInput('A red fox trotting through fresh snow');
    // The next box replaces this one a moment later: typing before it is there would type into the prompt box.
    await page.locator('.quick-input-widget', { hasText: 'How many variants?' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    await context.workbench.fillInput('2');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Review 2 variants' }).first().waitFor({ state: 'visible', timeout: LONG_WAIT });
    await quickInputBox(page).press('Enter');
    // One confirmation for all of them, with the total, before anything is charged.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.getByText('Generate 2 videos?').waitFor({ state: 'visible', timeout: 30_000 });
    await dialog.getByText(/Price: \$0\.80 · \$\d+\.\d{2} left after \(2 × \$0\.40\)\./).waitFor({ state: 'visible' });
    assert.equal(videoPosts(service), before, 'nothing sent before the confirmation');
    await context.workbench.screenshot('video-variants-confirm');
    await dialog.getByRole('button', { name: 'Generate 2 Videos' }).click();

    const group = treeRow(page, /2 variants · A red fox trotting through fresh snow/, 'Video Tasks');
    await group.waitFor({ state: 'visible', timeout: 30_000 });
    const members = viewPane(page, 'Video Tasks')
      .locator('.monaco-list-row', { hasText: 'A red fox trotting through fresh snow' })
      .filter({ hasNotText: '2 variants' });
    await members.nth(1).waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(videoPosts(service), before + 2, 'exactly one POST per confirmed task');
    await context.workbench.screenshot('video-variants-tree');
  });

  it("issue 16.2: the gallery shows each downloaded video's first frame, follows the tasks live, plays on hover, compares two, and comes back after a reload", async () => {
    const { page } = context.workbench;
    await context.workbench.runCommand('Promptreel: Open Video Gallery');
    let gallery = await frameWith(page, 'main#gallery .toolbar');
    const boat = gallery.locator('article.card', { hasText: 'A paper boat drifting' });
    await boat.locator('video[data-poster="ready"]').waitFor({ state: 'visible', timeout: 30_000 });
    const poster = await boat
      .locator('video')
      .evaluate((video: HTMLVideoElement) => ({ ready: video.readyState, width: video.videoWidth, paused: video.paused }));
    assert.ok(poster.ready >= 2 && poster.width === 320 && poster.paused, JSON.stringify(poster));
    await boat.hover();
    await playedPast(boat.locator('video'), 0.3);

    // The variants finish while the gallery is open; Download on their cards turns them into posters too.
    const foxes = gallery.locator('section.group article.card', { hasText: 'A red fox trotting' });
    for (let nth = 0; nth < 2; nth++) {
      const fox = foxes.nth(nth);
      const download = fox.locator('button[data-action="download"]');
      await download.waitFor({ state: 'visible', timeout: 90_000 });
      await download.click();
      await fox.locator('video[data-poster="ready"]').waitFor({ state: 'visible', timeout: 30_000 });
    }
    await clearNotifications(page);
    await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'hidden', timeout: 30_000 });
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
    await page.mouse.move(5, 5);
    // A task not downloaded yet shows what it is waiting for instead of a frame.
    await gallery.locator('article.card', { hasText: 'A lighthouse beam' }).getByText('Completed: no video here yet').waitFor({ state: 'visible' });
    await context.workbench.screenshot('video-gallery');

    await gallery.locator('#state-filter').selectOption('failed');
    await gallery.getByText('No task matches these filters.').waitFor({ state: 'visible' });
    await gallery.locator('#state-filter').selectOption('all');

    for (let nth = 0; nth < 2; nth++) await foxes.nth(nth).locator('input[type="checkbox"]').check();
    await gallery.locator('#compare', { hasText: 'Compare the 2 selected' }).click();
    const compare = gallery.locator('section.compare');
    await compare.waitFor({ state: 'visible' });
    assert.equal(await compare.locator('video').count(), 2);
    await compare.getByRole('button', { name: 'Play Both' }).click();
    await playedPast(compare.locator('video'), 0.5);
    await compare.locator('video').evaluateAll((videos: HTMLVideoElement[]) => videos.forEach((video) => video.pause()));
    await context.workbench.screenshot('video-gallery-compare');

    // The page saves its state before it renders (main.ts save()): the comparison shown is saved.
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });
    await page.locator('.tab', { hasText: 'Video Gallery' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    gallery = await frameWith(page, 'main#gallery .toolbar', 60_000);
    await gallery
      .locator('article.card', { hasText: 'A paper boat drifting' })
      .locator('video[data-poster="ready"]')
      .waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('video-gallery-restored-after-reload');
  });
});
