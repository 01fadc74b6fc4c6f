import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { formatUsd } from '../../src/api/account/prices';
import type { LocalService } from '../service';
import { clearNotifications, waitForNotification } from './support/notifications';
import { openViewContainer, treeRow } from './support/views';
import { paths } from './support/harness';
import { useWorkbench, type Workbench } from './support/workbench';

// VS Code's own Chat view (AI features on, no Copilot account): Promptreel's models in the Language Models
// editor and the model picker, the @promptreel participant, and VS Code's agent answering with a Promptreel model.

const CAPABILITIES = { 'promptreel-chat': { contextWindow: 32_000, maxOutputTokens: 2_000, tools: true, vision: true } };

interface ChatBody {
  model?: string;
  tools?: { function: { name: string } }[];
  messages: { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[];
}

function videoPosts(service: LocalService) {
  return service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos');
}

function chatBodies(service: LocalService): ChatBody[] {
  return service.requests.filter((request) => request.path === '/v1/chat/completions').map((request) => request.body as ChatBody);
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function chatPanel(page: Page): Locator {
  return page.locator('.part.auxiliarybar');
}

/** The last response in the chat view. */
function lastResponse(page: Page): Locator {
  return chatPanel(page).locator('.interactive-item-container.interactive-response').last();
}

/**
 * Focuses the Chat view's input (Open Chat), replaces what is there (the sticky `@promptreel` of the last turn)
 * with `text` and sends it.
 */
async function ask(workbench: Workbench, text: string): Promise<void> {
  const { page } = workbench;
  // A quick input left open would swallow the palette (Escape is not pressed blindly: it clears an editor selection).
  if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
  await workbench.runCommand('Chat: Open Chat');
  const input = chatPanel(page).locator('.interactive-input-part .monaco-editor').first();
  await input.waitFor({ state: 'visible', timeout: 20_000 });
  await chatPanel(page).locator('.interactive-input-part .monaco-editor.focused').first().waitFor({ state: 'attached', timeout: 20_000 });
  await page.keyboard.press('Control+A');
  // The trailing space closes the completion list of `@…` and `/…`, so Enter sends instead of completing.
  await page.keyboard.type(`${text} `, { delay: 10 });
  await waitForText(input, new RegExp(text.replace(/\s+/g, ' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await page.locator('.suggest-widget.visible').waitFor({ state: 'hidden', timeout: 20_000 });
  await page.keyboard.press('Enter');
}

/** Waits until a folder holds a non-empty file, and returns its path. */
async function waitForFile(folder: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(folder) ? fs.readdirSync(folder).map((name) => path.join(folder, name)) : [];
    const done = files.find((file) => fs.statSync(file).isFile() && fs.statSync(file).size > 0 && !file.endsWith('.part'));
    if (done) return done;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no file appeared in ${folder}`);
}

/** Waits until the element's text, with whitespace runs made single spaces, matches. */
async function waitForText(locator: Locator, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = (await locator.innerText().catch(() => '')).replace(/\s+/g, ' ');
    if (pattern.test(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${pattern} in: ${text.slice(0, 500)}`);
}

describe("native VS Code AI: Promptreel in VS Code's own Chat", () => {
  const context = useWorkbench({
    name: 'native-chat',
    settings: {
      'chat.disableAIFeatures': false,
      'promptreel.chat.model': 'promptreel-chat',
      'promptreel.models.capabilities': CAPABILITIES,
      'promptreel.video.model': 'promptreel-video',
      'promptreel.video.pollIntervalSeconds': 2,
    },
    env: (service) => ({ PROMPTREEL_API_KEY: service.demoKey }),
    // Calls the video tool outside any chat, as an extension's own tool loop does (issue 16.1).
    extraExtensions: [path.join(paths.ROOT, 'test', 'ui', 'fixtures', 'promptreel-test.tool-caller-0.0.1')],
  });

  it('lists the Promptreel chat models, with their capabilities, in the Language Models editor', async () => {
    const { page } = context.workbench;
    await context.workbench.runCommand('Chat: Manage Language Models');
    const editor = page.locator('.monaco-workbench').getByText('Language Models', { exact: true }).first();
    await editor.waitFor({ state: 'visible', timeout: 30_000 });
    const chatRow = page.locator('.monaco-list-row, tr', { hasText: 'promptreel-chat' }).first();
    await chatRow.waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.monaco-list-row, tr', { hasText: 'promptreel-reasoner' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const chatText = await chatRow.innerText();
    assert.match(chatText, /32K/, chatText);
    assert.match(chatText, /Vision/, chatText);
    assert.match(chatText, /Tools/, chatText);
    assert.equal(await page.getByText('promptreel-video').count(), 0, 'the video model is not offered for chat');
    await context.workbench.screenshot('native-1-language-models');
    await page.keyboard.press('Escape');
  });

  it('@promptreel answers in the Chat view with streamed Markdown and follow-ups', async () => {
    const { page, service } = context.workbench;
    await ask(context.workbench, '@promptreel show me some #markdown');
    const response = lastResponse(page);
    await response.getByRole('heading', { name: 'Sample heading' }).waitFor({ state: 'visible', timeout: 60_000 });
    await response.locator('table').first().waitFor({ state: 'visible', timeout: 30_000 });
    await chatPanel(page).getByText('Tell me more', { exact: true }).waitFor({ state: 'visible', timeout: 20_000 });
    // Issue 26.2: the answer ends with what it cost, as the key's log charged it (the service publishes one).
    const logged = service.keyLog().find((entry) => entry['model_name'] === 'promptreel-chat');
    assert.ok(logged, 'the service logged the answer');
    const charged = formatUsd(Number(logged['quota']) / 500_000);
    await waitForText(response.locator('.rendered-markdown').last(), new RegExp(`Cost: charged ${charged.replace(/[$.]/g, '\\$&')}\\.`));
    assert.ok(await response.getByRole('heading', { name: 'Sample heading' }).isVisible(), 'the answer stays open above its cost');
    await context.workbench.screenshot('native-2-participant-answer');
    const body = chatBodies(service).pop();
    assert.equal(body?.model, 'promptreel-chat');
    assert.match(String(body?.messages.at(-1)?.content), /show me some #markdown/);
  });

  it('@promptreel /explain explains the editor selection, and a follow-up asks the next question', async () => {
    const { page, service } = context.workbench;
    await page.keyboard.press('Control+P');
    await context.workbench.fillInput('sample.ts', { submit: false });
    await context.workbench.pickItem('sample.ts');
    await page.locator('.monaco-editor .view-lines', { hasText: 'export function add' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    await selectLines2To4(page, context.workbench);

    await ask(context.workbench, '@promptreel /explain');
    const response = lastResponse(page);
    await response
      .getByText(/You said: Explain this code/)
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    // The echoed code is in a code block (an editor): its text is split into tokens.
    await waitForText(response, /export function add\(a: number, b: number\): number \{ return a \+ b; \}/);
    await context.workbench.screenshot('native-3-explain');
    const explained = String(chatBodies(service).pop()?.messages.at(-1)?.content);
    assert.match(explained, /src\/sample\.ts:2-4:\n```typescript\nexport function add/);

    const asked = chatBodies(service).length;
    await chatPanel(page).getByText('What could go wrong?', { exact: true }).click();
    await waitForText(lastResponse(page), /In particular: the edge cases: what could go wrong, and how to guard against it/, 60_000);
    await context.workbench.screenshot('native-3b-explain-followup');
    assert.equal(chatBodies(service).length, asked + 1);
    assert.match(String(chatBodies(service).pop()?.messages.at(-1)?.content), /^Explain this code: .*\n\nIn particular: the edge cases/);
  });

  it('shows what the service refused, with the button that fixes it', async () => {
    const { page, service } = context.workbench;
    service.setScenario({ fault: { status: 401, code: 'invalid_api_key', message: 'Invalid token', path: 'chat' } });
    try {
      await ask(context.workbench, '@promptreel are you there?');
      const response = lastResponse(page);
      await response
        .getByText(/Invalid token/)
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      await response.getByRole('button', { name: 'Set API Key' }).waitFor({ state: 'visible', timeout: 30_000 });
      await context.workbench.screenshot('native-4-refused');
    } finally {
      service.setScenario({ fault: null });
    }
  });

  it('@promptreel /video follows the task to the end, lists it in Video Tasks, and its buttons download and open it', async () => {
    const { page, service } = context.workbench;
    const prompt = 'a paper boat drifting down a rainy street';
    await ask(context.workbench, `@promptreel /video ${prompt}`);
    // First the price and what the key keeps; nothing is sent until the follow-up confirms.
    const confirm = lastResponse(page);
    await confirm
      .getByText(/It costs \$0\.40 · \$2\.80 left after/)
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').length, 0);
    const followup = page.locator('.interactive-followup-reply', { hasText: 'Generate for $0.40' }).last();
    await followup.waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('native-5a-video-price');
    await followup.click();
    const response = lastResponse(page);
    await response
      .getByText(/Video task `?task_/)
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await response.getByText('The video is ready.').waitFor({ state: 'visible', timeout: 90_000 });
    const download = response.getByRole('button', { name: 'Download to Workspace' });
    await download.waitFor({ state: 'visible', timeout: 30_000 });
    await response.getByRole('button', { name: 'Open Video' }).waitFor({ state: 'visible', timeout: 30_000 });
    await context.workbench.screenshot('native-5-video');
    const posts = service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos');
    assert.equal(posts.length, 1);
    assert.deepEqual((posts[0].body as { prompt: string; model: string }).prompt, prompt);

    await openViewContainer(page, 'Promptreel');
    await treeRow(page, /a paper boat drifting/, 'Video Tasks').waitFor({ state: 'visible', timeout: 20_000 });
    await download.click();
    await waitForFile(path.join(context.workbench.workspace, 'videos'), 30_000);
    // "Saved …" comes once the task records its file; its toasts sit over the Chat view's lower half, so they go first.
    await waitForNotification(page, /Saved videos\//, { timeoutMs: 30_000 });
    await clearNotifications(page);
    const open = response.getByRole('button', { name: 'Open Video' });
    await open.scrollIntoViewIfNeeded();
    await open.click();
    await page.locator('.tab', { hasText: /\.mp4/ }).first().waitFor({ state: 'visible', timeout: 20_000 });
    await context.workbench.screenshot('native-6-video-opened');
  });

  it("VS Code's Chat shows a reasoning model's thinking, and a DeepSeek-style model answers three turns without a 400", async () => {
    const { page, service } = context.workbench;
    service.setScenario({ chat: { deepseekReasoning: true, chunkChars: 16, delayMs: 15 } });
    const answered = /You said:|Tool result received:/;
    try {
      await context.workbench.runCommand('Chat: Open Chat');
      await chatPanel(page).locator('.action-label[aria-label^="New Chat"]').first().click();
      const lastRequest = chatPanel(page).locator('.interactive-item-container.interactive-request').last();
      for (const [turn, text] of ['what is a monad', 'shorter please', 'thanks'].entries()) {
        const before = chatBodies(service).length;
        await ask(context.workbench, text);
        await until(async () => chatBodies(service).length > before, 60_000);
        // The list is virtualized: the answer of this turn is the last response, below the last request.
        await until(async () => {
          const request = await lastRequest.boundingBox();
          const response = await lastResponse(page).boundingBox();
          return !!request && !!response && response.y > request.y && answered.test(await lastResponse(page).innerText());
        }, 90_000);
        assert.ok(chatBodies(service).length > before, `turn ${turn + 1} reached the service`);
        assert.doesNotMatch(await lastResponse(page).innerText(), /HTTP 400|reasoning_content/, `turn ${turn + 1} was not refused`);
      }
      // The reasoning is VS Code's thinking, folded with the steps of the turn: open it.
      // The reasoning is VS Code's thinking (its thinking box, folded with the steps of the turn), not the answer.
      const steps = lastResponse(page)
        .getByText(/Completed \d+ steps?/)
        .first();
      if (await steps.isVisible()) await steps.click();
      const thinking = lastResponse(page).locator('.chat-thinking-box', { has: page.locator('.chat-thinking-item', { hasText: /The user wrote|To answer/ }) });
      await thinking.first().waitFor({ state: 'attached', timeout: 20_000 });
      await thinking
        .first()
        .locator('.chat-used-context-label, .monaco-button')
        .first()
        .click()
        .catch(() => undefined);
      assert.doesNotMatch(
        await lastResponse(page)
          .locator('.value > .rendered-markdown')
          .last()
          .innerText()
          .catch(() => ''),
        /The user wrote|To answer/,
      );
      await context.workbench.screenshot('native-8-thinking-three-turns');
      // Every tool-call turn went back with its reasoning (the DeepSeek-style model refuses it otherwise).
      for (const body of chatBodies(service)) {
        for (const message of body.messages) {
          const withReasoning = message as { tool_calls?: unknown[]; reasoning_content?: string };
          if (message.role === 'assistant' && withReasoning.tool_calls?.length)
            assert.ok(withReasoning.reasoning_content, 'a tool-call turn without its reasoning');
        }
      }
    } finally {
      service.setScenario({ chat: { deepseekReasoning: false, chunkChars: 8, delayMs: 0 } });
    }
  });

  it("VS Code's agent answers with a Promptreel model, tool calls included", async () => {
    const { page, service } = context.workbench;
    await chatPanel(page).locator('.action-label[aria-label^="New Chat"]').first().click();
    const before = chatBodies(service).length;
    await ask(context.workbench, 'hello agent');
    const response = lastResponse(page);
    await response
      .getByText(/Tool result received:|You said:/)
      .first()
      .waitFor({ state: 'visible', timeout: 90_000 });
    await context.workbench.screenshot('native-7-agent-with-promptreel-model');

    const bodies = chatBodies(service).slice(before);
    assert.ok(bodies.length >= 1);
    assert.ok(
      bodies.every((body) => body.model === 'promptreel-chat'),
      'every request went to the model picked in the chat',
    );
    assert.ok((bodies[0].tools ?? []).length > 0, 'VS Code offered its tools through the provider');
    // Each tool call the model made was answered with a `tool` message in the next request.
    for (let index = 0; index + 1 < bodies.length; index++) {
      const calls = bodies[index + 1].messages.flatMap((message) => message.tool_calls ?? []).map((call) => call.id);
      const answered = bodies[index + 1].messages.flatMap((message) => (message.role === 'tool' && message.tool_call_id ? [message.tool_call_id] : []));
      assert.deepEqual([...answered].sort(), [...calls].sort());
    }
  });

  it("issue 16.1: VS Code's agent calls Promptreel's video tool only after a confirmation showing the price, and it makes one task", async () => {
    const { page, service, workspace } = context.workbench;
    const prompt = 'a kite rising over a windy beach at sunset';
    service.setScenario({ chat: { toolArguments: { promptreel_generateVideo: { prompt } } } });
    try {
      await context.workbench.runCommand('Chat: Open Chat');
      await chatPanel(page).locator('.action-label[aria-label^="New Chat"]').first().click();
      const asked = chatBodies(service).length;
      const before = videoPosts(service).length;
      await ask(context.workbench, 'make a short video of a kite with promptreel_generateVideo');
      // VS Code 1.139 shows a pending tool confirmation above the chat's input (a hidden copy stays in the response).
      const confirmation = chatPanel(page)
        .locator('.chat-confirmation-widget, .chat-confirmation-widget2')
        .filter({ hasText: 'Generate a video for $0.40?', visible: true })
        .first();
      await confirmation.waitFor({ state: 'visible', timeout: 90_000 });
      await waitForText(confirmation, /Prompt: a kite rising over a windy beach at sunset/);
      await waitForText(confirmation, /Model: promptreel-video/);
      await waitForText(confirmation, /Settings: 5 s · 720p · adaptive · audio on/);
      await waitForText(confirmation, /Price: \$0\.40 · \$\d+\.\d{2} left after/);
      const offered = chatBodies(service)[asked]?.tools?.map((tool) => tool.function.name) ?? [];
      assert.ok(offered.includes('promptreel_generateVideo'), `the agent offers the tool: ${offered.join(', ')}`);
      assert.equal(videoPosts(service).length, before, 'nothing is sent before the confirmation');
      // Not eligible for auto-approval (the contributed default): VS Code says so and offers "Allow Once" only.
      await waitForText(confirmation, /Auto approval for 'promptreel\.promptreel\/promptreelVideo' is restricted via chat\.tools\.eligibleForAutoApproval/);
      await context.workbench.screenshot('native-9-video-tool-confirmation');
      const buttons = confirmation.locator('.monaco-button, .monaco-text-button, [role="button"]');
      assert.equal(await buttons.filter({ hasText: /Always|Session|Workspace/ }).count(), 0, 'no automatic approval is offered');
      await buttons
        .filter({ hasText: /^\s*(Allow Once|Allow|Continue)\s*$/ })
        .first()
        .click();
      // The chat shows the saved file as a link with its name.
      await waitForText(
        lastResponse(page),
        /Tool result received: The video is ready \(task task_\w+\) and saved to .*a-kite-rising-over-a-windy-beach/,
        120_000,
      );
      await context.workbench.screenshot('native-10-video-tool-done');
      const posts = videoPosts(service).slice(before);
      assert.equal(posts.length, 1, 'exactly one POST for the confirmed call');
      assert.equal((posts[0].body as { prompt: string }).prompt, prompt);
      assert.ok(
        fs.readdirSync(path.join(workspace, 'videos')).some((name) => name.startsWith('a-kite-rising')),
        'downloaded into the workspace',
      );
    } finally {
      service.setScenario({ chat: { toolArguments: {} } });
    }
  });

  it('issue 16.1: called outside a chat (a tool loop), VS Code shows the same confirmation as a dialog, and a dismissed one sends nothing', async () => {
    const { page, service } = context.workbench;
    const before = videoPosts(service).length;
    await context.workbench.runCommand('Tool Caller: Generate Video through the Tool');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.getByText('Generate a video for $0.40?').waitFor({ state: 'visible', timeout: 30_000 });
    // The Markdown message as plain text: the prompt, model, settings and price.
    await waitForText(dialog, /Prompt: A lighthouse beam sweeping over a night sea/);
    await waitForText(dialog, /Price: \$0\.40 · \$\d+\.\d{2} left after/);
    await context.workbench.screenshot('native-11-video-tool-dialog-outside-chat');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await context.workbench.waitForNotification(/Tool Caller: the call ended without a result/, { timeoutMs: 15_000 });
    assert.equal(videoPosts(service).length, before, 'no task without the confirmation');
  });
});

/**
 * Selects lines 2–4 of the active editor with Go to Line and Shift+Down, and waits until the status bar shows the
 * selection: keys pressed while the Go to Line box is still closing reach the box, not the editor, so it retries.
 */
async function selectLines2To4(page: Page, workbench: Workbench): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+G');
    await workbench.fillInput(':2');
    await page.locator('.statusbar-item', { hasText: 'Ln 2, Col 1' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
    for (let line = 0; line < 3; line++) await page.keyboard.press('Shift+ArrowDown');
    try {
      await page
        .locator('.statusbar-item', { hasText: /Ln 5, Col 1 \(\d+ selected\)/ })
        .first()
        .waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
