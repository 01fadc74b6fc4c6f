import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'util';
import * as vscode from 'vscode';
import { Settings } from '../../../src/config/settings';
import type { PromptreelTestApi, PromptreelTestHandles } from '../../../src/extension';

export const EXTENSION_ID = 'promptreel.promptreel';

/** Activates the extension and returns the handles `activate()` gives in test mode, with its lazily loaded features loaded. */
export async function testApi(): Promise<PromptreelTestApi> {
  const extension = vscode.extensions.getExtension<PromptreelTestHandles | undefined>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  const handles = await extension.activate();
  assert.ok(handles, 'activate() returns the test handles in test mode');
  const [chat, commands] = await Promise.all([handles.chat.get(), handles.editorStream.commands.get()]);
  return { ...handles, chat, editorStream: { commands, proposals: commands.proposals } };
}

/**
 * Settings of a describe block's own, read from VS Code as the extension reads them, for the objects a test builds
 * itself (the extension's own are behind its features): made before the block's tests, disposed after them.
 */
export function useSettings(): { readonly settings: Settings } {
  let made: Settings | undefined;
  before(async () => {
    made = new Settings((await testApi()).log.logger.forComponent('test'));
  });
  after(() => made?.dispose());
  return {
    get settings(): Settings {
      if (!made) throw new Error("the settings are made before the block's tests");
      return made;
    },
  };
}

export function packageJson(): { contributes: Record<string, unknown> } & Record<string, unknown> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  return extension.packageJSON as { contributes: Record<string, unknown> } & Record<string, unknown>;
}

/** The `promptreel.*` settings written through setSetting since they were last removed, with the last value written. */
const written = new Map<string, unknown>();

/**
 * Writes a `promptreel.*` setting in the user settings (undefined removes it). A value the user settings already hold
 * is not written again: VS Code would rewrite settings.json through the workbench (a few hundred ms each) and report
 * no change.
 */
export async function setSetting(key: string, value: unknown): Promise<void> {
  written.set(key, value);
  const configuration = vscode.workspace.getConfiguration('promptreel');
  if (isDeepStrictEqual(configuration.inspect(key)?.globalValue, value)) return;
  await configuration.update(key, value, vscode.ConfigurationTarget.Global);
}

/** Removes every `promptreel.*` setting written through setSetting and still set: no suite leaves one to the next. */
export async function removeWrittenSettings(): Promise<void> {
  const keys = [...written].flatMap(([key, value]) => (value === undefined ? [] : [key]));
  written.clear();
  for (const key of keys) await vscode.workspace.getConfiguration('promptreel').update(key, undefined, vscode.ConfigurationTarget.Global);
}

type ShowInputBox = typeof vscode.window.showInputBox;

export interface InputBoxStub {
  /** The options of every input box the code under test opened, in order. */
  readonly calls: vscode.InputBoxOptions[];
  restore(): void;
}

/**
 * Replaces `window.showInputBox` for the extension (tests and extension share one `vscode` API object) and answers
 * each box with the next answer, after checking it with the box's own `validateInput` like the real widget does.
 */
export function stubInputBox(answers: (string | undefined)[]): InputBoxStub {
  const window = vscode.window as unknown as { showInputBox: ShowInputBox };
  const original = window.showInputBox;
  const calls: vscode.InputBoxOptions[] = [];
  const queue = [...answers];
  window.showInputBox = async (options?: vscode.InputBoxOptions) => {
    calls.push(options ?? {});
    const answer = queue.shift();
    if (answer !== undefined && options?.validateInput) {
      const problem = await options.validateInput(answer);
      // The real widget does not accept a value its validator refuses: the user can only cancel.
      if (problem) return undefined;
    }
    return answer;
  };
  return { calls, restore: () => (window.showInputBox = original) };
}

/** The text a validator returned, whatever its form. */
export async function validationMessage(options: vscode.InputBoxOptions, value: string): Promise<string | undefined> {
  const result = await options.validateInput?.(value);
  if (result === undefined || result === null) return undefined;
  return typeof result === 'string' ? result : result.message;
}
