import type { Locator, Page } from 'playwright-core';

const QUICK_INPUT = '.quick-input-widget';

export function quickInputBox(page: Page): Locator {
  return page.locator(`${QUICK_INPUT} input.input`);
}

export function quickInputRows(page: Page): Locator {
  return page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The quick-input row whose label is exactly `label` (rows for longer titles that start the same are skipped). */
export function quickInputRow(page: Page, label: string): Locator {
  const exact = new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`);
  return quickInputRows(page)
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first();
}

/** The modal of VS Code's chat set-up offering to sign in to GitHub Copilot. */
function copilotSignInDialog(page: Page): Locator {
  return page.locator('.monaco-dialog-box', { hasText: 'Sign in to use GitHub Copilot' });
}

/**
 * Runs a command by its palette title (with category, e.g. "Promptreel: Open Chat").
 * The palette snapshots the command list when it opens, so a command registered a moment later is missing:
 * close and reopen until the row shows up.
 */
export async function runCommand(page: Page, title: string, { attempts = 8, rowTimeoutMs = 4000 } = {}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const input = quickInputBox(page);
    const signIn = copilotSignInDialog(page);
    await input.or(signIn).filter({ visible: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    if (await signIn.isVisible()) {
      // VS Code asks a user without a Copilot account to sign in when a chat starts; Promptreel's models need none.
      await page.keyboard.press('Escape');
      await signIn.waitFor({ state: 'hidden', timeout: 30_000 });
      if (attempt >= attempts) throw new Error(`command "${title}": the Copilot sign-in dialog came back ${attempts} times`);
      continue;
    }
    const row = quickInputRow(page, title);
    try {
      // The palette closes when something else takes the focus just after it opened (a view focusing its input):
      // then it is opened again.
      await input.fill(`>${title}`, { timeout: 5_000 });
      await row.waitFor({ state: 'visible', timeout: rowTimeoutMs });
      // A modal that opened meanwhile (the Copilot sign-in) takes the click: then the palette is opened again.
      await row.click({ timeout: 5_000 });
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (attempt >= attempts) throw new Error(`command "${title}" not found in the palette after ${attempts} tries: ${String(error)}`);
    }
  }
}

/** Types into the open quick input (input box or quick pick filter); presses Enter unless `submit` is false. */
export async function fillInput(page: Page, text: string, { submit = true, timeoutMs = 30_000 } = {}): Promise<void> {
  const input = quickInputBox(page);
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(text);
  if (submit) await input.press('Enter');
}

/**
 * Picks the quick-pick item labelled `label` (exact label; falls back to a row containing the text). The deadline
 * only bounds a failure: Quick Open's first file search took over 10 s with the other tier running beside it.
 */
export async function pickItem(page: Page, label: string, { timeoutMs = 30_000 } = {}): Promise<void> {
  const exact = quickInputRow(page, label);
  const loose = quickInputRows(page).filter({ hasText: label }).first();
  const row = exact.or(loose).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click();
}

/** The validation or info message under the quick input box, e.g. an input box's validation error. */
export function quickInputMessage(page: Page): Locator {
  return page.locator(`${QUICK_INPUT} .quick-input-message`);
}
