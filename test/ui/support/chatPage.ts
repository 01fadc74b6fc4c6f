import type { FrameLocator, Locator, Page } from 'playwright-core';
import { fillInput, pickItem } from './palette';
import { activityBarItem, openViewContainer } from './views';

// The chat page as UI tests drive it: open it, send a message, wait for replies.

export const LONG_WAIT = 30_000;

export function normalize(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

/** Shows the Promptreel container, also when the side bar itself is hidden (clicking its selected entry shows it). */
export async function showPromptreelSideBar(page: Page): Promise<void> {
  await openViewContainer(page, 'Promptreel');
  const sideBar = page.locator('.part.sidebar');
  // The side bar can take a moment to appear after the click (longer right after a reload): a second click too early
  // would hide it again, so click once more only when it still is not there after a wait.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await sideBar.waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch {
      await activityBarItem(page, 'Promptreel').click();
    }
  }
  await sideBar.waitFor({ state: 'visible', timeout: LONG_WAIT });
}

/** The chat webview in the side bar (the first visible webview while no chat panel is open). */
export function chatFrame(page: Page, nth = 0): FrameLocator {
  return page.locator('iframe.webview.ready').filter({ visible: true }).nth(nth).contentFrame().locator('#active-frame').contentFrame();
}

export async function openChat(page: Page): Promise<FrameLocator> {
  await showPromptreelSideBar(page);
  const frame = chatFrame(page);
  await frame.locator('#prompt').waitFor({ state: 'visible', timeout: LONG_WAIT });
  return frame;
}

/** Polls `probe`; after `timeoutMs` fails saying what was awaited and, with `shown`, what there was instead. */
export async function waitUntil(probe: () => Promise<boolean> | boolean, what: string, timeoutMs = LONG_WAIT, shown?: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) {
      const came = shown ? `; instead: ${JSON.stringify(await shown().catch((error: unknown) => String(error)))}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${came}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Scrolls the chat's list up a screen at a time until `target` is in the page: a long chat has only the messages near
 * the view in it.
 */
export async function scrollUpTo(frame: FrameLocator, target: Locator): Promise<void> {
  await waitUntil(
    async () => {
      if ((await target.count()) > 0) return true;
      await frame.locator('#messages').evaluate(
        (list) =>
          new Promise<void>((resolve) => {
            list.scrollTop -= list.clientHeight;
            requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
          }),
      );
      return (await target.count()) > 0;
    },
    'the message to come into the page as the chat scrolls up',
    LONG_WAIT,
    () =>
      frame.locator('#messages').evaluate((list) => ({
        scrollTop: list.scrollTop,
        scrollHeight: list.scrollHeight,
        clientHeight: list.clientHeight,
        children: Array.from(list.children).map((child) =>
          child.classList.contains('message-spacer') ? (child as HTMLElement).style.height : (child.textContent ?? '').replace(/\s+/g, ' ').slice(0, 40),
        ),
      })),
  );
}

/** Scrolls the chat's list to its end (it may have been left anywhere: a page loaded anew comes back where it was). */
export async function scrollToEnd(frame: FrameLocator): Promise<void> {
  await waitUntil(
    () =>
      frame.locator('#messages').evaluate(
        (list) =>
          new Promise<boolean>((resolve) => {
            list.scrollTop = list.scrollHeight;
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(list.scrollHeight - list.scrollTop - list.clientHeight < 2)));
          }),
      ),
    "the chat's list at its end",
  );
}

/** The last reply of the conversation shown. */
export function lastReply(frame: FrameLocator) {
  return frame.locator('article.message.assistant').last();
}

/** The id of the last reply (a new reply, or a regenerated one, has a new id). */
export async function lastReplyId(frame: FrameLocator): Promise<string | null> {
  return (await frame.locator('article.message.assistant').count()) ? lastReply(frame).getAttribute('data-message-id') : null;
}

/** Waits for a reply newer than `previousId` to appear. */
export async function waitForNewReply(frame: FrameLocator, previousId: string | null): Promise<void> {
  await waitUntil(
    async () => {
      const id = await lastReplyId(frame);
      return id !== null && id !== previousId;
    },
    `a reply newer than ${previousId ?? 'none'}`,
    LONG_WAIT,
    () => lastReplyId(frame),
  );
}

export async function waitForStatus(frame: FrameLocator, status: string, timeout = LONG_WAIT): Promise<void> {
  const shown = () => lastReply(frame).getAttribute('data-status');
  await waitUntil(async () => (await shown()) === status, `the last reply to be ${status}`, timeout, shown);
}

/** Types a message, sends it with Enter, and waits until its reply has appeared. */
export async function send(frame: FrameLocator, text: string): Promise<void> {
  const previous = await lastReplyId(frame);
  const prompt = frame.locator('#prompt');
  await prompt.fill(text);
  await prompt.press('Enter');
  await waitForNewReply(frame, previous);
}

/** Opens a workspace file with Quick Open (waiting for the result before accepting it). */
export async function openFile(page: Page, name: string): Promise<void> {
  // The palette without its ">" is Quick Open.
  await page.keyboard.press('F1');
  await fillInput(page, name, { submit: false });
  await pickItem(page, name);
  await page.locator('.tab.active', { hasText: name }).waitFor({ state: 'visible', timeout: LONG_WAIT });
}
