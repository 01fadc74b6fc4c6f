import type { FrameLocator, Locator, Page } from 'playwright-core';

/** The activity bar entry of a view container, by its title (e.g. "Promptreel", "Explorer"). */
export function activityBarItem(page: Page, title: string): Locator {
  return page.locator(`.activitybar .action-item a.action-label[aria-label^="${title}"]`).first();
}

/** Opens a view container from the activity bar (no-op when it is already showing). */
export async function openViewContainer(page: Page, title: string): Promise<void> {
  const item = activityBarItem(page, title);
  await item.waitFor({ state: 'visible', timeout: 30_000 });
  const checked = await item.locator('xpath=..').getAttribute('aria-selected');
  const expanded = await item.getAttribute('aria-expanded');
  if (checked !== 'true' && expanded !== 'true') await item.click();
}

/** A view pane (header + body) in the side bar, by the view's name. */
export function viewPane(page: Page, name: string): Locator {
  return page
    .locator('.pane')
    .filter({ has: page.locator('.pane-header', { hasText: name }) })
    .first();
}

/** Expands a collapsed view pane. */
export async function expandView(page: Page, name: string): Promise<Locator> {
  const pane = viewPane(page, name);
  const header = pane.locator('.pane-header').first();
  await header.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  return pane;
}

/** A row of a tree (in a given view pane, or anywhere in the side bar) whose text contains `label`. */
export function treeRow(page: Page, label: string | RegExp, view?: string): Locator {
  const scope = view ? viewPane(page, view) : page.locator('.part.sidebar');
  return scope.locator('.monaco-list-row', { hasText: label }).first();
}

/** Runs an inline action (hover icon) of a tree row, by the action's title. */
export async function clickRowAction(row: Locator, actionTitle: string): Promise<void> {
  await row.hover();
  await row.locator(`.actions .action-label[aria-label^="${actionTitle}"]`).first().click();
}

/**
 * The content of a webview: the outer iframe.webview (VS Code's host page) contains #active-frame (ours).
 * Hidden webviews stay in the DOM, so the first visible one is taken by default.
 */
export function webviewFrame(page: Page, { nth = 0 } = {}): FrameLocator {
  return page.locator('iframe.webview.ready').filter({ visible: true }).nth(nth).contentFrame().locator('#active-frame').contentFrame();
}

/** The visible webview whose page holds `selector` (other webviews, such as the Chat view, are visible too). */
export async function frameWith(page: Page, selector: string, timeoutMs = 30_000): Promise<FrameLocator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const count = await page.locator('iframe.webview.ready').filter({ visible: true }).count();
    for (let nth = 0; nth < count; nth++) {
      const frame = webviewFrame(page, { nth });
      if (
        (await frame
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return frame;
    }
    if (Date.now() > deadline) throw new Error(`no visible webview holds ${selector} (${count} visible webviews)`);
    await page.waitForTimeout(250);
  }
}

/**
 * Right-clicks a row and runs a context-menu item. A click that lands while the menu is still opening is lost (the
 * menu stays open with the item highlighted): then the item is chosen again, by click and, failing that, Enter.
 */
export async function runContextMenuItem(row: Locator, item: string, { attempts = 3 } = {}): Promise<void> {
  const page = row.page();
  await row.click({ button: 'right' });
  const entry = page.getByRole('menuitem', { name: item });
  await entry.waitFor({ state: 'visible', timeout: 30_000 });
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await entry.hover();
    await (attempt < attempts ? entry.click() : page.keyboard.press('Enter'));
    try {
      await entry.waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch {
      // still open: the click was swallowed
    }
  }
  throw new Error(`the context menu item "${item}" could not be chosen`);
}
