import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PromptreelTestApi } from '../../../src/extension';
import type { VideoRuntime } from '../../../src/video/videoRuntime';
import type { VideoFile, VideoPlayer } from '../../../src/video/player/videoPlayer';
import type { PlaybackReport } from '../../../src/video/player/protocol';
import type { StoredCreateRequest, VideoTaskRecord } from '../../../src/video/core/videoTaskRecord';
import type { CreateOutcome, VideoApproval } from '../../../src/video/videoCreator';
import type { LocalService } from '../../service';
import { setSetting, testApi } from '../support/extension';
import { connectService, type ServiceScenario } from '../support/connectedService';
import { recordMessages, type RecordedMessage } from '../support/recordMessages';
import { waitFor } from '../support/waitFor';
import { writeWorkspaceFile } from '../support/workspace';

export { setSetting, testApi, waitFor, writeWorkspaceFile };

/** The video scenario: the video model, a short poll interval, and an empty task list before each test and after the block. */
export const VIDEO: ServiceScenario = {
  settings: { 'video.model': 'promptreel-video', 'video.pollIntervalSeconds': 2 },
  prepare: (api) => clearTasks(api),
  teardown: async () => clearTasks(await testApi()),
};

/** What the studio tests change (issue 16): removed after each test. */
const STUDIO_SETTINGS = ['models.capabilities', 'video.maxVariants', 'video.recipes', 'video.seed', 'video.seconds'];

/** The studio's scenario (issue 16), on top of VIDEO: the settings its tests change are removed after each test. */
export const STUDIO: ServiceScenario = {
  cleanup: async () => {
    for (const key of STUDIO_SETTINGS) await setSetting(key, undefined);
  },
};

/** Points the extension at the local service as VIDEO has it (again, in a test that changed it) and returns the test API. */
export function connectVideo(service: LocalService): Promise<PromptreelTestApi> {
  return connectService(service, VIDEO);
}

export async function clearTasks(api: PromptreelTestApi): Promise<void> {
  const runtime = api.video;
  await runtime.store.remove(runtime.store.tasks.map((task) => task.id));
}

export function runtime(api: PromptreelTestApi): VideoRuntime {
  return api.video;
}

/** Drives the real poller: asks for the task now, until `done` holds for its record. */
export async function pollUntil(
  api: PromptreelTestApi,
  id: string,
  done: (task: VideoTaskRecord) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<VideoTaskRecord> {
  return waitFor(
    async () => {
      const task = api.video.store.get(id);
      if (task && done(task)) return task;
      await api.video.poller.pollNow([id]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = api.video.store.get(id);
      return after && done(after) ? after : undefined;
    },
    { what, timeoutMs, intervalMs: 50 },
  );
}

/** Keeps the real poller asking until `done` settles (the tests need not wait for its interval). */
export async function pumping<T>(api: PromptreelTestApi, done: Thenable<T>): Promise<T> {
  let settled = false;
  const finished = Promise.resolve(done).finally(() => (settled = true));
  while (!settled) {
    await api.video.poller.pollNow();
    await Promise.race([finished.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  return finished;
}

export function videoPosts(service: LocalService) {
  return service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos');
}

type ShowInputBox = typeof vscode.window.showInputBox;
type ShowQuickPick = (
  items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
  options?: vscode.QuickPickOptions,
) => Thenable<vscode.QuickPickItem | undefined>;

/** One answer of the scripted quick inputs: type into an input box, or pick the item whose label contains `pick`. */
export type Step = { input: string | ((value: string | undefined) => string) } | { pick: string } | { cancel: true };

export interface QuickInputScript {
  /** Every box or pick the code opened: its title, and the labels offered (picks) or the value it started with (boxes). */
  readonly seen: {
    kind: 'input' | 'pick';
    title?: string;
    value?: string;
    labels?: string[];
    items?: vscode.QuickPickItem[];
    prompt?: string;
    /** A quick pick that filled itself in: its labels when it was shown, and whether it was busy then. */
    first?: { labels: string[]; busy: boolean };
  }[];
  readonly remaining: number;
  restore(): void;
}

/**
 * Replaces `window.showInputBox`, `window.showQuickPick` and `window.createQuickPick` (tests and extension share one
 * `vscode` API object) and answers them in order from `steps`, checking input boxes with their own validator as the
 * real widget does. A quick pick made with `createQuickPick` is answered once it is no longer busy (the review step
 * fills its price in), as a user reads it before pressing Enter.
 */
export function scriptQuickInputs(steps: Step[]): QuickInputScript {
  const window = vscode.window as unknown as {
    showInputBox: ShowInputBox;
    showQuickPick: ShowQuickPick;
    createQuickPick: typeof vscode.window.createQuickPick;
  };
  const originals = { showInputBox: window.showInputBox, showQuickPick: window.showQuickPick, createQuickPick: window.createQuickPick };
  const queue = [...steps];
  const seen: QuickInputScript['seen'] = [];
  const next = (kind: 'input' | 'pick'): Step => {
    const step = queue.shift();
    if (!step) throw new Error(`no scripted answer left for a ${kind}`);
    return step;
  };
  window.showInputBox = async (options?: vscode.InputBoxOptions) => {
    seen.push({ kind: 'input', title: options?.title, value: options?.value, prompt: options?.prompt });
    const step = next('input');
    if ('cancel' in step) return undefined;
    if (!('input' in step)) throw new Error(`expected an input step for "${options?.title}", got ${JSON.stringify(step)}`);
    const answer = typeof step.input === 'function' ? step.input(options?.value) : step.input;
    const problem = await options?.validateInput?.(answer);
    if (problem) throw new Error(`the input box "${options?.title}" refused "${answer}": ${typeof problem === 'string' ? problem : problem.message}`);
    return answer;
  };
  window.showQuickPick = async (items, options) => {
    const list = await items;
    seen.push({ kind: 'pick', title: options?.title, labels: list.map((item) => item.label), items: [...list] });
    const step = next('pick');
    if ('cancel' in step) return undefined;
    if (!('pick' in step)) throw new Error(`expected a pick step for "${options?.title}", got ${JSON.stringify(step)}`);
    const found = list.find((item) => item.label.includes(step.pick));
    if (!found) throw new Error(`no item "${step.pick}" in "${options?.title}": ${list.map((item) => item.label).join(' | ')}`);
    return found;
  };
  window.createQuickPick = <T extends vscode.QuickPickItem>() => scriptedQuickPick<T>(() => next('pick'), seen) as vscode.QuickPick<T>;
  return {
    seen,
    get remaining() {
      return queue.length;
    },
    restore: () => {
      window.showInputBox = originals.showInputBox;
      window.showQuickPick = originals.showQuickPick;
      window.createQuickPick = originals.createQuickPick;
    },
  };
}

/** A stand-in for `createQuickPick`'s widget: on `show()`, waits until it is not busy, then takes the next step. */
function scriptedQuickPick<T extends vscode.QuickPickItem>(nextStep: () => Step, seen: QuickInputScript['seen']): Partial<vscode.QuickPick<T>> {
  const accepted = new vscode.EventEmitter<void>();
  const hidden = new vscode.EventEmitter<void>();
  const unused = new vscode.EventEmitter<never>();
  let shown = false;
  const pick: Partial<vscode.QuickPick<T>> & { items: readonly T[]; selectedItems: readonly T[]; activeItems: readonly T[]; busy: boolean } = {
    items: [],
    selectedItems: [],
    activeItems: [],
    busy: false,
    value: '',
    onDidAccept: accepted.event,
    onDidHide: hidden.event,
    onDidChangeValue: unused.event,
    onDidChangeActive: unused.event,
    onDidChangeSelection: unused.event,
    onDidTriggerButton: unused.event,
    onDidTriggerItemButton: unused.event,
    show: () => {
      if (shown) return;
      shown = true;
      const first = { labels: pick.items.map((item) => item.label), busy: pick.busy };
      void waitFor(() => !pick.busy, { what: `the quick pick "${pick.title}" to finish reading`, timeoutMs: 20_000 }).then(() => {
        seen.push({ kind: 'pick', title: pick.title, labels: pick.items.map((item) => item.label), items: [...pick.items], first });
        const step = nextStep();
        if ('cancel' in step) return hidden.fire();
        if (!('pick' in step)) throw new Error(`expected a pick step for "${pick.title}", got ${JSON.stringify(step)}`);
        const found = pick.items.find((item) => item.label.includes(step.pick));
        if (!found) throw new Error(`no item "${step.pick}" in "${pick.title}": ${pick.items.map((item) => item.label).join(' | ')}`);
        pick.selectedItems = [found];
        accepted.fire();
      });
    },
    hide: () => hidden.fire(),
    dispose: () => {
      accepted.dispose();
      hidden.dispose();
    },
  };
  return pick;
}

/** Generate Video with arguments (as a task's command input or another extension calls it), accepting its review. */
export async function generateReviewed(args: Record<string, unknown>): Promise<CreateOutcome | undefined> {
  const script = scriptQuickInputs([{ pick: 'Generate video' }]);
  try {
    return await vscode.commands.executeCommand<CreateOutcome>('promptreel.generateVideo', args);
  } finally {
    script.restore();
  }
}

/** The user's confirmation of exactly these requests, through the charge gate (as a review or a modal gives it). */
export async function confirmedRequests(api: PromptreelTestApi, ...requests: StoredCreateRequest[]): Promise<VideoApproval> {
  const gate = await api.connection.videoCharges();
  const approval = gate.approve(await gate.quote(requests));
  assert.ok(approval, 'the gate approves a fresh quote');
  return approval;
}

export function assertOk(condition: unknown, message: string): asserts condition {
  assert.ok(condition, message);
}

export { recordMessages };

/** Answers `window.showOpenDialog` with these files (one call each, in order) until restored. */
export function scriptOpenDialogs(answers: (vscode.Uri | undefined)[]): { readonly titles: (string | undefined)[]; restore(): void } {
  const window = vscode.window as unknown as { showOpenDialog: typeof vscode.window.showOpenDialog };
  const original = window.showOpenDialog;
  const titles: (string | undefined)[] = [];
  window.showOpenDialog = async (options) => {
    titles.push(options?.title);
    const answer = answers.shift();
    return answer ? [answer] : undefined;
  };
  return { titles, restore: () => (window.showOpenDialog = original) };
}

/**
 * Runs a command with scripted quick inputs, recording the messages it shows and answering each with `answer` (a
 * modal's button), and checks every scripted step was used.
 */
export async function runScripted<T>(
  steps: Step[],
  command: () => Thenable<T>,
  answer?: (shown: RecordedMessage) => string | undefined,
): Promise<{ result: T; seen: QuickInputScript['seen']; messages: RecordedMessage[] }> {
  const script = scriptQuickInputs(steps);
  const messages = recordMessages(answer);
  try {
    const result = await command();
    assert.equal(script.remaining, 0, 'every scripted step was used');
    return { result, seen: script.seen, messages: messages.shown };
  } finally {
    script.restore();
    messages.restore();
  }
}

/** The player's first report with the video's duration: it has loaded the file (its width and height are known). */
export function playerLoaded(player: VideoPlayer, file: VideoFile, what = 'the player to load the video'): Promise<PlaybackReport> {
  return waitFor(
    () => {
      const report = player.lastReport(file);
      return report && report.duration > 0 ? report : undefined;
    },
    { what, timeoutMs: 20_000 },
  );
}
