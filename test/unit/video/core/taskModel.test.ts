import * as assert from 'node:assert/strict';
import { normalizeVideoTask } from '../../../../src/api/video/normalize';
import {
  applyAnswer,
  contextValue,
  describeTask,
  displayState,
  formatElapsed,
  isPastStaleLimit,
  newRecord,
  shortenPrompt,
  stateOf,
  taskLabel,
} from '../../../../src/video/core/taskModel';
import { bounded, TASKS_KEY, VideoTaskStore } from '../../../../src/video/core/taskStore';
import { parseTaskList, type VideoTaskRecord } from '../../../../src/video/core/videoTaskRecord';
import { completed, MemoryStorage, failedTask, pending, silentLog } from './fakes';

const NOW = Date.UTC(2025, 0, 1, 12);

function record(init: Partial<VideoTaskRecord> = {}): VideoTaskRecord {
  return { id: 'task_1', prompt: 'A paper boat', model: 'promptreel-video', state: 'queued', rawStatus: 'queued', createdAt: NOW, updatedAt: NOW, ...init };
}

describe('video task model', () => {
  it('maps every status of SERVICE.md (through the API normalisation) to a state', () => {
    const cases: [string, string][] = [
      ['unknown', 'queued'],
      ['queued', 'queued'],
      ['NOT_START', 'queued'],
      ['SUBMITTED', 'queued'],
      ['QUEUED', 'queued'],
      ['in_progress', 'running'],
      ['IN_PROGRESS', 'running'],
      ['completed', 'completed'],
      ['SUCCESS', 'completed'],
      ['failed', 'failed'],
      ['FAILURE', 'failed'],
      ['rendering_frames', 'running'],
    ];
    for (const [status, state] of cases) {
      const task = normalizeVideoTask({ id: 'task_1', status });
      assert.ok(task);
      assert.equal(stateOf(task), state, status);
    }
    assert.equal(stateOf(normalizeVideoTask({ task_id: 'x' }) ?? pending('x')), 'queued', 'no status at all: unknown, queued');
  });

  it('builds a record from a created task with its request and source', () => {
    const task = normalizeVideoTask({ id: 'task_1', status: 'queued', progress: 0, created_at: NOW / 1000 - 2 });
    assert.ok(task);
    const made = newRecord(task, {
      service: 'https://gateway.example',
      now: NOW,
      request: { model: 'promptreel-video', prompt: 'A paper boat', seconds: '5', metadata: { seed: 3 } },
      source: { uri: 'file:///w/a.ts', startLine: 1, startCharacter: 0, endLine: 3, endCharacter: 1 },
    });
    assert.equal(made.state, 'queued');
    assert.equal(made.prompt, 'A paper boat');
    assert.equal(made.model, 'promptreel-video');
    assert.equal(made.createdAt, NOW - 2000, 'the service creation time when it is sane');
    assert.equal(made.source?.endLine, 3);
    assert.equal(made.service, 'https://gateway.example');
    assert.equal(newRecord(pending('x'), { service: 'https://gateway.example', now: NOW }).createdAt, NOW);
  });

  it('applies answers: progress, address, failure reason, one transition', () => {
    const running = applyAnswer(record(), pending('task_1', 'in_progress', 50), NOW + 1000);
    assert.equal(running.record.state, 'running');
    assert.equal(running.record.progress, 50);
    assert.equal(running.transition, undefined);
    const done = applyAnswer(running.record, completed('task_1', 'https://cdn/x.mp4'), NOW + 2000);
    assert.equal(done.transition, 'completed');
    assert.equal(done.record.videoUrl, 'https://cdn/x.mp4');
    assert.equal(done.record.finishedAt, NOW + 2000);
    assert.equal(done.record.nextPollAt, undefined);
    assert.equal(applyAnswer(done.record, completed('task_1'), NOW + 3000).transition, undefined, 'no second notification');
    const failed = applyAnswer(record(), failedTask('task_1', 'rejected'), NOW);
    assert.deepEqual([failed.record.state, failed.record.error, failed.transition], ['failed', 'rejected', 'failed']);
    const stale = applyAnswer(record({ state: 'stale' }), pending('task_1'), NOW);
    assert.equal(stale.record.state, 'stale', 'a stale task the service still runs stays stale');
    assert.equal(applyAnswer(record({ state: 'stale' }), completed('task_1'), NOW).record.state, 'completed');
  });

  it('knows when a task is stale', () => {
    assert.equal(isPastStaleLimit(record({ createdAt: NOW - 25 * 3_600_000 }), NOW, 24), true);
    assert.equal(isPastStaleLimit(record({ createdAt: NOW - 23 * 3_600_000 }), NOW, 24), false);
    assert.equal(isPastStaleLimit(record({ createdAt: NOW - 25 * 3_600_000, state: 'completed' }), NOW, 24), false);
  });

  it('describes a task for the tree: context value, label, description', () => {
    assert.equal(contextValue(record({ state: 'running' }), false), 'videoTask:running');
    const request = { model: 'm', prompt: 'p' };
    const source = { uri: 'file:///a.ts', startLine: 0, startCharacter: 0, endLine: 1, endCharacter: 0 };
    const downloaded = record({ state: 'completed', downloadedPath: '/w/videos/a.mp4', request, source });
    assert.equal(contextValue(downloaded, true), 'videoTask:completed:downloaded:source:request');
    assert.equal(contextValue(downloaded, false), 'videoTask:completed:source:request', 'a deleted file is not downloaded');
    assert.equal(displayState(downloaded, true), 'downloaded');
    assert.equal(displayState(downloaded, false), 'completed');

    assert.equal(taskLabel(record({ prompt: undefined })), 'Task task_1');
    assert.equal(shortenPrompt('  A   paper\nboat  '), 'A paper boat');
    const long = shortenPrompt('word '.repeat(40));
    assert.ok(long.length <= 48 && long.endsWith('…'), long);

    assert.equal(describeTask(record({ state: 'running', progress: 50, rawStatus: 'in_progress' }), NOW + 83_000), 'promptreel-video · 50% · 1m 23s');
    assert.equal(
      describeTask(record({ state: 'running', rawStatus: 'RENDERING_FRAMES' }), NOW + 5_000),
      'promptreel-video · 5s · RENDERING_FRAMES',
      'an unknown status is shown raw',
    );
    assert.equal(
      describeTask(record({ state: 'completed', progress: 100, finishedAt: NOW + 7_000 }), NOW + 99_000),
      'promptreel-video · 7s',
      'elapsed stops at the end',
    );
    assert.equal(describeTask(record({ state: 'stale' }), NOW + 25 * 3_600_000), 'promptreel-video · 1d 01h · stale');
    assert.deepEqual([formatElapsed(0), formatElapsed(59_999), formatElapsed(3_600_000 + 120_000)], ['0s', '59s', '1h 02m']);
  });
});

describe('video task store', () => {
  it('persists newest first in globalState and reads it back in a new store (a reload)', async () => {
    const memento = new MemoryStorage();
    const store = new VideoTaskStore(memento, () => 50, silentLog);
    let changes = 0;
    store.onDidChange(() => changes++);
    await store.add(record({ id: 'a' }));
    await store.add(record({ id: 'b', state: 'running' }));
    assert.deepEqual(
      store.tasks.map((task) => task.id),
      ['b', 'a'],
    );
    assert.equal(store.runningCount, 2);
    assert.equal(changes, 2);
    const reloaded = new VideoTaskStore(memento, () => 50, silentLog);
    assert.deepEqual(reloaded.tasks, store.tasks);
    await store.update('a', (task) => ({ ...task, state: 'completed' }));
    assert.equal(store.runningCount, 1);
    assert.equal(await store.remove(['a', 'nope']), 1);
    assert.deepEqual(
      store.tasks.map((task) => task.id),
      ['b'],
    );
  });

  it('sees what another window wrote, and never writes back a stale copy', async () => {
    const memento = new MemoryStorage();
    const here = new VideoTaskStore(memento, () => 50, silentLog);
    const there = new VideoTaskStore(memento, () => 50, silentLog);
    await there.add(record({ id: 'from-there' }));
    assert.equal(here.reload(), true);
    assert.equal(here.reload(), false, 'no change, no event');
    await there.add(record({ id: 'second' }));
    // No reload() here: a write must still start from the freshest state.
    await here.add(record({ id: 'from-here' }));
    assert.deepEqual(
      here.tasks.map((task) => task.id),
      ['from-here', 'second', 'from-there'],
    );
  });

  it("ignores the late echo of its own earlier write, which VS Code's globalState hands back for a moment", async () => {
    const memento = new MemoryStorage();
    const store = new VideoTaskStore(memento, () => 50, silentLog);
    await store.add(record({ id: 'lost-entry', state: 'unconfirmed' }));
    const withEntry = memento.get<unknown>(TASKS_KEY);
    await store.add(record({ id: 'task_real' }));
    await store.remove(['lost-entry']);
    // The storage service echoes the write of a moment ago after the newer one was applied.
    memento.values.set(TASKS_KEY, withEntry);
    assert.equal(store.reload(), false, 'an echo of its own older write is not news');
    assert.deepEqual(
      store.tasks.map((task) => task.id),
      ['task_real'],
    );
    await store.update('task_real', (task) => ({ ...task, state: 'running' }));
    assert.deepEqual(
      store.tasks.map((task) => task.id),
      ['task_real'],
      'no write starts from the echo',
    );
    assert.deepEqual(
      (memento.get<{ id: string }[]>(TASKS_KEY) ?? []).map((task) => task.id),
      ['task_real'],
    );
  });

  it('keeps at most historySize tasks, dropping the oldest finished ones first', async () => {
    const memento = new MemoryStorage();
    let size = 3;
    const store = new VideoTaskStore(memento, () => size, silentLog);
    await store.add(record({ id: 'pending-old', createdAt: NOW - 10 }));
    await store.add(record({ id: 'done-1', state: 'completed' }));
    await store.add(record({ id: 'done-2', state: 'failed' }));
    await store.add(record({ id: 'new' }));
    assert.deepEqual(
      store.tasks.map((task) => task.id),
      ['new', 'done-2', 'pending-old'],
    );
    size = 1;
    await store.trim();
    assert.deepEqual(
      store.tasks.map((task) => task.id),
      ['new'],
    );
    assert.deepEqual(
      bounded([record({ id: 'x' }), record({ id: 'y' })], 1).map((task) => task.id),
      ['x'],
    );
  });

  it('drops stored entries that do not fit the schema', () => {
    const memento = new MemoryStorage();
    memento.values.set(TASKS_KEY, [record({ id: 'ok' }), { id: 3 }, 'junk', record({ id: 'ok' })]);
    const store = new VideoTaskStore(memento, () => 50, silentLog);
    assert.deepEqual(
      store.tasks.map((task) => task.id),
      ['ok'],
    );
    assert.deepEqual(parseTaskList({ not: 'a list' }), { tasks: [], dropped: 1 });
  });
});
