import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import { notificationMessage } from './support/notifications';
import { quickInputBox, quickInputMessage } from './support/palette';
import { activityBarItem, openViewContainer, viewPane } from './support/views';
import { useWorkbench } from './support/workbench';

// The whole first-use path as a user takes it: the welcome view, Set API Key in the command palette's password
// box, Test Connection, and a failure with its actions. The key must never show up anywhere on the page.
describe('keys and Test Connection (command palette, end to end)', () => {
  const context = useWorkbench({ name: 'keys' });

  it('loads the workbench with the packaged extension installed: its activity bar item', async () => {
    const { page } = context.workbench;
    await activityBarItem(page, 'Promptreel').waitFor({ state: 'visible', timeout: 30_000 });
    const file = await context.workbench.screenshot('workbench');
    assert.ok(fs.statSync(file).size > 0, `${file} is empty`);
  });

  it('invites to set a key in the empty Promptreel views', async () => {
    const { page } = context.workbench;
    await openViewContainer(page, 'Promptreel');
    await viewPane(page, 'Chat').waitFor({ state: 'visible', timeout: 30_000 });
    // The Chat view is a webview with its own no-key state.
    await context.workbench.webviewFrame().getByRole('button', { name: 'Set API Key' }).waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('keys-1-welcome-without-key');
  });

  it('sets the API key through a password input box that refuses an empty key', async () => {
    const { page, service } = context.workbench;
    await context.workbench.runCommand('Promptreel: Set API Key');
    // The palette closes and the same widget becomes our input box: wait for the password field.
    const input = quickInputBox(page).and(page.locator('[type="password"]'));
    await input.waitFor({ state: 'visible', timeout: 30_000 });

    await input.fill('   ');
    await quickInputMessage(page).filter({ hasText: 'cannot be empty' }).waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.fillInput(service.demoKey);

    const saved = await context.workbench.waitForNotification(/API key saved for http:\/\/127\.0\.0\.1:\d+/);
    assert.match(await notificationMessage(saved), /API key saved/);
    await context.workbench.webviewFrame().locator('#no-key').waitFor({ state: 'hidden', timeout: 30_000 });
    await context.workbench.screenshot('keys-2-key-saved');
  });

  it('tests the connection and reports the models and the answer time', async () => {
    const { page, service } = context.workbench;
    await context.workbench.runCommand('Promptreel: Test Connection');
    const done = await context.workbench.waitForNotification(/Connected to/, { timeoutMs: 30_000 });
    const message = await notificationMessage(done);
    assert.match(message, /Connected to http:\/\/127\.0\.0\.1:\d+ — 3 models; chat model promptreel-chat answered in \d+ ms\./);
    assert.ok(service.requests.some((request) => request.path === '/v1/chat/completions' && request.key === service.demoKey));
    // No model is selected: the status bar names the first chat model the service lists, the one a chat would use.
    await page.locator('.statusbar-item', { hasText: 'promptreel-chat' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    // The key's quota and expiry, read a moment after the key was set (never while VS Code starts).
    const quota = page.locator('.statusbar-item', { hasText: /\$3\.20 left · 1[12] days/ }).first();
    await quota.waitFor({ state: 'visible', timeout: 20_000 });
    await quota.hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: 'Left: $3.20 of $10.00' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('keys-3-connected');
    await page.mouse.move(0, 0);
  });

  it('explains a refused key with actions, and Show Logs never shows the key', async () => {
    const { page, service } = context.workbench;
    service.setScenario({ fault: { status: 401, body: 'openai', code: 'invalid_api_key', type: 'invalid_request_error', message: 'Invalid token' } });
    await context.workbench.runCommand('Promptreel: Test Connection');
    const failed = await context.workbench.waitForNotification(/HTTP 401/, { timeoutMs: 30_000 });
    assert.match(await notificationMessage(failed), /refused the API key \(HTTP 401\)/);
    await failed.getByRole('button', { name: 'Set API Key', exact: true }).waitFor({ state: 'visible' });
    await context.workbench.screenshot('keys-4-refused');
    await failed.getByRole('button', { name: 'Show Logs', exact: true }).click();

    const output = page.locator('.part.panel .monaco-editor .view-lines');
    await output.filter({ hasText: '[doctor]' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('keys-5-logs');
    const pageText = await page.locator('body').innerText();
    assert.ok(!pageText.includes(service.demoKey), 'the key is visible on the page');
  });
});
