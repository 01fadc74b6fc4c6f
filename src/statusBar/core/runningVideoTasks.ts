import type { Event } from '../../common/emitter';

/** How many video tasks are queued or running; the video feature (src/video/videoRuntime.ts) implements it, the status bar shows it. */
export interface RunningVideoTasks {
  readonly runningCount: number;
  readonly onDidChangeRunningCount: Event<void>;
}
