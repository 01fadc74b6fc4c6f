import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import { openChat, send, waitForStatus, waitUntil } from './support/chatPage';
import { frameWith } from './support/views';
import { USAGE_AND_LONG_CHAT } from './support/sessions';
import { useWorkbench } from './support/workbench';

const DAY_S = 86_400;

// Promptreel: Show Usage as a user opens it: the service's log of the key (charges from elsewhere over the last weeks,
// and a reply sent here from the chat view), drawn as a chart per day and per model, with the last requests below.
describe('usage view (issue 26.3, end to end)', () => {
  const context = useWorkbench(USAGE_AND_LONG_CHAT);

  it('issue 26.3: Show Usage draws the spend per day and per model from the key’s log, and marks the reply sent here', async () => {
    const { page, service } = context.workbench;
    // Charges from the web console and another machine over the last 3 weeks (deterministic: day, model, quota).
    const now = Math.floor(Date.now() / 1000);
    const charges: [number, string, number, number, number][] = [
      [20, 'promptreel-video', 200_000, 0, 0],
      [17, 'promptreel-chat', 90_000, 12_000, 3_500],
      [13, 'promptreel-reasoner', 400_000, 8_000, 9_000],
      [13, 'promptreel-video', 200_000, 0, 0],
      [9, 'promptreel-chat', 150_000, 20_000, 6_000],
      [6, 'promptreel-video', 400_000, 0, 0],
      [4, 'promptreel-reasoner', 250_000, 5_000, 5_500],
      [2, 'promptreel-chat', 60_000, 9_000, 1_800],
      [1, 'promptreel-video', 200_000, 0, 0],
      [0, 'promptreel-chat', 40_000, 6_000, 1_200],
    ];
    for (const [daysAgo, model, quota, promptTokens, completionTokens] of charges)
      service.addLogEntry({
        created_at: now - daysAgo * DAY_S - 600,
        model_name: model,
        quota,
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        use_time: model === 'promptreel-video' ? 4 : 2,
        is_stream: model !== 'promptreel-video',
      });

    const chat = await openChat(page);
    await send(chat, 'How much did that cost?');
    await waitForStatus(chat, 'done');

    await context.workbench.runCommand('Promptreel: Show Usage');
    const usage = await frameWith(page, 'main#usage .daily-chart');
    await usage.getByText("From the service's log of the key.").waitFor({ state: 'visible' });
    const mine = usage.locator('table.requests tbody tr[data-mine="true"]');
    await mine.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await mine.count(), 1, 'the one reply sent here');
    assert.equal(await mine.locator('.badge').textContent(), 'This machine');
    const rows = usage.locator('table.requests tbody tr');
    await waitUntil(
      async () => (await rows.count()) === charges.length + 1,
      'every request of the log in the table',
      30_000,
      () => rows.count(),
    );

    const daysWithBars = usage.locator('.daily-chart g.day:has(rect.bar)');
    assert.equal(await daysWithBars.count(), new Set(charges.map(([daysAgo]) => daysAgo)).size, 'a bar for each day with a charge');
    assert.equal(await usage.locator('.daily-chart g.day').count(), 30);
    const today = usage.locator('.daily-chart g.day').last();
    assert.match((await today.getAttribute('aria-label')) ?? '', /\$\d+\.\d+ \(.*promptreel-chat/);
    assert.equal(await today.locator('rect.bar').count(), 1, "today: promptreel-chat only (the log's and this reply)");
    assert.deepEqual(await usage.locator('.model-chart li').evaluateAll((items) => items.map((item) => item.getAttribute('data-model'))), [
      'promptreel-video',
      'promptreel-reasoner',
      'promptreel-chat',
    ]);
    await usage.locator('.budget[data-period="day"]').waitFor({ state: 'visible' });
    const file = await context.workbench.screenshot('usage-view');
    assert.ok(fs.statSync(file).size > 0, `${file} is empty`);
  });
});
