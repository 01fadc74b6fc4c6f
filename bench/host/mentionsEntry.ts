// Loaded by VS Code as `extensionTestsPath`: writes a workspace of 20,000 files (plus 30 files of 1 MB in all), opens
// Promptreel's chat view, builds the mention index, and times VS Code's own findFiles for the queries the driver types.
// Then it adds the 30 files as chips while the driver records the webview's frames, and times assembling the request.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mentionKey } from '../../src/chatPanel/mentions/core/mentionTarget';
import { buildConversationRequest } from '../../src/chatPanel/core/requestBuilder';
import { applyTrims, contextBudget } from '../../src/chatPanel/mentions/core/contextBudget';
import { DEFAULT_CAPABILITIES, resolveCapabilities } from '../../src/chatRequest/capabilities';
import type { ChatSampling } from '../../src/config/chatSampling';
import type { Conversation, Mention } from '../../src/chatPanel/core/model';
import { EXTENSION_ID, writeResult } from './hostResult';
import { CONTEXT_BYTES, CONTEXT_FILES, FILES, QUERIES } from './mentionsBench';

export const PHASE = 'PROMPTREEL_BENCH_PHASE';

interface Host {
  ready: boolean;
  handleMessage(raw: unknown): Promise<void>;
  composerDraft: { mentions: readonly Mention[] };
  conversationId: string;
}

interface ChatFeatureApi {
  view: { reveal(): Promise<Host> };
  store: { get(id: string): Conversation | undefined };
  controller: { defaults(): ChatSampling };
}

async function waitForFile(file: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the bench driver did not signal ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function writeTree(root: string): void {
  const words = ['util', 'view', 'handler', 'api', 'cfg', 'model', 'store', 'index'];
  for (let i = 0; i < FILES; i++) {
    const pkg = `pkg${i % 200}`;
    const feature = `feat${Math.floor(i / 200) % 50}`;
    const dir = path.join(root, 'packages', pkg, i % 3 === 0 ? 'tests' : 'src', feature);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `mod${i}${words[i % words.length]}.ts`), `export const value${i} = ${i};\n`);
  }
  const line = 'export const context = "a line of the context files, for the bench";\n';
  for (let i = 0; i < CONTEXT_FILES; i++) {
    fs.mkdirSync(path.join(root, 'context'), { recursive: true });
    fs.writeFileSync(path.join(root, 'context', `part${i}.ts`), line.repeat(Math.ceil(CONTEXT_BYTES / CONTEXT_FILES / line.length)));
  }
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

export async function run(): Promise<void> {
  const signal = process.env.PROMPTREEL_BENCH_SIGNAL_FILE;
  if (!signal) throw new Error('PROMPTREEL_BENCH_SIGNAL_FILE must be set');
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  writeTree(folder.uri.fsPath);
  // The test handles: the chat panel's code loads on first use, as for a user.
  const api = (await vscode.extensions.getExtension(EXTENSION_ID)?.activate()) as { chat?: { get?(): Promise<ChatFeatureApi> } } | undefined;
  const chat = await api?.chat?.get?.();
  if (typeof chat?.view?.reveal !== 'function') throw new Error('the test API has no chat.view.reveal');
  await vscode.workspace.getConfiguration('promptreel').update('chat.model', 'promptreel-chat', vscode.ConfigurationTarget.Global);
  const host = await chat.view.reveal();
  while (!host.ready) await new Promise((resolve) => setTimeout(resolve, 20));

  // The first query builds the index (findFiles over the whole tree, the .gitignore files, the settings).
  const indexStarted = Date.now();
  await host.handleMessage({ type: 'mentionQuery', requestId: 0, query: 'warm' });
  const firstIndexMs = Date.now() - indexStarted;

  // VS Code's own file search on the same tree, for the prefixes the driver types: the closest it has to a fuzzy
  // search is a substring glob, asked through the same API an extension has.
  const findFilesMs: number[] = [];
  for (const query of QUERIES) {
    for (let length = 1; length <= query.length; length++) {
      const started = performance.now();
      await vscode.workspace.findFiles(`**/*${query.slice(0, length)}*`, undefined, 50);
      findFilesMs.push(performance.now() - started);
    }
  }
  console.log(`${PHASE} typing ${Date.now()}`);
  await waitForFile(`${signal}.typed`);

  // Thirty files (1 MB) as chips, while the driver records the webview's frames.
  const uris = Array.from({ length: CONTEXT_FILES }, (_, i) => vscode.Uri.joinPath(folder.uri, 'context', `part${i}.ts`));
  await waitForFile(`${signal}.armed`);
  const addStarted = performance.now();
  for (const uri of uris) await host.handleMessage({ type: 'addMention', key: mentionKey({ kind: 'file', uri: uri.toString() }) });
  const addMs = performance.now() - addStarted;
  console.log(`${PHASE} added ${Date.now()}`);

  // Assembling the request as a send does: the budget, the cuts, the request built and serialized.
  const conversation = chat.store.get(host.conversationId);
  if (!conversation) throw new Error('no conversation');
  const assembleMs: number[] = [];
  let bodyBytes = 0;
  for (let round = 0; round < 20; round++) {
    const started = performance.now();
    const limits = { model: 'promptreel-chat', contextWindow: DEFAULT_CAPABILITIES.contextWindow, reservedForReply: DEFAULT_CAPABILITIES.maxOutputTokens };
    const budget = contextBudget(limits, conversation, { images: [], mentions: [...host.composerDraft.mentions] }, 'Explain these files.');
    const mentions = applyTrims(host.composerDraft.mentions, budget);
    const draft: Conversation = {
      ...conversation,
      messages: [...conversation.messages, { id: 'u', role: 'user', text: 'Explain these files.', createdAt: 0, mentions }],
    };
    const body = JSON.stringify(
      buildConversationRequest({ conversation: draft, settings: chat.controller.defaults(), capabilities: resolveCapabilities(undefined) }).request,
    );
    assembleMs.push(performance.now() - started);
    bodyBytes = body.length;
  }
  // The floor: the same files read with VS Code's file system API, nothing done with them.
  const readStarted = performance.now();
  await Promise.all(uris.map((uri) => vscode.workspace.fs.readFile(uri)));
  const rawReadMs = performance.now() - readStarted;
  await waitForFile(`${signal}.measured`);
  writeResult({
    files: FILES,
    firstIndexMs,
    findFilesP95Ms: percentile(findFilesMs, 0.95),
    findFilesMedianMs: percentile(findFilesMs, 0.5),
    addChipsMs: addMs,
    chips: host.composerDraft.mentions.length,
    assembleMedianMs: percentile(assembleMs, 0.5),
    assembleP95Ms: percentile(assembleMs, 0.95),
    bodyBytes,
    rawReadMs,
  });
}
