import { performance } from 'node:perf_hooks';
import { PromptreelClient, normalizeVideoTask, silentLogger, type VideoTask } from '../../src/api';
import { PollLease } from '../../src/video/core/pollLease';
import { systemClock, type Clock } from '../../src/common/clock';
import { newRecord } from '../../src/video/core/taskModel';
import { TASKS_KEY, VideoTaskStore } from '../../src/video/core/taskStore';
import { MemoryStorage } from '../../test/fakes/memoryStorage';
import { VideoPoller, type VideoTaskSource } from '../../src/video/core/videoPoller';
import type { ResultRow } from '../report/row';
import { median, quantile } from '../report/stats';
import { ServiceControl } from '../support/control';
import type { BenchContext, BenchPart } from './part';

const PART = '4 poller';
const TASKS = 500;
const INTERVAL_SECONDS = 2; // the smallest promptreel.video.pollIntervalSeconds allows

/**
 * Part 4: the extension's real VideoPoller (plain Node: it has no `vscode` import), with the real client, store and
 * lease, and the real clock, over 500 pending tasks on the local service. Counts what reaches the service.
 */
export const pollerPart: BenchPart = {
  id: 'poller',
  title: 'Poller over 500 pending tasks',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const service = await context.service();
    await service.reset();
    // Tasks stay running until the bench completes them through the control API.
    await service.setScenario({ video: { pollsToRunning: 0, pollsToDone: 1_000_000, durationMs: null } });
    const control = new ServiceControl(service.baseUrl);
    const now = Date.now();
    const records = [];
    for (let i = 0; i < TASKS; i++) {
      const task = normalizeVideoTask(await control.createTask());
      if (!task) throw new Error('the local service made a task normalizeVideoTask does not read');
      records.push(newRecord(task, { service: service.baseUrl, now }));
    }
    const memento = new MemoryStorage();
    await memento.update(TASKS_KEY, records);
    const store = new VideoTaskStore(memento, () => 1000, silentLogger);
    const client = new PromptreelClient({ baseUrl: service.baseUrl, apiKey: () => service.key, retry: { retries: 0 } });
    const calls: { id: string; at: number }[] = [];
    const source: VideoTaskSource = {
      getVideoTask: (id: string, signal?: AbortSignal): Promise<VideoTask> => {
        calls.push({ id, at: performance.now() });
        return client.getVideoTask(id, signal);
      },
    };
    let timersSet = 0;
    const ticks: number[] = [];
    const clock: Clock = {
      now: systemClock.now,
      setTimeout: (callback, delayMs) => {
        timersSet++;
        return systemClock.setTimeout(() => {
          ticks.push(performance.now());
          callback();
        }, delayMs);
      },
    };
    const finishedAt = new Map<string, number>();
    const poller = new VideoPoller({
      store,
      source: () => source,
      service: () => service.baseUrl,
      clock,
      lease: new PollLease(memento, 'bench'),
      settings: () => ({ pollIntervalSeconds: INTERVAL_SECONDS, staleAfterHours: 24 }),
      viewVisible: () => true,
      log: silentLogger,
    });
    poller.onDidFinishTask(({ task }) => finishedAt.set(task.id, performance.now()));
    try {
      // 1. Steady state: every task pending; after one warm-up interval, count requests per task per interval.
      const steadySeconds = context.quick ? 6 : 12;
      await sleep(INTERVAL_SECONDS * 1000);
      const windowStart = performance.now();
      const serviceBefore = (await control.requests()).length;
      await sleep(steadySeconds * 1000);
      const windowEnd = performance.now();
      const inWindow = calls.filter((call) => call.at >= windowStart && call.at < windowEnd);
      const perTask = new Map<string, number[]>();
      for (const call of calls) perTask.set(call.id, [...(perTask.get(call.id) ?? []), call.at]);
      const gaps = [...perTask.values()].flatMap((times) => times.slice(1).map((at, i) => at - times[i]));
      const firstCycle = calls.filter((call) => call.at >= ticks[0] && (ticks.length < 2 || call.at < ticks[1]));
      const firstCycleTasks = new Set(firstCycle.map((call) => call.id)).size;
      // A task asked again sooner than one interval after its answer would be a request too many.
      const early = gaps.filter((gap) => gap < INTERVAL_SECONDS * 1000 * 0.95).length;
      const polledInWindow = new Set(inWindow.map((call) => call.id)).size;

      // 2. Completion: tasks completed on the service one at a time; how long until the poller (and so the tree) knows.
      const sample = records.slice(0, context.quick ? 10 : 40).map((record) => record.id);
      const completedAt = new Map<string, number>();
      for (const id of sample) {
        await control.completeTask(id);
        completedAt.set(id, performance.now());
        await sleep(50);
      }
      for (const record of records.slice(sample.length)) await control.completeTask(record.id);
      const allKnownBy = performance.now() + 4 * INTERVAL_SECONDS * 1000;
      while (store.tasks.some((task) => task.state === 'queued' || task.state === 'running') && performance.now() < allKnownBy) await sleep(100);
      const delays = sample.map((id) => (finishedAt.get(id) ?? Number.POSITIVE_INFINITY) - (completedAt.get(id) ?? 0));
      const stillPending = store.tasks.filter((task) => task.state === 'queued' || task.state === 'running').length;

      // 3. Idle: nothing pending; every request reaching the service over the idle time counts.
      const idleSeconds = context.quick ? 10 : 60;
      await sleep(500);
      const idleFrom = (await control.requests()).length;
      const timersBefore = timersSet;
      await sleep(idleSeconds * 1000);
      const idleRequests = (await control.requests()).length - idleFrom;
      const servedInWindow = (await control.requests()).slice(serviceBefore).filter((request) => request.at <= Date.now()).length;
      context.details['poller'] = {
        tasks: TASKS,
        intervalSeconds: INTERVAL_SECONDS,
        steadySeconds,
        requestsInWindow: inWindow.length,
        firstCycleRequests: firstCycle.length,
        firstCycleTasks,
        earlyRepeats: early,
        tasksPolledInWindow: polledInWindow,
        gapMs: { min: Math.min(...gaps), median: median(gaps), p99: quantile(gaps, 0.99) },
        completionDelaysMs: delays,
        stillPendingAfterCompletion: stillPending,
        idleSeconds,
        idleRequests,
        timersSetWhileIdle: timersSet - timersBefore,
        isScheduledWhileIdle: poller.isScheduled,
        serviceRequestsSinceWindow: servedInWindow,
        pollerCalls: calls.length,
      };
      const worstDelay = Math.max(...delays);
      return [
        {
          part: PART,
          figure: `requests in the first cycle, ${TASKS} tasks pending`,
          unit: 'requests',
          ours: firstCycle.length,
          goal: `${TASKS}, one per task`,
          met: firstCycle.length === TASKS && firstCycleTasks === TASKS,
          note: `${firstCycleTasks} distinct tasks`,
        },
        {
          part: PART,
          figure: `steady state over ${steadySeconds} s: repeats sooner than one interval`,
          unit: 'requests',
          ours: early,
          goal: '0',
          met: early === 0 && polledInWindow === TASKS,
          note: `${inWindow.length} requests, ${polledInWindow}/${TASKS} tasks asked; time between two polls of a task: min ${(Math.min(...gaps) / 1000).toFixed(2)} s, median ${(median(gaps) / 1000).toFixed(2)} s, p99 ${(quantile(gaps, 0.99) / 1000).toFixed(2)} s (the interval, less the last answer's round trip; each free slot takes the task that has waited longest)`,
        },
        {
          part: PART,
          figure: `requests while nothing is pending, over ${idleSeconds} s`,
          unit: 'requests',
          ours: idleRequests,
          goal: '0',
          met: idleRequests === 0 && !poller.isScheduled,
          note: `timer set meanwhile: ${poller.isScheduled ? 'yes' : 'no'}; timers created: ${timersSet - timersBefore}`,
        },
        {
          part: PART,
          figure: `task completed on the service → poller/tree knows (${sample.length} tasks)`,
          unit: 's',
          ours: median(delays) / 1000,
          goal: `≤ ${INTERVAL_SECONDS} s (one interval)`,
          met: worstDelay <= INTERVAL_SECONDS * 1000,
          note: `worst ${(worstDelay / 1000).toFixed(2)} s; the tree reads the store this event updates${stillPending ? `; ${stillPending} task(s) never learnt` : ''}`,
        },
      ];
    } finally {
      poller.dispose();
      store.dispose();
      await service.reset();
    }
  },
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
