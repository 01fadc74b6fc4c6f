import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/api/errors';
import { PollLease } from '../../../../src/video/core/pollLease';
import { VideoTaskStore } from '../../../../src/video/core/taskStore';
import { VideoPoller, type TaskFinished } from '../../../../src/video/core/videoPoller';
import type { VideoTaskRecord } from '../../../../src/video/core/videoTaskRecord';
import { completed, failedTask, FakeClock, MemoryStorage, FakeSource, pending, settle, silentLog } from './fakes';

const BASE_MS = 5_000;

interface Setup {
  clock: FakeClock;
  memento: MemoryStorage;
  store: VideoTaskStore;
  source: FakeSource;
  poller: VideoPoller;
  finished: TaskFinished[];
  view: { visible: boolean };
  settings: { pollIntervalSeconds: number; staleAfterHours: number };
}

const setups: { dispose(): void }[] = [];

function setup(options: { memento?: MemoryStorage; clock?: FakeClock; owner?: string; concurrency?: number; service?: () => string | undefined } = {}): Setup {
  const clock = options.clock ?? new FakeClock();
  const memento = options.memento ?? new MemoryStorage();
  const store = new VideoTaskStore(memento, () => 50, silentLog);
  const source = new FakeSource(clock);
  const view = { visible: true };
  const settings = { pollIntervalSeconds: BASE_MS / 1000, staleAfterHours: 24 };
  const poller = new VideoPoller({
    store,
    source: () => source,
    service: options.service ?? (() => undefined),
    clock,
    lease: new PollLease(memento, options.owner ?? 'window-a'),
    settings: () => settings,
    viewVisible: () => view.visible,
    log: silentLog,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  });
  const finished: TaskFinished[] = [];
  poller.onDidFinishTask((event) => finished.push(event));
  setups.push(poller, store);
  return { clock, memento, store, source, poller, finished, view, settings };
}

function record(id: string, clock: FakeClock, init: Partial<VideoTaskRecord> = {}): VideoTaskRecord {
  const now = clock.now();
  return {
    id,
    prompt: `prompt of ${id}`,
    model: 'promptreel-video',
    state: 'queued',
    rawStatus: 'queued',
    createdAt: now,
    updatedAt: now,
    nextPollAt: now + BASE_MS,
    ...init,
  };
}

/** The gaps between successive requests for one task. */
function gaps(source: FakeSource, id: string): number[] {
  const times = source.calls.filter((call) => call.id === id).map((call) => call.at);
  return times.slice(1).map((time, index) => time - times[index]);
}

describe('video poller (fake clock)', () => {
  afterEach(() => {
    for (const item of setups.splice(0)) item.dispose();
  });

  it('sends no request and sets no timer when nothing is pending', async () => {
    const { clock, store, source, poller } = setup();
    assert.equal(poller.isScheduled, false);
    await clock.advance(60 * 60_000);
    assert.equal(source.calls.length, 0);
    await store.add(record('done', clock, { state: 'completed', rawStatus: 'completed' }));
    await store.add(record('broken', clock, { state: 'failed', rawStatus: 'failed' }));
    await store.add(record('old', clock, { state: 'stale' }));
    await clock.advance(60 * 60_000);
    assert.equal(source.calls.length, 0);
    assert.equal(poller.isScheduled, false);
    assert.equal(clock.pendingTimers, 0);
  });

  it('asks once per pending task per cycle, with one timer', async () => {
    const { clock, store, source } = setup();
    for (const id of ['a', 'b', 'c']) await store.add(record(id, clock));
    await store.add(record('done', clock, { state: 'completed', rawStatus: 'completed' }));
    assert.equal(clock.pendingTimers, 1, 'one timer for every task');
    await clock.advance(BASE_MS - 1);
    assert.equal(source.calls.length, 0, 'nothing before the interval');
    await clock.advance(1);
    assert.deepEqual(source.calls.map((call) => call.id).sort(), ['a', 'b', 'c']);
    await clock.advance(BASE_MS);
    assert.deepEqual(
      ['a', 'b', 'c'].map((id) => source.callsFor(id)),
      [2, 2, 2],
    );
    assert.equal(source.callsFor('done'), 0);
    assert.equal(clock.pendingTimers, 1);
  });

  it('stops the timer when the last task is final, and reports it once', async () => {
    const { clock, store, source, poller, finished } = setup();
    source.script('a', pending('a', 'queued'), pending('a', 'in_progress', 50), completed('a'));
    await store.add(record('a', clock));
    await clock.advance(3 * BASE_MS);
    assert.equal(store.get('a')?.state, 'completed');
    assert.equal(store.get('a')?.videoUrl, 'http://127.0.0.1:1/files/a.mp4');
    assert.equal(poller.isScheduled, false);
    assert.equal(clock.pendingTimers, 0);
    await clock.advance(10 * 60_000);
    assert.equal(source.callsFor('a'), 3);
    assert.deepEqual(
      finished.map((event) => [event.task.id, event.state]),
      [['a', 'completed']],
    );
  });

  it('reports a failure with and without a reason', async () => {
    const { clock, store, source, finished } = setup();
    source.script('a', failedTask('a', 'the prompt was rejected'));
    source.script('b', failedTask('b'));
    await store.add(record('a', clock));
    await store.add(record('b', clock));
    await clock.advance(BASE_MS);
    assert.equal(store.get('a')?.error, 'the prompt was rejected');
    assert.equal(store.get('b')?.state, 'failed');
    assert.equal(store.get('b')?.error, undefined);
    assert.deepEqual(
      finished.map((event) => event.state),
      ['failed', 'failed'],
    );
  });

  it('keeps at most `concurrency` requests in flight and still asks about every due task', async () => {
    const { clock, store, source, poller } = setup({ concurrency: 2 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) await store.add(record(id, clock));
    let open!: () => void;
    source.gate = new Promise((resolve) => (open = resolve));
    await clock.advance(BASE_MS);
    assert.equal(poller.requestsInFlight, 2);
    assert.equal(source.calls.length, 2);
    source.gate = undefined;
    open();
    await settle();
    assert.deepEqual(source.calls.map((call) => call.id).sort(), ['a', 'b', 'c', 'd', 'e']);
  });

  it('issue 28.4: a slow answer holds no other task back: a free slot asks about each task as it falls due', async () => {
    const { clock, store, source } = setup({ concurrency: 2 });
    await store.add(record('slow', clock));
    await store.add(record('fast', clock));
    let answerSlow!: () => void;
    source.gates.set('slow', new Promise((resolve) => (answerSlow = resolve)));
    await clock.advance(BASE_MS);
    const firstAt = clock.now();
    assert.deepEqual(source.calls.map((call) => call.id).sort(), ['fast', 'slow']);
    await clock.advance(2 * BASE_MS);
    assert.deepEqual(
      source.calls.filter((call) => call.id === 'fast').map((call) => call.at - firstAt),
      [0, BASE_MS, 2 * BASE_MS],
      'asked every interval while the slow answer is still out',
    );
    assert.equal(source.callsFor('slow'), 1, 'a task in flight is never asked twice');
    source.gates.delete('slow');
    answerSlow();
    await clock.advance(BASE_MS);
    assert.ok(source.callsFor('slow') >= 2, 'the slow task is asked again once its answer came');
  });

  it('issue 28.4: while due tasks wait for a slot, up to eight requests go out at once, and no more', async () => {
    const { clock, store, source, poller } = setup({ concurrency: 2 });
    const ids = Array.from({ length: 20 }, (_, index) => `t${index}`);
    // Overdue by ten seconds: the window was busy, or the poller is behind.
    for (const id of ids) await store.add(record(id, clock, { nextPollAt: clock.now() - 10_000 }));
    let open!: () => void;
    source.gate = new Promise((resolve) => (open = resolve));
    await clock.advance(0);
    assert.equal(poller.requestsInFlight, 8);
    source.gate = undefined;
    open();
    await settle();
    assert.deepEqual(source.calls.map((call) => call.id).sort(), [...ids].sort(), 'each asked once');
  });

  it('issue 28.4: writes the answers that come together in one store write, and sends the next poll so its answer comes within the interval', async () => {
    const { clock, memento, store, source } = setup({ concurrency: 5 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) await store.add(record(id, clock));
    let answer!: () => void;
    source.gate = new Promise((resolve) => (answer = resolve));
    await clock.advance(BASE_MS);
    const sentAt = clock.now();
    assert.equal(source.calls.length, 5);
    await clock.advance(300); // slow answers
    const writesBefore = memento.writes;
    source.gate = undefined;
    answer();
    await settle();
    assert.equal(memento.writes - writesBefore, 1, 'five answers, one write of the list');
    // The answers took 300 ms: the next request leaves 300 ms before the interval is over, so a completion right after
    // this poll is seen within one interval, not one interval plus the round trip.
    for (const id of ['a', 'b', 'c', 'd', 'e'])
      assert.equal(store.get(id)?.nextPollAt, sentAt + BASE_MS - 300, `${id}: the slow answer did not stretch the interval`);
  });

  it('issue 28.4: an answer slower than half the interval never makes the next request follow at once', async () => {
    const { clock, store, source } = setup({ concurrency: 1 });
    await store.add(record('slow', clock));
    let answer!: () => void;
    source.gate = new Promise((resolve) => (answer = resolve));
    await clock.advance(BASE_MS);
    assert.equal(source.calls.length, 1);
    await clock.advance(4_000);
    const answeredAt = clock.now();
    source.gate = undefined;
    answer();
    await settle();
    assert.equal(store.get('slow')?.nextPollAt, answeredAt + BASE_MS / 2, 'half the interval after the answer');
  });

  it('backs off exponentially as a task gets older, and polls half as often while the view is hidden', async () => {
    const { clock, store, source, view } = setup();
    await store.add(record('a', clock));
    await clock.advance(8 * 60_000);
    const early = gaps(source, 'a');
    assert.equal(early[0], BASE_MS, 'the base interval while the task is young');
    assert.ok(early.includes(2 * BASE_MS), `doubles after a minute: ${early.join()}`);
    assert.ok(early.includes(4 * BASE_MS), `doubles again after five minutes: ${early.join()}`);
    assert.ok(
      early.every((gap, index) => index === 0 || gap >= early[index - 1]),
      `never shrinks: ${early.join()}`,
    );

    const hidden = setup();
    hidden.view.visible = false;
    view.visible = true;
    await hidden.store.add(record('h', hidden.clock));
    await hidden.clock.advance(30_000);
    assert.deepEqual(gaps(hidden.source, 'h'), [2 * BASE_MS, 2 * BASE_MS]);
  });

  it('polls a task older than an hour sixteen times less often, at most every five minutes', async () => {
    const { clock, store, source, settings } = setup();
    await store.add(record('a', clock, { createdAt: clock.now() - 3 * 60 * 60_000, nextPollAt: clock.now() }));
    await clock.advance(30 * 60_000);
    assert.ok(
      gaps(source, 'a').every((gap) => gap === 16 * BASE_MS),
      gaps(source, 'a').join(),
    );

    settings.pollIntervalSeconds = 30;
    await store.add(record('b', clock, { createdAt: clock.now() - 3 * 60 * 60_000, nextPollAt: clock.now() }));
    await clock.advance(30 * 60_000);
    assert.ok(
      gaps(source, 'b').every((gap) => gap === 5 * 60_000),
      gaps(source, 'b').join(),
    );
  });

  it('backs off a task whose polls fail, and recovers when they succeed', async () => {
    const { clock, store, source } = setup();
    const serverError = new ApiError({ kind: 'http', status: 502, message: 'bad gateway', hint: '' });
    source.script('a', serverError, serverError, serverError, pending('a'), pending('a'));
    await store.add(record('a', clock));
    await clock.advance(2 * 60_000);
    const [first, second, third, fourth] = gaps(source, 'a');
    assert.deepEqual([first, second, third], [2 * BASE_MS, 4 * BASE_MS, 8 * BASE_MS]);
    assert.equal(fourth, 2 * BASE_MS, 'after an answer, only the age counts (the task is over a minute old)');
    assert.equal(store.get('a')?.consecutiveErrors, 0);
  });

  it('honours Retry-After: no request for any task before it', async () => {
    const { clock, store, source } = setup({ concurrency: 1 });
    source.script('a', new ApiError({ kind: 'http', status: 429, message: 'slow down', hint: '', retryAfterMs: 40_000 }), pending('a'));
    await store.add(record('b', clock));
    await store.add(record('a', clock));
    await clock.advance(BASE_MS);
    const limitedAt = clock.now();
    await clock.advance(39_999);
    assert.deepEqual(
      source.calls.filter((call) => call.at > limitedAt),
      [],
      'nothing during Retry-After',
    );
    await clock.advance(1);
    assert.ok(
      source.calls.some((call) => call.at === limitedAt + 40_000 && call.id === 'a'),
      'asks again right after it',
    );
  });

  it('marks a task pending past the limit as stale and stops asking about it', async () => {
    const { clock, store, source, poller, settings } = setup();
    settings.staleAfterHours = 1;
    await store.add(record('old', clock, { createdAt: clock.now() - 2 * 60 * 60_000, nextPollAt: clock.now() }));
    await clock.advance(BASE_MS);
    assert.equal(store.get('old')?.state, 'stale');
    assert.equal(source.calls.length, 0);
    assert.equal(poller.isScheduled, false);

    await store.add(record('young', clock, { createdAt: clock.now() - 59 * 60_000 }));
    await clock.advance(2 * 60_000);
    assert.equal(store.get('young')?.state, 'stale', 'becomes stale while being polled');
    const calls = source.callsFor('young');
    await clock.advance(60 * 60_000);
    assert.equal(source.callsFor('young'), calls);
  });

  it('pauses while offline (one probe at a time), and resumes every task on reconnect', async () => {
    const { clock, store, source, poller } = setup();
    const down = new ApiError({ kind: 'network', message: 'ECONNREFUSED', hint: '' });
    let online = false;
    source.fallback = (id) => (online ? pending(id) : down);
    for (const id of ['a', 'b', 'c']) await store.add(record(id, clock));
    await clock.advance(BASE_MS);
    assert.equal(poller.pause, 'offline');
    const before = source.calls.length;
    await clock.advance(2 * 60_000);
    const probes = source.calls.slice(before);
    assert.ok(probes.length >= 2 && probes.length <= 8, `a few probes: ${probes.length}`);
    const probeTimes = probes.map((call) => call.at);
    assert.equal(new Set(probeTimes).size, probeTimes.length, 'one request per probe');
    const probeGaps = probeTimes.slice(1).map((time, index) => time - probeTimes[index]);
    assert.ok(
      probeGaps.every((gap, index) => index === 0 || gap >= probeGaps[index - 1]),
      `probes back off: ${probeGaps.join()}`,
    );

    online = true;
    const reconnectAt = clock.now();
    await clock.advance(60_000);
    assert.equal(poller.pause, undefined);
    const afterReconnect = source.calls.filter((call) => call.at > reconnectAt);
    for (const id of ['a', 'b', 'c'])
      assert.ok(
        afterReconnect.some((call) => call.id === id),
        `${id} polled after the reconnect`,
      );
    assert.equal(store.get('a')?.state, 'running');
  });

  it('pauses when the key is refused, until resume()', async () => {
    const { clock, store, source, poller } = setup();
    let keyOk = false;
    source.fallback = (id) => (keyOk ? completed(id) : new ApiError({ kind: 'http', status: 401, message: 'invalid key', hint: '' }));
    await store.add(record('a', clock));
    await clock.advance(BASE_MS);
    assert.equal(poller.pause, 'auth');
    assert.equal(poller.isScheduled, false);
    await clock.advance(10 * 60_000);
    assert.equal(source.calls.length, 1);
    keyOk = true;
    poller.resume();
    await clock.advance(BASE_MS);
    assert.equal(store.get('a')?.state, 'completed');
  });

  it('issue 11.1: a task is polled only on the service that made it, never failed by another', async () => {
    let current: string | undefined = 'https://b.example';
    const { clock, store, source, finished, poller } = setup({ service: () => current });
    // Service B does not know service A's tasks: asked there, it would answer task_not_exist.
    source.fallback = () => new ApiError({ kind: 'http', status: 404, code: 'task_not_exist', message: 'HTTP 404', hint: '', serverMessage: 'task_not_exist' });
    await store.add(record('on-a', clock, { service: 'https://a.example' }));
    await store.add(record('on-b', clock, { service: 'https://b.example' }));
    await clock.advance(10 * BASE_MS);
    assert.equal(source.callsFor('on-a'), 0, 'never asked on the other service');
    assert.equal(store.get('on-a')?.state, 'queued', 'still pending, not failed');
    assert.equal(store.get('on-b')?.state, 'failed', "B's own unknown task still fails");
    assert.deepEqual(
      finished.map((event) => event.task.id),
      ['on-b'],
    );

    // Back on service A: followed again, to its end.
    current = 'https://a.example';
    source.script('on-a', completed('on-a'));
    poller.resume(); // as the window does when its client changes
    await clock.advance(2 * BASE_MS);
    assert.equal(store.get('on-a')?.state, 'completed');
  });

  it('fails a task the service does not know (task_not_exist)', async () => {
    const { clock, store, source, finished } = setup();
    source.script('gone', new ApiError({ kind: 'http', status: 404, code: 'task_not_exist', message: 'HTTP 404', hint: '', serverMessage: 'task_not_exist' }));
    await store.add(record('gone', clock));
    await clock.advance(BASE_MS);
    assert.equal(store.get('gone')?.state, 'failed');
    assert.match(store.get('gone')?.error ?? '', /does not know this task/);
    assert.equal(finished.length, 1);
  });

  it('keeps an unknown status as pending and remembers it raw', async () => {
    const { clock, store, source } = setup();
    source.script('a', pending('a', 'RENDERING_FRAMES', 30));
    await store.add(record('a', clock));
    await clock.advance(BASE_MS);
    assert.equal(store.get('a')?.state, 'running');
    assert.equal(store.get('a')?.rawStatus, 'RENDERING_FRAMES');
    assert.equal(store.get('a')?.progress, 30);
    await clock.advance(BASE_MS);
    assert.equal(source.callsFor('a'), 2, 'still polled');
  });

  it('lets only one window poll (a lease in globalState), and another take over when it closes', async () => {
    const clock = new FakeClock();
    const memento = new MemoryStorage();
    const first = setup({ memento, clock, owner: 'window-1' });
    const second = setup({ memento, clock, owner: 'window-2' });
    await first.store.add(record('a', clock));
    await clock.advance(60_000);
    const total = first.source.calls.length + second.source.calls.length;
    assert.ok(first.source.calls.length > 0);
    assert.equal(second.source.calls.length, 0, 'the second window only reads');
    assert.ok(total <= 60_000 / BASE_MS + 1, `no double polling: ${total}`);
    second.store.reload();
    assert.equal(second.store.get('a')?.state, 'running', 'the second window sees the results');

    first.poller.dispose();
    await clock.advance(30_000);
    assert.ok(second.source.calls.length > 0, 'the second window takes over');
  });

  it('a reloaded window takes its own lease back at once, though its release never landed; another window waits for it to expire', async () => {
    const clock = new FakeClock();
    const windowState = new MemoryStorage();
    const owner = PollLease.ownerOfWindow(windowState, () => 'window-1');
    assert.equal(
      PollLease.ownerOfWindow(windowState, () => 'window-1-again'),
      owner,
      'a window keeps its name',
    );
    const before = setup({ clock, owner });
    await before.store.add(record('a', clock));
    await clock.advance(BASE_MS);
    assert.equal(before.source.callsFor('a'), 1);
    // The page is reloaded: the extension host goes, and what it wrote last (the lease's release) never lands.
    const leftBehind = new MemoryStorage();
    for (const [key, value] of before.memento.values) leftBehind.values.set(key, value);
    before.poller.dispose();

    const reloaded = setup({ clock, memento: leftBehind, owner: PollLease.ownerOfWindow(windowState, () => 'window-1-new') });
    const other = setup({ clock, memento: leftBehind, owner: PollLease.ownerOfWindow(new MemoryStorage(), () => 'window-2') });
    await clock.advance(BASE_MS);
    assert.equal(reloaded.source.callsFor('a'), 1, 'polled again within one interval of the reload');
    assert.equal(other.source.callsFor('a'), 0, 'a window of its own only reads');
  });

  it('aborts its requests when disposed, and a new poller over the same state finishes the task', async () => {
    const clock = new FakeClock();
    const memento = new MemoryStorage();
    const first = setup({ memento, clock });
    await first.store.add(record('a', clock));
    first.source.gate = new Promise(() => undefined);
    await clock.advance(BASE_MS);
    assert.equal(first.poller.requestsInFlight, 1);
    first.poller.dispose();
    first.store.dispose();
    await settle();
    assert.equal(first.source.aborted, 1, 'the request in flight was aborted');
    assert.equal(clock.pendingTimers, 0, 'no timer left behind');

    const second = setup({ memento, clock });
    second.source.script('a', completed('a'));
    assert.equal(second.store.get('a')?.state, 'queued', 'the task survived the reload');
    await clock.advance(BASE_MS);
    assert.equal(second.store.get('a')?.state, 'completed');
    assert.equal(second.finished.length, 1);
  });

  it('pollNow asks at once, and a stale task can be refreshed by hand', async () => {
    const { clock, store, source, poller } = setup();
    await store.add(record('a', clock, { nextPollAt: clock.now() + 60_000 }));
    await store.add(record('s', clock, { state: 'stale' }));
    await poller.pollNow(['a']);
    await clock.advance(0);
    assert.equal(source.callsFor('a'), 1);
    source.script('s', completed('s'));
    await poller.pollNow(['s']);
    assert.equal(store.get('s')?.state, 'completed');
  });
});
