import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { waitForNotification } from './support/notifications';
import { quickInputBox } from './support/palette';
import { SUM, VIDEO_AND_EDITOR } from './support/sessions';
import { useWorkbench } from './support/workbench';

/** The text of the active editor as rendered (only what is on screen, which is all of these small files). */
async function editorText(page: Page): Promise<string> {
  const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line');
  const rendered = await lines.evaluateAll((elements) =>
    elements
      .map((element) => ({ top: parseFloat((element as HTMLElement).style.top || '0'), text: (element.textContent ?? '').replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text),
  );
  return rendered.join('\n');
}

async function waitForEditorText(page: Page, predicate: (text: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    last = await editorText(page);
    if (predicate(last)) return last;
    await page.waitForTimeout(50);
  }
  throw new Error(`timed out waiting for ${what}; the editor shows ${JSON.stringify(last)}`);
}

/**
 * Waits until the editor text stays the same for `quietMs`. After a stop, the text that had already arrived in the
 * extension host is still written (one last edit), and on a loaded machine the workbench renders it a moment later.
 */
async function waitForSettledText(page: Page, quietMs = 1500, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = await editorText(page);
  let since = Date.now();
  while (Date.now() < deadline) {
    await page.waitForTimeout(100);
    const now = await editorText(page);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return now;
    }
  }
  throw new Error(`the editor text kept changing for ${timeoutMs} ms`);
}

/** Presses the key that opens a quick input (Quick Open, Go to Line) until its box shows (a busy workbench may drop it). */
async function openQuickInput(page: Page, key: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    try {
      await quickInputBox(page).waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** Opens a workspace file with Quick Open and puts the cursor at line:column (1-based) with Go to Line. */
async function openAt(page: Page, file: string, line: number, column: number): Promise<void> {
  // A file open in a tab is brought to the front by its tab (Quick Open's Enter does not always switch to it).
  const tab = page.locator('.tab', { hasText: file }).first();
  if (await tab.count()) await tab.click();
  // Enter can land on the list before it is filtered (the recently opened file first): then Quick Open goes again.
  for (let attempt = 1; !(await page.locator('.tab.active', { hasText: file }).count()); attempt++) {
    await openQuickInput(page, 'Control+P');
    await quickInputBox(page).fill(file);
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: file }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.keyboard.press('Enter');
    try {
      await page.locator('.tab.active', { hasText: file }).waitFor({ state: 'visible', timeout: 5_000 });
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').waitFor({ state: 'visible', timeout: 30_000 });
  await openQuickInput(page, 'Control+G');
  await quickInputBox(page).fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await quickInputBox(page).waitFor({ state: 'hidden', timeout: 30_000 });
}

describe('streaming into the editor (Chromium, real workbench)', () => {
  const context = useWorkbench(VIDEO_AND_EDITOR);

  it('Complete at Cursor streams in with a progress notification whose Cancel stops it; Ctrl+Z restores the file', async () => {
    const { page, service } = context.workbench;
    service.setScenario({ chat: { reply: 'return a + b; // '.repeat(30), chunkChars: 2, delayMs: 60 } });
    await openAt(page, 'sum.ts', 2, 3);
    await context.workbench.runCommand('Promptreel: Complete at Cursor');

    const progress = await waitForNotification(page, 'Completing at the cursor', { timeoutMs: 30_000 });
    await waitForEditorText(page, (text) => text.includes('return a + b;'), 'the first streamed text');
    await context.workbench.screenshot('editor-stream-1-completing');
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await service.waitForSocketsClosed(10_000);

    const kept = await waitForSettledText(page);
    const line = kept.split('\n')[1] ?? '';
    assert.match(line, /^ {2}return a \+ b;/, kept);
    await page.waitForTimeout(1000); // the point: nothing written during it
    assert.equal(await editorText(page), kept, 'nothing is written after Cancel');
    assert.ok(line.length < 2 + 'return a + b; // '.length * 30, 'stopped before the end of the reply');

    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+Z');
    // The rendered lines: the last line of a file ending in a line break shows as an empty line.
    await waitForEditorText(page, (text) => text.trimEnd() === SUM.trimEnd(), 'one undo to restore the file', 10_000);
  });

  it('Escape stops a stream started with Ctrl+Alt+Enter', async () => {
    const { page, service } = context.workbench;
    service.reset();
    service.setScenario({ chat: { reply: 'x'.repeat(400), chunkChars: 2, delayMs: 60 } });
    await openAt(page, 'sum.ts', 2, 3);
    await page.keyboard.press('Control+Alt+Enter');
    await waitForEditorText(page, (text) => /x{6}/.test(text), 'the first streamed text');
    await page.keyboard.press('Escape');
    await service.waitForSocketsClosed(10_000);
    const kept = await waitForSettledText(page);
    await page.waitForTimeout(1000); // the point: nothing written during it
    assert.equal(await editorText(page), kept, 'nothing is written after Escape');
    assert.ok((kept.match(/x/g) ?? []).length < 400);
    await page.keyboard.press('Control+Z');
    await waitForEditorText(page, (text) => text.trimEnd() === SUM.trimEnd(), 'one undo to restore the file', 10_000);
  });

  it('Rewrite Selection in diff mode: the proposal streams into a diff, and Accept in its title bar applies it', async () => {
    const { page, service } = context.workbench;
    service.reset();
    service.setScenario({ chat: { reply: 'const b = 2;', chunkChars: 2, delayMs: 30 } });
    await openAt(page, 'vars.ts', 2, 1);
    await page.keyboard.press('Shift+ArrowDown');
    await context.workbench.runCommand('Promptreel: Rewrite Selection');
    await context.workbench.fillInput('Use const');

    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 30_000 });
    // Not the deleted lines a narrow diff editor shows inline, in zones of the modified side.
    const modified = diff.locator('.editor.modified .view-lines:not(.line-delete)');
    await modified.filter({ hasText: 'const b = 2;' }).waitFor({ state: 'visible', timeout: 30_000 });
    const accept = page.locator('.editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Rewrite"]');
    await accept.waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.editor-group-container.active .editor-actions a.action-label[aria-label^="Reject Rewrite"]').waitFor({ state: 'visible' });
    await waitForNotification(page, /The rewrite is ready/, { timeoutMs: 30_000 });
    await page.locator('.notification-toast', { hasText: 'Rewriting the selection' }).waitFor({ state: 'hidden', timeout: 30_000 });
    // A click below the text of the proposal: no tab tooltip over the diff in the screenshot.
    const box = await modified.boundingBox();
    if (box) await page.mouse.click(box.x + box.width / 2, box.y + 300);
    await page
      .locator('.workbench-hover-container')
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => undefined); // only the screenshot's looks depend on it
    await context.workbench.screenshot('editor-stream-2-rewrite-diff');
    await accept.click();

    await diff.waitFor({ state: 'detached', timeout: 30_000 });
    const text = await waitForEditorText(page, (shown) => shown.includes('const b = 2;'), 'the accepted rewrite');
    assert.ok(text.startsWith('const a = 1;\nconst b = 2;\nconsole.log(a + b);'), text);
    assert.ok(!text.includes('let b'), text);
    await context.workbench.screenshot('editor-stream-3-rewrite-accepted');
  });

  it('issue 14.8: a 429 counts down in the progress notification; Retry Now in the status bar sends again', async () => {
    const { page, service } = context.workbench;
    service.reset();
    service.setScenario({
      chat: { reply: 'return a + b;', chunkChars: 4, delayMs: 10 },
      fault: { status: 429, retryAfter: '30', times: 1, path: 'chat/completions' },
    });
    await openAt(page, 'sum.ts', 2, 3);
    await context.workbench.runCommand('Promptreel: Complete at Cursor');

    const progress = await waitForNotification(page, /Rate limited \(HTTP 429\): retrying in \d+ s \(as the service asked; attempt 1 of 3\)/, {
      timeoutMs: 30_000,
    });
    await progress.getByRole('button', { name: 'Cancel' }).waitFor({ state: 'visible' });
    const retryNow = page.locator('.statusbar-item', { hasText: /Retry Now · \d+ s/ }).first();
    await retryNow.waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('editor-stream-4-rate-limited');
    assert.equal(service.requests.filter((request) => request.path === '/v1/chat/completions').length, 1);

    await retryNow.click();
    await waitForEditorText(page, (text) => text.includes('return a + b;'), 'the reply after Retry Now');
    await retryNow.waitFor({ state: 'hidden', timeout: 30_000 });
    assert.equal(service.requests.filter((request) => request.path === '/v1/chat/completions').length, 2);
    await page.keyboard.press('Control+Z');
    await waitForEditorText(page, (text) => text.trimEnd() === SUM.trimEnd(), 'one undo to restore the file', 10_000);
  });
});
