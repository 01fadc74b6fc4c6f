// Loaded by VS Code as `extensionTestsPath` inside the real extension host: activates Promptreel (unless something
// already did) and reports VS Code's own performance marks for it, then lets the host exit.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { PromptreelTestHandles } from '../../src/extension';
import { EXTENSION_ID, writeResult } from './hostResult';

interface Mark {
  name: string;
  startTime: number;
}

/** VS Code's `vs/base/common/performance` keeps its marks here, in the extension host process too. */
function vscodeMarks(): Mark[] {
  const holder = globalThis as { MonacoPerformanceMarks?: { getMarks(): Mark[] } };
  return holder.MonacoPerformanceMarks?.getMarks() ?? [];
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const wasActive = extension.isActive;
  const started = performance.now();
  await extension.activate();
  const activateCallMs = wasActive ? undefined : performance.now() - started;
  const at = (event: string) => vscodeMarks().find((mark) => mark.name === `code/extHost/${event}/${EXTENSION_ID}`)?.startTime;
  const willLoad = at('willLoadExtensionCode');
  const didLoad = at('didLoadExtensionCode');
  const willActivate = at('willActivateExtension');
  const didActivate = at('didActivateExtension');
  // The next window of this profile finds the cache only once this one wrote it (a moment after activation).
  const startup = (extension.exports as PromptreelTestHandles | undefined)?.startup;
  const cacheWritten = startup && startup.codeCache !== 'used' ? await startup.cacheWritten : undefined;
  const span = (from?: number, to?: number) => (from === undefined || to === undefined ? undefined : to - from);
  const report = {
    wasActive,
    activateCallMs,
    loadCodeMs: span(willLoad, didLoad),
    activateMs: span(willActivate, didActivate),
    totalMs: span(willLoad, didActivate),
    codeCache: startup?.codeCache,
    phases: startup?.phases,
    cacheWritten,
    node: process.version,
    vscode: vscode.version,
  };
  writeResult(report);
}
