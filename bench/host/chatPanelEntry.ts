// Loaded by VS Code as `extensionTestsPath`: puts a 500-message conversation into Promptreel's chat, opens it in a
// chat panel when the driver says the window has settled, then streams a 5,000-chunk reply into it, then a reply with a
// 298-line code block. The bench's driver measures the webview meanwhile (Playwright);
// the two meet through console lines (entry → driver) and signal files (driver → entry).
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { EXTENSION_ID, writeResult } from './hostResult';

export const PHASE = 'PROMPTREEL_BENCH_PHASE';

/** The parts of the test API this entry uses, checked at run time (the chat feature may still change). */
interface ChatApi {
  store: { create(): { id: string; messages: unknown[] }; changed(id: string, options: { listChanged?: boolean; persist?: 'now' }): void };
  panels: { show(conversationId: string): unknown };
  controller: { send(conversationId: string, input: { text: string }): Promise<{ status?: string; text?: string } | undefined> };
}

/** The part of a panel's ChatSession this entry listens to (checked at run time; `webview` is protected there). */
interface PanelHost {
  onDidPost(listener: (message: { type: string }) => void): { dispose(): void };
  webview?: { onDidReceiveMessage(listener: (message: unknown) => void): { dispose(): void } };
}

/** The chat panel from the test handles: its code loads on first use, as in a user's window. */
async function chatApi(api: unknown): Promise<ChatApi> {
  const lazy = (api as { chat?: { get?: () => Promise<unknown> } } | undefined)?.chat;
  const chat = (typeof lazy?.get === 'function' ? await lazy.get() : undefined) as Partial<Record<keyof ChatApi, Record<string, unknown>>> | undefined;
  const ok =
    typeof chat?.store?.create === 'function' &&
    typeof chat.store.changed === 'function' &&
    typeof chat.panels?.show === 'function' &&
    typeof chat.controller?.send === 'function';
  if (!ok) throw new Error('the test API has no chat.store.create/changed, chat.panels.show or chat.controller.send');
  return chat as unknown as ChatApi;
}

const REPLY = [
  'Here is what the function does, step by step:',
  '',
  '1. It reads the **configuration** and checks the `baseUrl`.',
  '2. It builds the request with `model`, `messages` and `stream: true`.',
  '',
  '```ts',
  'const response = await client.streamChatCompletion(request, signal);',
  'for await (const event of response) render(event);',
  '```',
  '',
  'See [the docs](https://example.invalid/docs) for the details.',
].join('\n');

async function waitForFile(file: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the bench driver did not signal ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function run(): Promise<void> {
  const { PROMPTREEL_BENCH_BASE_URL: baseUrl, PROMPTREEL_BENCH_KEY: key, PROMPTREEL_BENCH_SIGNAL_FILE: signal } = process.env;
  const messages = Number(process.env.PROMPTREEL_BENCH_MESSAGES ?? '500');
  if (!baseUrl || !key || !signal) throw new Error('PROMPTREEL_BENCH_BASE_URL, _KEY and _SIGNAL_FILE must be set');
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = (await extension.activate()) as { connection?: { keyStore?: { store?: (key: string) => Promise<void> } } } | undefined;
  const keyStore = api?.connection?.keyStore;
  if (typeof keyStore?.store !== 'function') throw new Error('the test API has no connection.keyStore.store');
  const chat = await chatApi(api);
  const settings = vscode.workspace.getConfiguration('promptreel');
  await settings.update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
  await keyStore.store(key);
  await settings.update('chat.model', 'promptreel-chat', vscode.ConfigurationTarget.Global);

  const conversation = chat.store.create();
  const now = Date.now();
  for (let i = 0; i < messages / 2; i++) {
    conversation.messages.push({ id: `bench-user-${i}`, role: 'user', text: `Question ${i}: what does \`stream\` do here?`, createdAt: now });
    conversation.messages.push({
      id: `bench-reply-${i}`,
      role: 'assistant',
      model: 'promptreel-chat',
      text: REPLY,
      reasoning: '',
      toolCalls: [],
      status: 'done',
      createdAt: now,
      // As the service reports them: each reply shows its token counts, and the chat its totals.
      usage: { promptTokens: 1_200 + i * 250, completionTokens: 240, totalTokens: 1_440 + i * 250 },
    });
  }
  chat.store.changed(conversation.id, { listChanged: true, persist: 'now' });
  // The panel opens once the driver has seen the window start up and settle (what a user opening a chat meets).
  console.log(`${PHASE} prepared ${Date.now()}`);
  await waitForFile(`${signal}.open`);

  console.log(`${PHASE} render ${Date.now()}`);
  const host = chat.panels.show(conversation.id) as Partial<PanelHost> | undefined;
  console.log(`${PHASE} returned ${Date.now()}`);
  // Where the time to show the conversation goes: when the page said `ready`, when the host posted the snapshot, and
  // its size. Measured after the post, so the measuring does not delay it.
  if (typeof host?.webview?.onDidReceiveMessage === 'function') {
    const received = host.webview.onDidReceiveMessage((message) => {
      if ((message as { type?: unknown } | null)?.type !== 'ready') return;
      received.dispose();
      console.log(`${PHASE} ready ${Date.now()}`);
    });
  }
  if (typeof host?.onDidPost === 'function') {
    const posted = host.onDidPost((message) => {
      if (message.type !== 'snapshot') return;
      posted.dispose();
      const at = Date.now();
      setTimeout(() => console.log(`${PHASE} snapshot ${at} ${JSON.stringify(message).length}`), 0);
    });
  }
  await waitForFile(`${signal}.armed`);

  const started = Date.now();
  console.log(`${PHASE} stream ${started}`);
  const reply = await chat.controller.send(conversation.id, { text: 'Stream a long answer, please.' });
  const ended = Date.now();
  console.log(`${PHASE} streamed ${ended}`);
  // Then a reply that is mostly one long code block (the driver has set the service's pace for it).
  await waitForFile(`${signal}.code`);
  console.log(`${PHASE} code ${Date.now()}`);
  const code = await chat.controller.send(conversation.id, { text: 'Write the whole #longcode file, please.' });
  console.log(`${PHASE} coded ${Date.now()}`);
  await waitForFile(`${signal}.measured`);
  writeResult({
    streamMs: ended - started,
    replyStatus: reply?.status ?? 'none',
    replyCharacters: reply?.text?.length ?? 0,
    codeStatus: code?.status ?? 'none',
  });
}
