import * as assert from 'node:assert/strict';
import { assertNoSeriousViolations } from './support/axe';
import { LONG_WAIT, lastReply, openChat, send, waitForStatus, waitUntil } from './support/chatPage';
import { quickInputBox } from './support/palette';
import { frameWith, viewPane } from './support/views';
import { FILM_AND_PAGES } from './support/sessions';
import { useWorkbench } from './support/workbench';
import { writeMadeFilm } from '../service/madeFilm';

// Issue 28.9: axe-core run inside each page of the extension as a user sees it (the chat after a reply with code, the
// Video Gallery with a card, the player playing a downloaded video) finds nothing serious or critical; a finished
// reply is announced to a screen reader once.

describe('accessibility of the pages (issue 28.9, axe-core in the real workbench)', () => {
  const context = useWorkbench(FILM_AND_PAGES);

  it('issue 28.9: the chat after a reply with code has no serious violation, and each finished reply is announced once', async () => {
    const { page } = context.workbench;
    const frame = await openChat(page);
    const videoHeader = viewPane(page, 'Video Tasks').locator('.pane-header').first();
    if ((await videoHeader.count()) && (await videoHeader.getAttribute('aria-expanded')) === 'true') await videoHeader.click();
    const announcer = frame.locator('#announcer');
    assert.equal(await announcer.getAttribute('aria-live'), 'polite');
    // Every text the live region takes, as a screen reader would be told it.
    await announcer.evaluate((region) => {
      const said: string[] = [];
      (window as unknown as { announced: string[] }).announced = said;
      new MutationObserver(() => {
        const text = region.textContent?.trim() ?? '';
        if (text) said.push(text);
      }).observe(region, { childList: true, characterData: true, subtree: true });
    });
    const announced = () => announcer.evaluate(() => [...(window as unknown as { announced: string[] }).announced]);

    for (const [turn, message] of ['Show me some #markdown', 'And once more, #markdown please'].entries()) {
      await send(frame, message);
      await waitForStatus(frame, 'done');
      await waitUntil(async () => (await announced()).length > turn, `the end of reply ${turn + 1} to be announced`, LONG_WAIT, announced);
      // Long enough for a second announcement of the same reply to show.
      await page.waitForTimeout(750);
      assert.deepEqual(await announced(), Array(turn + 1).fill('Reply complete.'), `one announcement per finished reply after reply ${turn + 1}`);
    }
    await lastReply(frame).locator('.code-block code.hljs').waitFor();
    await assertNoSeriousViolations(frame, 'chat page');
    // The code block scrolls sideways: the keyboard reaches it from its toolbar.
    await lastReply(frame).locator('.code-toolbar button', { hasText: 'New File' }).first().focus();
    await page.keyboard.press('Tab');
    assert.equal(await frame.locator(':focus').evaluate((element) => element.matches('.code-block pre')), true, 'Tab after the toolbar reaches the code');

    await frame.locator('#open-history').click();
    const history = frame.locator('#history');
    await history.locator('.history-row').first().waitFor({ state: 'visible' });
    await assertNoSeriousViolations(frame, 'chat page with its History open');
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'hidden' });
  });

  it('issue 28.9: the Video Gallery with a downloaded video has no serious violation', async () => {
    const { page } = context.workbench;
    await context.workbench.runCommand('Promptreel: Generate Video');
    await context.workbench.fillInput('A lantern floating over a calm lake');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Generate video' }).first().waitFor({ state: 'visible', timeout: LONG_WAIT });
    await quickInputBox(page).press('Enter');
    await context.workbench.runCommand('Promptreel: Open Video Gallery');
    const gallery = await frameWith(page, 'main#gallery .toolbar');
    const card = gallery.locator('article.card', { hasText: 'A lantern floating' });
    const video = card.locator('video[data-poster="ready"]');
    await video.waitFor({ state: 'visible', timeout: 90_000 });
    await assertNoSeriousViolations(gallery, 'Video Gallery');
    // The keyboard plays the card's video as the pointer does.
    await video.focus();
    await page.keyboard.press('Enter');
    await waitUntil(() => video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0.1), 'Enter to play the card');
    await page.keyboard.press(' ');
    await waitUntil(() => video.evaluate((element: HTMLVideoElement) => element.paused), 'Space to pause it');
  });

  it('issue 28.9: the player playing a downloaded video has no serious violation', async () => {
    const { page } = context.workbench;
    const gallery = await frameWith(page, 'main#gallery .toolbar');
    await gallery.locator('article.card', { hasText: 'A lantern floating' }).locator('button[data-action="open"]').click();
    const player = await frameWith(page, 'video#player');
    await player.locator('#status', { hasText: '320×180' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    const video = player.locator('video#player');
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await waitUntil(() => video.evaluate((element: HTMLVideoElement) => element.currentTime > 0.3), 'the video to play');
    await assertNoSeriousViolations(player, 'player');
  });

  it('issue 27: the player playing a film with its captions has no serious violation', async () => {
    const { page, workspace } = context.workbench;
    await writeMadeFilm(workspace, 'axe-film', 'Film for axe', [
      { clip: 'shot-a', caption: 'The first caption.' },
      { clip: 'shot-b', caption: 'The second caption.' },
      { clip: 'shot-c', caption: 'The third caption.' },
    ]);
    await context.workbench.runCommand('Promptreel: Open Storyboard');
    await context.workbench.pickItem('Film for axe');
    const editor = await frameWith(page, 'main#film #play:not([hidden])', LONG_WAIT);

    await editor.locator('#play').click();
    const player = await frameWith(page, 'video#player > track[kind="captions"]', LONG_WAIT);
    await player.locator('#status', { hasText: 'Film for axe — 320×180' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    const video = player.locator('video#player');
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await waitUntil(
      () =>
        video.evaluate((element: HTMLVideoElement) => Array.from(element.textTracks).some((track) => track.mode === 'showing' && !!track.activeCues?.length)),
      'a caption to show',
    );
    await assertNoSeriousViolations(player, 'player playing a film');
  });
});
