import type { Locator, Page } from 'playwright-core';
import { runCommand } from './palette';

function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
}

function centerItem(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
}

/** How long a notification is looked for as a toast before the notification center is opened. */
const TOAST_FIRST_MS = 5_000;

/**
 * Waits for a notification containing `text` and returns the notification element: a toast, or an entry of the
 * notification center (while the center is open, new notifications go there; a toast hides after a while or in
 * smoke-driver mode). Looks at both at once; when neither shows it soon, opens the center and waits there.
 */
export async function waitForNotification(page: Page, text: string | RegExp, { timeoutMs = 15_000 } = {}): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  const shown = toast(page, text);
  const listed = centerItem(page, text);
  try {
    await shown
      .or(listed)
      .filter({ visible: true })
      .first()
      .waitFor({ state: 'visible', timeout: Math.min(TOAST_FIRST_MS, timeoutMs) });
    return (await shown.isVisible()) ? shown : listed;
  } catch {
    if (!(await page.locator('.notifications-center .notifications-list-container').isVisible())) await runCommand(page, 'Notifications: Show Notifications');
    await listed.waitFor({ state: 'visible', timeout: Math.max(5_000, deadline - Date.now()) });
    return listed;
  }
}

/** The message text of a notification found by `waitForNotification`. */
export async function notificationMessage(notification: Locator): Promise<string> {
  return notification.locator('.notification-list-item-message').innerText();
}

/** Clicks a button (e.g. "Retry") of the notification containing `text`. */
export async function clickNotificationButton(page: Page, text: string | RegExp, button: string): Promise<void> {
  const notification = await waitForNotification(page, text);
  await notification.getByRole('button', { name: button, exact: true }).click();
}

/** Closes all notifications (the "Clear All Notifications" command). */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
}
