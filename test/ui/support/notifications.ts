import type { Locator, Page } from 'playwright-core';
import { runCommand } from './palette';

function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
}

function centerItem(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
}

/**
 * Waits for a notification containing `text` and returns the notification element. Looks at the toasts first,
 * then opens the notification center (toasts are hidden in smoke-driver mode or after they time out).
 */
export async function waitForNotification(page: Page, text: string | RegExp, { timeoutMs = 15_000 } = {}): Promise<Locator> {
  const shown = toast(page, text);
  try {
    await shown.waitFor({ state: 'visible', timeout: timeoutMs });
    return shown;
  } catch {
    const listed = centerItem(page, text);
    if (!(await listed.isVisible())) await runCommand(page, 'Notifications: Show Notifications');
    await listed.waitFor({ state: 'visible', timeout: 5_000 });
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
