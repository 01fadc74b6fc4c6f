import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { ClientKind, StreamRun } from '../clients/streamClient';
import { streamReplySchema, type StreamCommand, type StreamReply } from '../workers/protocol';
import { stopChild } from './serviceProcess';

const WORKER = path.join(__dirname, '..', 'workers', 'streamWorker.js');

/** The orchestrator's handle on one stream worker process. */
export class StreamWorker {
  private readonly child: ChildProcess;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (runs: StreamRun[]) => void; reject: (error: Error) => void }>();
  private readyWaiter: (() => void) | undefined;

  private constructor(readonly kind: ClientKind) {
    this.child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (raw: unknown) => this.onMessage(raw));
    this.child.once('exit', (code) => {
      for (const { reject } of this.waiting.values()) reject(new Error(`${kind} worker exited (${code})`));
      this.waiting.clear();
    });
  }

  static async start(kind: ClientKind, target: { baseUrl: string; key: string; model: string; prompt: string }): Promise<StreamWorker> {
    const worker = new StreamWorker(kind);
    const ready = new Promise<void>((resolve) => (worker.readyWaiter = resolve));
    worker.send({ type: 'init', client: kind, ...target });
    await ready;
    return worker;
  }

  /** `times` streams read back to back in the worker; resolves with each one's timings. */
  run(times = 1): Promise<StreamRun[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.send({ type: 'run', id, times });
    });
  }

  stop(): Promise<void> {
    this.child.disconnect();
    return stopChild(this.child);
  }

  private send(command: StreamCommand): void {
    this.child.send(command);
  }

  private onMessage(raw: unknown): void {
    const parsed = streamReplySchema.safeParse(raw);
    if (!parsed.success) return;
    const message: StreamReply = parsed.data;
    if (message.type === 'ready') {
      this.readyWaiter?.();
      return;
    }
    const waiter = this.waiting.get(message.id);
    if (!waiter) return;
    this.waiting.delete(message.id);
    if (message.type === 'runs') waiter.resolve(message.runs);
    else waiter.reject(new Error(`${this.kind}: ${message.message}`));
  }
}
