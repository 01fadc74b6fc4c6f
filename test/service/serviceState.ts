import type { FilmClip } from './filmClips';
import type { RecordedRequest } from './httpHelpers';
import { applyPatch, defaultScenario, parsePatch, type Fault, type Scenario, type ScenarioPatch } from './scenario';
import { newTask, type ServiceTask } from './videoTasks';
import { logEntry, type LogEntry } from './keyLog';

/** Everything the service remembers: keys, scenarios, records and tasks. Shared by both servers. */
export class ServiceState {
  readonly requests: RecordedRequest[] = [];
  readonly cdnRequests: RecordedRequest[] = [];
  readonly tasks = new Map<string, ServiceTask>();
  /** /v1 requests whose response has not closed yet. */
  activeRequests = 0;
  /** Filler bytes the last runaway answer (modelsPaddingBytes, endlessEventBytes) wrote before it ended or was cut. */
  runawayBytesWritten = 0;
  /** How many times `GET /api/log/token` was asked, whatever it answered. */
  logReads = 0;
  /** Filled in by startLocalService once the CDN listens. */
  cdnUrl = '';
  /** How many tasks took a film clip (scenario `video.clips`) since reset(): the next one takes the clip after. */
  clipTurns = 0;
  /** How many tasks `POST /v1/videos` made since reset() (scenario `video.failTasks` counts them). */
  videoCreates = 0;
  private readonly keys = new Set<string>();
  private readonly keyPatches = new Map<string, ScenarioPatch>();
  /** Each key's log, oldest first. */
  private readonly logs = new Map<string, LogEntry[]>();
  private lastLogId = 0;
  private defaults: Scenario;

  constructor(
    private readonly initialKeys: readonly string[],
    private readonly initialPatch: ScenarioPatch,
  ) {
    this.defaults = applyPatch(defaultScenario(), parsePatch(initialPatch));
    initialKeys.forEach((key) => this.keys.add(key));
  }

  scenario(): Scenario {
    return structuredClone(this.defaults);
  }

  setScenario(patch: unknown): void {
    this.defaults = applyPatch(this.defaults, parsePatch(patch));
  }

  /** Later patches for the same key merge into the earlier one. */
  setKeyScenario(key: string, patch: unknown): void {
    const parsed = parsePatch(patch);
    this.keys.add(key);
    this.keyPatches.set(key, applyPatch(this.keyPatches.get(key) ?? {}, parsed));
  }

  addKey(key: string): void {
    this.keys.add(key);
  }

  isValidKey(key: string | undefined): boolean {
    return key !== undefined && this.keys.has(key);
  }

  /** The scenario a request with this key gets: the default, with the key's patch on top. */
  scenarioFor(key: string | undefined): Scenario {
    const patch = key === undefined ? undefined : this.keyPatches.get(key);
    return patch ? applyPatch(this.defaults, patch) : this.scenario();
  }

  /**
   * The fault that applies to this request, if any, counting it against `times` (a fault with no
   * `times` left clears itself from where it was set: the key's patch or the default).
   */
  takeFault(key: string | undefined, method: string, path: string, accept: (fault: Fault) => boolean = () => true): Fault | null {
    const patch = key === undefined ? undefined : this.keyPatches.get(key);
    const owner: { fault?: Fault | null } = patch && patch.fault !== undefined ? patch : this.defaults;
    const fault = owner.fault;
    if (!fault || !accept(fault) || !faultMatches(fault, method, path)) return null;
    if (fault.times !== undefined) {
      const left = fault.times - 1;
      owner.fault = left > 0 ? { ...fault, times: left } : null;
    }
    return fault;
  }

  createTask(init: Partial<ServiceTask> = {}): ServiceTask {
    const task = newTask(this.cdnUrl, init);
    this.tasks.set(task.id, task);
    return task;
  }

  /** Adds an entry (what it leaves out gets new-api's usual values) to the key's log. */
  appendLog(key: string, fields: Partial<LogEntry>): LogEntry {
    const entry = logEntry(++this.lastLogId, fields);
    const log = this.logs.get(key) ?? [];
    log.push(entry);
    this.logs.set(key, log);
    return entry;
  }

  /** The key's log as the gateway answers it: newest first. */
  logOf(key: string): LogEntry[] {
    return [...(this.logs.get(key) ?? [])].sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  }

  reset(): void {
    this.defaults = applyPatch(defaultScenario(), parsePatch(this.initialPatch));
    this.keyPatches.clear();
    this.keys.clear();
    this.initialKeys.forEach((key) => this.keys.add(key));
    this.requests.length = 0;
    this.cdnRequests.length = 0;
    this.tasks.clear();
    this.runawayBytesWritten = 0;
    this.logs.clear();
    this.logReads = 0;
    this.clipTurns = 0;
    this.videoCreates = 0;
  }

  /** The clip of a task created now under `clips` (in turn), or null for the sample. */
  nextClip(clips: readonly FilmClip[] | null): FilmClip | null {
    if (!clips?.length) return null;
    return clips[this.clipTurns++ % clips.length];
  }
}

function faultMatches(fault: Fault, method: string, path: string): boolean {
  if (fault.method !== undefined && fault.method.toUpperCase() !== method.toUpperCase()) return false;
  if (fault.path !== undefined && !new RegExp(fault.path).test(path)) return false;
  return true;
}
