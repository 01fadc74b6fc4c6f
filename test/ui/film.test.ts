import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Locator } from 'playwright-core';
import { FILMS_PATH, writeMadeFilm, type MadeFilmShot } from '../service/madeFilm';
import { assertNoSeriousViolations } from './support/axe';
import { LONG_WAIT, openFile, waitUntil } from './support/chatPage';
import { frameWith, runContextMenuItem, treeRow } from './support/views';
import { FILM_AND_PAGES } from './support/sessions';
import { useWorkbench } from './support/workbench';

/** Three clips that join: the film is one MP4 with its .vtt. */
const SHOTS: MadeFilmShot[] = [
  { clip: 'shot-a', caption: 'add() takes two numbers.' },
  { clip: 'shot-b', caption: 'It returns their sum, nothing else.' },
  { clip: 'shot-c', caption: 'greet() wraps a name in a friendly sentence.' },
];

/** The text of the captions shown now: the active cues of the video's showing track. */
function shownCaption(video: Locator): Promise<string> {
  return video.evaluate((element: HTMLVideoElement) => {
    const track = Array.from(element.textTracks).find((candidate) => candidate.mode === 'showing');
    return Array.from(track?.activeCues ?? [])
      .map((cue) => (cue as VTTCue).text)
      .join('\n');
  });
}

// Issue 27's "Done when": the storyboard editor of a film drafted from a selection on the local service, and the player
// playing a made film with a caption on screen (screenshots). The made film is the assembly's output, written into the
// workspace from the service's film clips (shooting is tested in the host tier).
describe('explainer film (storyboard editor, player with captions; issue 27)', () => {
  const context = useWorkbench(FILM_AND_PAGES);
  let editor: FrameLocator;

  it('issue 27: drafts a film of the selection and shows its storyboard with the price, before anything is sent', async () => {
    const { page, service } = context.workbench;
    await openFile(page, 'sample.ts');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+A');
    await context.workbench.runCommand('Promptreel: Generate Explainer Film from Selection');
    editor = await frameWith(page, 'main#film ol.shots', 60_000);
    await editor.locator('ol.shots > li').nth(2).waitFor({ state: 'visible', timeout: LONG_WAIT });
    await editor.locator('#shoot', { hasText: /^Shoot the film for \$\d+\.\d\d$/ }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    assert.equal(await editor.locator('#play').isVisible(), false, 'nothing to play before the film is made');
    assert.equal(service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').length, 0);
    await context.workbench.screenshot('film-storyboard');
    await assertNoSeriousViolations(editor, 'storyboard editor');
  });

  it('issue 27: the storyboard editor comes back after a window reload, with its shots and price', async () => {
    const { page } = context.workbench;
    await context.workbench.runCommand('Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });
    editor = await frameWith(page, 'main#film ol.shots > li:nth-child(3)', 60_000);
    await editor.locator('#shoot', { hasText: /^Shoot the film for \$\d+\.\d\d$/ }).waitFor({ state: 'visible', timeout: LONG_WAIT });
  });

  it('issue 27: the storyboard editor of a made film plays it in the player, its caption shown', async () => {
    const { page, workspace } = context.workbench;
    await writeMadeFilm(workspace, 'sample-explained', 'How sample.ts works', SHOTS);
    await context.workbench.runCommand('Promptreel: Open Storyboard');
    await context.workbench.pickItem('How sample.ts works');
    const made = await frameWith(page, 'main#film #play:not([hidden])', LONG_WAIT);
    await made.locator('.made', { hasText: 'Made into sample-explained.mp4' }).waitFor({ state: 'visible' });
    // The keyboard reaches the button: Play the film by Enter.
    await made.locator('#play').focus();
    await page.keyboard.press('Enter');

    const player = await frameWith(page, 'video#player', LONG_WAIT);
    const video = player.locator('video#player');
    await player.locator('#status', { hasText: 'How sample.ts works — 320×180' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
    assert.equal(await player.locator('video#player > track[kind="captions"][default]').count(), 1, 'the .vtt is the captions track');
    // Into the second shot, then paused there: its caption stays on screen for the screenshot.
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      element.currentTime = 1.4;
    });
    await waitUntil(
      async () => (await shownCaption(video)) === SHOTS[1].caption,
      'the second caption to show',
      LONG_WAIT,
      () => shownCaption(video),
    );
    const first = await video.evaluate(async (element: HTMLVideoElement) => {
      element.currentTime = 0.2;
      await new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
      const track = Array.from(element.textTracks).find((candidate) => candidate.mode === 'showing');
      return Array.from(track?.activeCues ?? []).map((cue) => (cue as VTTCue).text);
    });
    assert.deepEqual(first, [SHOTS[0].caption]);
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.currentTime = 1.6;
      await new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
    });
    await waitUntil(
      async () => (await shownCaption(video)) === SHOTS[1].caption,
      'the second caption to show again',
      LONG_WAIT,
      () => shownCaption(video),
    );
    // Let the caption render before the picture is taken.
    await page.waitForTimeout(300);
    await context.workbench.screenshot('film-player-caption');

    // The explorer offers Play Film and Open Storyboard on a storyboard, not on its playlist or captions.
    await context.workbench.runCommand('View: Close All Editors');
    await page.locator('.tab[aria-label="How sample.ts works"]').waitFor({ state: 'hidden', timeout: LONG_WAIT });
    // The explorer shows `.promptreel/films` as one (compact) row.
    await treeRow(page, /^\.promptreel/).click();
    const storyboard = treeRow(page, /^sample-explained\.json$/);
    await storyboard.waitFor({ state: 'visible', timeout: LONG_WAIT });
    await treeRow(page, /^sample-explained\.vtt$/).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy Path' }).first().waitFor({ state: 'visible', timeout: LONG_WAIT });
    assert.equal(await page.getByRole('menuitem', { name: 'Play Film' }).count(), 0, 'no Play Film on the captions');
    await page.keyboard.press('Escape');
    await runContextMenuItem(storyboard, 'Play Film');
    await (
      await frameWith(page, 'video#player > track[kind="captions"]', LONG_WAIT)
    )
      .locator('#status', { hasText: 'How sample.ts works — 320×180' })
      .waitFor();
  });

  it('issue 27: Explainer Film in the chat panel drafts a film of the selection the panel holds', async () => {
    const { page, workspace } = context.workbench;
    const films = path.join(workspace, ...FILMS_PATH.split('/'));
    const drafts = () => fs.readdirSync(films).filter((name) => /^how-sample-works(-\d+)?\.json$/.test(name));
    const before = drafts().length;
    await openFile(page, 'sample.ts');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+A');
    await context.workbench.runCommand('Promptreel: Ask About Selection');
    const chip = (await frameWith(page, '#draft-context', LONG_WAIT)).locator('#draft-context');
    const film = chip.locator('button', { hasText: 'Explainer Film' });
    await film.waitFor({ state: 'visible', timeout: LONG_WAIT });
    await film.focus();
    await page.keyboard.press('Enter');
    await waitUntil(
      () => drafts().length === before + 1,
      'a second storyboard of the same code',
      LONG_WAIT,
      async () => drafts(),
    );
    await frameWith(page, 'main#film ol.shots', LONG_WAIT);
  });
});
