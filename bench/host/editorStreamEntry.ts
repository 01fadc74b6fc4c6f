// Loaded by VS Code as `extensionTestsPath`: runs Promptreel's real "Complete at Cursor" on a bulk completion from
// the local service (its own process, started by the bench), and measures it against a raw read of the same stream.
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import * as vscode from 'vscode';
import { EXTENSION_ID, writeResult, type EditorStreamReport } from './hostResult';

const ORIGINAL = 'function sum(a: number, b: number) {\n  \n}\n';
const CURSOR = new vscode.Position(1, 2);

interface Target {
  baseUrl: string;
  key: string;
  repetitions: number;
}

function target(): Target {
  const { PROMPTREEL_BENCH_BASE_URL: baseUrl, PROMPTREEL_BENCH_KEY: key, PROMPTREEL_BENCH_REPETITIONS: repetitions } = process.env;
  if (!baseUrl || !key) throw new Error('PROMPTREEL_BENCH_BASE_URL and PROMPTREEL_BENCH_KEY must be set');
  return { baseUrl, key, repetitions: Number(repetitions ?? '3') };
}

/** The stream's own duration: the same completion read by undici in this process, bytes thrown away. */
async function rawRead({ baseUrl, key }: Target): Promise<number> {
  const started = performance.now();
  const response = await request(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'bench' }], stream: true }),
  });
  for await (const chunk of response.body) void chunk;
  return performance.now() - started;
}

interface StreamResult {
  status: string;
  chunks: number;
  edits: number;
  text: string;
}

function isStreamResult(value: unknown): value is StreamResult {
  const candidate = value as Partial<StreamResult> | null;
  return !!candidate && typeof candidate.status === 'string' && typeof candidate.chunks === 'number' && typeof candidate.edits === 'number' && typeof candidate.text === 'string';
}

async function configure(bench: Target): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = (await extension.activate()) as { keyStore?: { store?: (key: string) => Promise<void> } } | undefined;
  if (typeof api?.keyStore?.store !== 'function') throw new Error('the test API has no keyStore.store');
  const settings = vscode.workspace.getConfiguration('promptreel');
  await settings.update('baseUrl', bench.baseUrl, vscode.ConfigurationTarget.Global);
  await api.keyStore.store(bench.key);
  await settings.update('chat.model', 'promptreel-chat', vscode.ConfigurationTarget.Global);
}

async function once(bench: Target): Promise<EditorStreamReport> {
  const before = await rawRead(bench);
  const document = await vscode.workspace.openTextDocument({ content: ORIGINAL, language: 'typescript' });
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  editor.selection = new vscode.Selection(CURSOR, CURSOR);
  const started = performance.now();
  const result: unknown = await vscode.commands.executeCommand('promptreel.completeAtCursor');
  const commandMs = performance.now() - started;
  if (!isStreamResult(result)) throw new Error(`promptreel.completeAtCursor returned ${JSON.stringify(result)}`);
  const characters = document.getText().length - ORIGINAL.length;
  const after = await rawRead(bench);
  let undoSteps = 0;
  while (document.getText() !== ORIGINAL && undoSteps < 50) {
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('undo');
    undoSteps++;
  }
  const restored = document.getText() === ORIGINAL;
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  return { status: result.status, chunks: result.chunks, characters, edits: result.edits, commandMs, rawStreamMs: [before, after], undoSteps, restored };
}

export async function run(): Promise<void> {
  const bench = target();
  await configure(bench);
  const reports: EditorStreamReport[] = [];
  for (let i = 0; i < bench.repetitions; i++) reports.push(await once(bench));
  writeResult(reports);
}
