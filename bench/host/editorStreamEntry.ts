// Loaded by VS Code as `extensionTestsPath`: runs Promptreel's real "Complete at Cursor" on a bulk completion from
// the local service (its own process, started by the bench), and measures it against a raw read of the same stream,
// and against Promptreel's own client reading it with nothing done with the events (the part of the time src/api takes).
import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import * as vscode from 'vscode';
import { EXTENSION_ID, writeResult, type EditorStreamReport } from './hostResult';

const ORIGINAL = 'function sum(a: number, b: number) {\n  \n}\n';
const CURSOR = new vscode.Position(1, 2);
const BODY = { model: 'promptreel-chat', messages: [{ role: 'user' as const, content: 'bench' }] };

interface Target {
  baseUrl: string;
  key: string;
  repetitions: number;
  /** When set, the extension host's CPU profile of the first command goes to this file (a .cpuprofile). */
  profile: string | undefined;
}

function target(): Target {
  const {
    PROMPTREEL_BENCH_BASE_URL: baseUrl,
    PROMPTREEL_BENCH_KEY: key,
    PROMPTREEL_BENCH_REPETITIONS: repetitions,
    PROMPTREEL_BENCH_PROFILE: profile,
  } = process.env;
  if (!baseUrl || !key) throw new Error('PROMPTREEL_BENCH_BASE_URL and PROMPTREEL_BENCH_KEY must be set');
  return { baseUrl, key, repetitions: Number(repetitions ?? '3'), profile: profile || undefined };
}

/** A read's duration from the request's start, and when the response's headers came. */
interface Read {
  ms: number;
  headersMs: number;
}

/** The stream's own duration: the same completion read by undici in this process, bytes thrown away. */
async function rawRead({ baseUrl, key }: Target): Promise<Read> {
  const started = performance.now();
  const response = await request(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...BODY, stream: true }),
  });
  const headersMs = performance.now() - started;
  for await (const chunk of response.body) void chunk;
  return { ms: performance.now() - started, headersMs };
}

interface StreamingClient {
  streamChatCompletion(request: typeof BODY, signal?: AbortSignal): AsyncIterable<{ type: string }>;
}

interface TestApi {
  connection?: {
    keyStore?: { store?: (key: string) => Promise<void> };
    clients?: { get?: () => StreamingClient | undefined };
  };
}

/** The same completion through Promptreel's client (src/api: request, SSE, validation, events), events thrown away. */
async function clientRead(api: TestApi): Promise<number> {
  const client = api.connection?.clients?.get?.();
  if (typeof client?.streamChatCompletion !== 'function') throw new Error('the test API has no connection.clients.get().streamChatCompletion');
  const started = performance.now();
  for await (const event of client.streamChatCompletion(BODY)) void event;
  return performance.now() - started;
}

interface StreamResult {
  status: string;
  chunks: number;
  edits: number;
  text: string;
  timing?: EditorStreamBenchReport['timing'];
}

function isStreamResult(value: unknown): value is StreamResult {
  const candidate = value as Partial<StreamResult> | null;
  return (
    !!candidate &&
    typeof candidate.status === 'string' &&
    typeof candidate.chunks === 'number' &&
    typeof candidate.edits === 'number' &&
    typeof candidate.text === 'string'
  );
}

/** What this entry reports beyond the shared report: where the command's time went, and the client's own read. */
export interface EditorStreamBenchReport extends EditorStreamReport {
  /** Milestones of the command, in ms from its start (as the command reports them). */
  timing?: { request: number; firstText?: number; streamEnd: number; drained: number; finished: number };
  /** The raw reads' time until the response headers came. */
  rawHeadersMs: number[];
  /** The same stream through Promptreel's client, nothing done with the events, before and after. */
  clientStreamMs: number[];
  /** How long the workbench took to settle after the document was shown (not part of the command's time). */
  settleMs: number;
  /** One round trip to the workbench after the run (what an edit costs at least). */
  roundTripMs: number;
}

async function configure(bench: Target): Promise<TestApi> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = (await extension.activate()) as TestApi | undefined;
  const keyStore = api?.connection?.keyStore;
  if (!api || typeof keyStore?.store !== 'function') throw new Error('the test API has no connection.keyStore.store');
  const settings = vscode.workspace.getConfiguration('promptreel');
  await settings.update('baseUrl', bench.baseUrl, vscode.ConfigurationTarget.Global);
  await keyStore.store(bench.key);
  await settings.update('chat.model', 'promptreel-chat', vscode.ConfigurationTarget.Global);
  return api;
}

/** How long one round trip to the workbench (a `setContext`) takes now. */
async function roundTrip(): Promise<number> {
  const started = performance.now();
  await vscode.commands.executeCommand('setContext', 'promptreel.bench.settling', started);
  return performance.now() - started;
}

/**
 * Waits until the workbench is done opening the editor: right after `showTextDocument` it is busy (layout,
 * tokenization, the TypeScript extension starting on the new document) and a round trip to it takes 100–300 ms
 * instead of a few. A user never runs a command within milliseconds of opening a file; the command and the raw read
 * it is compared with are then measured under the same conditions. Returns how long the wait took.
 */
async function settle(): Promise<number> {
  const started = performance.now();
  let quick = 0;
  while (quick < 3 && performance.now() - started < 10_000) quick = (await roundTrip()) < 15 ? quick + 1 : 0;
  return performance.now() - started;
}

/** Runs `body` under the inspector's CPU profiler and writes the profile to `file`. */
async function profiled<T>(file: string, body: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  try {
    return await body();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}

async function once(bench: Target, api: TestApi, profile: string | undefined): Promise<EditorStreamBenchReport> {
  const document = await vscode.workspace.openTextDocument({ content: ORIGINAL, language: 'typescript' });
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  editor.selection = new vscode.Selection(CURSOR, CURSOR);
  const settleMs = await settle();
  const before = await rawRead(bench);
  const clientBefore = await clientRead(api);
  await settle();
  const command = async () => {
    const started = performance.now();
    const result: unknown = await vscode.commands.executeCommand('promptreel.completeAtCursor');
    return { result, commandMs: performance.now() - started };
  };
  const { result, commandMs } = profile ? await profiled(profile, command) : await command();
  if (!isStreamResult(result)) throw new Error(`promptreel.completeAtCursor returned ${JSON.stringify(result)}`);
  const characters = document.getText().length - ORIGINAL.length;
  const after = await rawRead(bench);
  const clientAfter = await clientRead(api);
  let undoSteps = 0;
  while (document.getText() !== ORIGINAL && undoSteps < 50) {
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('undo');
    undoSteps++;
  }
  const restored = document.getText() === ORIGINAL;
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  return {
    status: result.status,
    chunks: result.chunks,
    characters,
    edits: result.edits,
    commandMs,
    rawStreamMs: [before.ms, after.ms],
    rawHeadersMs: [before.headersMs, after.headersMs],
    settleMs,
    roundTripMs: await roundTrip(),
    clientStreamMs: [clientBefore, clientAfter],
    ...(result.timing ? { timing: result.timing } : {}),
    undoSteps,
    restored,
  };
}

export async function run(): Promise<void> {
  const bench = target();
  const api = await configure(bench);
  const reports: EditorStreamBenchReport[] = [];
  for (let i = 0; i < bench.repetitions; i++) reports.push(await once(bench, api, i === 0 ? bench.profile : undefined));
  writeResult(reports);
}
