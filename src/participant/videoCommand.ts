import * as vscode from 'vscode';
import { describeError, type ComponentLogger } from '../common/logger';
import { abortOn } from '../languageModels/abortOn';
import type { AnswerHandler, ParticipantResult } from './answerHandler';
import type { CommandHandler } from './promptreelParticipant';
import { videoRecoveryActions } from './recovery';
import type { ParticipantVideoTask, ParticipantVideoTasks } from './videoTasksPort';

/**
 * `@promptreel /video <prompt>`: creates the task through the Video feature, reports its progress in the response
 * while it runs, and ends with Download and Open. Cancelling the chat request only stops following the task here.
 */
export class VideoCommand implements CommandHandler {
  constructor(
    private readonly tasks: ParticipantVideoTasks,
    private readonly answers: AnswerHandler,
    private readonly log: ComponentLogger,
  ) {}

  async handle(request: vscode.ChatRequest, _context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<ParticipantResult> {
    const prompt = request.prompt.trim();
    if (!prompt) {
      stream.markdown('Describe the video after the command, e.g. `@promptreel /video a paper boat drifting down a rainy street`.');
      return { metadata: { kind: 'setup' } };
    }
    if (!(await this.answers.readyClient(stream))) return { metadata: { kind: 'setup' } };

    const cancel = abortOn(token);
    let task: ParticipantVideoTask;
    try {
      stream.progress('Creating the video task…');
      task = await this.tasks.create(prompt, cancel.signal);
    } catch (error) {
      cancel.dispose();
      if (token.isCancellationRequested) return { metadata: { kind: 'cancelled', prompt } };
      this.log.warn(`/video: creating the task failed: ${describeError(error)}`);
      return { ...this.answers.failure(error, stream, undefined, videoRecoveryActions(error)), metadata: { kind: 'error', prompt } };
    }
    cancel.dispose();
    this.log.info(`/video: task ${task.id} created with ${task.model}.`);
    stream.markdown(`Video task \`${task.id}\` created with \`${task.model}\`. It is listed under **Video Tasks** too.\n\n`);

    const final = await this.follow(task, stream, token);
    const metadata = { kind: 'video' as const, prompt, taskId: final.id, videoState: final.state };
    if (final.state === 'completed') {
      stream.markdown('The video is ready.');
      stream.button(this.tasks.downloadCommand(final.id));
      stream.button(this.tasks.openCommand(final.id));
      return { metadata };
    }
    if (final.state === 'failed') {
      return { errorDetails: { message: `The video task ${final.id} failed (${final.status})${final.failure ? `: ${final.failure}` : '.'}` }, metadata };
    }
    stream.markdown('Stopped following the task here: it keeps running, and **Video Tasks** shows when it is done.');
    return { metadata };
  }

  /** Reports each change of status or progress until the task is final or the request is cancelled. */
  private follow(task: ParticipantVideoTask, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<ParticipantVideoTask> {
    return new Promise((resolve) => {
      let last = '';
      const disposables: vscode.Disposable[] = [];
      const finish = (result: ParticipantVideoTask) => {
        for (const disposable of disposables) disposable.dispose();
        resolve(result);
      };
      const check = () => {
        const current = this.tasks.get(task.id) ?? task;
        const line = progressLine(current);
        if (line !== last) {
          last = line;
          stream.progress(line);
        }
        if (current.state !== 'running') finish(current);
      };
      disposables.push(this.tasks.onDidChange(check));
      disposables.push(token.onCancellationRequested(() => finish(this.tasks.get(task.id) ?? task)));
      check();
    });
  }
}

export function progressLine(task: ParticipantVideoTask): string {
  const percent = task.progress === undefined ? '' : ` — ${task.progress}%`;
  return `Video ${task.id}: ${task.status}${percent}`;
}
