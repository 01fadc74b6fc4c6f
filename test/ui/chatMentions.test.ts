import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { LONG_WAIT, lastReply, lastReplyId, normalize, openChat, waitForNewReply, waitForStatus, waitUntil } from './support/chatPage';
import { viewPane } from './support/views';
import { ALPHA, CHAT_AND_MENTIONS } from './support/sessions';
import { useWorkbench } from './support/workbench';

// Mentions and pasted images as a user drives them in the real workbench: `@` opens the popup, typing narrows it,
// Enter adds the chip, the meter counts it; a screenshot pasted into the prompt box becomes an image chip.

/** A 1×1 PNG. */
const PIXEL_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Dispatches a real `paste` event carrying an image file, as Ctrl+V with a screenshot on the clipboard does. */
async function pasteImage(frame: FrameLocator, name: string): Promise<void> {
  await frame.locator('#prompt').evaluate(
    (input, { base64, fileName }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], fileName, { type: 'image/png' }));
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64: PIXEL_BASE64, fileName: name },
  );
}

describe('chat mentions, pasted images and tools (real VS Code, end to end)', () => {
  const context = useWorkbench(CHAT_AND_MENTIONS);

  it('picks a file from the @ popup: a chip with its size and tokens, the meter, and the text sent', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    const videoHeader = viewPane(page, 'Video Tasks').locator('.pane-header').first();
    if ((await videoHeader.count()) && (await videoHeader.getAttribute('aria-expanded')) === 'true') await videoHeader.click();
    const prompt = frame.locator('#prompt');
    await prompt.click();
    await prompt.pressSequentially('What does @alph');
    const popup = frame.locator('#mention-popup');
    const option = popup.locator('.mention-option', { hasText: 'src/mention/alpha.ts' });
    await option.waitFor({ state: 'visible', timeout: LONG_WAIT });
    // The best match is selected, and the matched letters are drawn in bold.
    assert.equal(await popup.locator('.mention-option[aria-selected="true"] .mention-label').innerText(), 'src/mention/alpha.ts');
    assert.ok((await option.locator('b').count()) > 0, 'matched characters are marked');
    await context.workbench.screenshot('chat-mention-popup');
    await prompt.press('Enter');
    const chip = frame.locator('#draft-mentions .mention-chip', { hasText: 'src/mention/alpha.ts' });
    await chip.waitFor({ state: 'visible', timeout: LONG_WAIT });
    assert.equal(await popup.isVisible(), false, 'the popup closed');
    assert.equal(await prompt.inputValue(), 'What does ', 'the typed @query became the chip');
    const chipTokens = Number(/≈(\d+) tokens/.exec(await chip.innerText())?.[1]);
    assert.match(await chip.innerText(), new RegExp(`${ALPHA.length} B[\\s\\S]*≈\\d+ tokens`));
    // promptreel-chat's 128k window, with at least the chip's tokens counted.
    const meter = frame.locator('#context-meter');
    const counted = async () => Number(/^(\d+) \/ 128k tokens/.exec(await meter.innerText())?.[1] ?? 0);
    await waitUntil(
      async () => (await counted()) >= chipTokens,
      `the meter to count the chip's ${chipTokens} tokens`,
      LONG_WAIT,
      () => meter.innerText(),
    );
    await prompt.pressSequentially('return?');
    await context.workbench.screenshot('chat-mention-chip');
    const previous = await lastReplyId(frame);
    await prompt.press('Enter');
    await waitForNewReply(frame, previous);
    await waitForStatus(frame, 'done');
    const sent = service.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)?.body as { messages: { content: string }[] };
    const text = String(sent.messages.at(-1)?.content);
    assert.ok(text.includes(ALPHA.trim()) && text.endsWith('What does return?'), text);
    // The sent message keeps its chip; a click opens the file.
    await frame.locator('article.message.user').last().locator('.mention-chip-open', { hasText: 'src/mention/alpha.ts' }).click();
    await page.locator('.tab.active', { hasText: 'alpha.ts' }).waitFor({ state: 'visible', timeout: LONG_WAIT });
  });

  it('adds a pasted screenshot as an image of the message for a vision model', async () => {
    const { page, service } = context.workbench;
    const frame = await openChat(page);
    await pasteImage(frame, 'screenshot.png');
    const image = frame.locator('#draft-images .chip', { hasText: 'Image: screenshot.png' });
    await image.waitFor({ state: 'visible', timeout: LONG_WAIT });
    await frame.locator('#prompt').fill('What is in this screenshot?');
    await context.workbench.screenshot('chat-pasted-image');
    const previous = await lastReplyId(frame);
    await frame.locator('#prompt').press('Enter');
    await waitForNewReply(frame, previous);
    await waitForStatus(frame, 'done');
    const sent = service.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)?.body as {
      messages: { content: { type: string; image_url?: { url: string } }[] }[];
    };
    const parts = sent.messages.at(-1)!.content;
    assert.equal(parts.find((part) => part.type === 'image_url')?.image_url?.url, `data:image/png;base64,${PIXEL_BASE64}`);
  });

  it('issue 15.3: reads two files through tools after Allow, each call shown with its arguments and its result', async () => {
    const { page, service } = context.workbench;
    service.setScenario({
      chat: {
        toolScript: [
          [{ name: 'promptreel_read_file', arguments: { path: 'src/mention/alpha.ts' } }],
          [{ name: 'promptreel_read_file', arguments: { path: 'src/mention/beta.ts' } }],
        ],
      },
    });
    const frame = await openChat(page);
    const toolsToggle = frame.locator('#tools-toggle');
    await waitUntil(async () => /^Tools: \d+$/.test(await toolsToggle.innerText()), 'the Tools switch to count the tools offered');
    const previous = await lastReplyId(frame);
    await frame.locator('#prompt').fill('Read alpha.ts and beta.ts, then compare them.');
    await frame.locator('#prompt').press('Enter');
    await waitForNewReply(frame, previous);
    const first = frame.locator('.tool-call[data-state="pending"]').first();
    await first.waitFor({ state: 'visible', timeout: LONG_WAIT });
    assert.match(await first.locator('.tool-call-arguments').innerText(), /"path": "src\/mention\/alpha\.ts"/);
    await first.locator('[data-tool-decision="allow"]').scrollIntoViewIfNeeded();
    await context.workbench.screenshot('chat-tool-approval');
    await first.locator('[data-tool-decision="allow"]').click();
    const second = frame.locator('.tool-call[data-state="pending"]').first();
    await waitUntil(async () => (await second.count()) === 1 && /beta\.ts/.test(await second.innerText()), 'the second call to wait');
    await second.locator('[data-tool-decision="allow"]').click();
    const answerBody = lastReply(frame).locator('.message-body');
    await waitUntil(async () => /Tool results received/.test(await answerBody.innerText()), 'the answer after the tool results');
    await waitForStatus(frame, 'done');
    const answer = normalize(await answerBody.innerText());
    assert.match(answer, /Tool results received \(2\):/);
    assert.match(answer, /src\/mention\/alpha\.ts \(3 lines\):/);
    assert.match(answer, /src\/mention\/beta\.ts \(1 line\):/);
    assert.equal(await frame.locator('.tool-call[data-state="done"]').count(), 2);
    const result = frame.locator('.tool-call[data-state="done"] .tool-call-result').first();
    await result.locator('summary').click();
    assert.match(await result.locator('.tool-call-result-text').innerText(), /alphaMentionTarget/);
    await lastReply(frame).scrollIntoViewIfNeeded();
    await context.workbench.screenshot('chat-tools-two-files');
  });
});
