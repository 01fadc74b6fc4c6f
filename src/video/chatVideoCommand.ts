import { PARTICIPANT_ID } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { codeSpan, escapeMarkdown } from '../common/markdownText';
import { describeError, type ComponentLogger } from '../common/logger';
import { failureResult, readyForChat, resultMetadataSchema, type ChatCommandHandler, type ParticipantResult } from '../workbench/chatParticipant';
import { recoveryFor } from '../connection/core/recovery';
import type { Connection } from '../connection/connection';
import type { ParticipantVideoTask, ParticipantVideoTasks } from './chatVideoTasksPort';

/**
 * `@promptreel /video <prompt>`: creates the task through the Video feature, reports its progress in the response
 * while it runs, and ends with Download and Open. Cancelling the chat request only stops following the task here.
 */
export class VideoCommand implements ChatCommandHandler {
  constructor(
    private readonly tasks: ParticipantVideoTasks,
    private readonly connection: Connection,
    private readonly log: ComponentLogger,
  ) {}

  async handle(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<ParticipantResult> {
    const prompt = request.prompt.trim();
    if (!prompt) {
      stream.markdown(t('Describe the video after the command, e.g. `@promptreel /video a paper boat drifting down a rainy street`.'));
      return { metadata: { kind: 'setup' } };
    }
    if (!(await readyForChat(this.connection, stream))) return { metadata: { kind: 'setup' } };
    // Sent only for the quote the user confirmed with the follow-up, once: a replayed turn (Retry) asks again.
    const quoteId = confirmedQuote(context.history, prompt);
    if (token.isCancellationRequested) return { metadata: { kind: 'cancelled', prompt } };
    const creating = quoteId ? this.tasks.create(quoteId) : Promise.resolve('not-confirmed' as const);
    if (quoteId) stream.progress(t('Creating the video task…'));
    // Not cancellable once sent: the service usually creates (and charges) the task as soon as it has the request,
    // so Stop only stops waiting here; the task still lands in Video Tasks (or an "answer lost" entry does).
    const created = await untilCancelled(creating, token);
    if (created === 'cancelled') {
      creating.catch((error: unknown) => this.log.warn(`/video: creating the task failed after Stop: ${describeError(error)}`));
      stream.markdown(
        t(
          'Stopped following here. The video request had already been sent, so it was not cancelled: the task appears under **Video Tasks** when the service answers.',
        ),
      );
      return { metadata: { kind: 'cancelled', prompt } };
    }
    if ('error' in created) {
      this.log.warn(`/video: creating the task failed: ${describeError(created.error)}`);
      return failureResult(stream, recoveryFor(created.error, { what: t('Creating the video'), request: 'video' }), { kind: 'error', prompt });
    }
    if (created.task === 'not-confirmed') return this.askToConfirm(prompt, stream);
    const task = created.task;
    this.log.info(`/video: task ${task.id} created with ${task.model}.`);
    stream.markdown(`${t('Video task {0} created with {1}. It is listed under **Video Tasks** too.', codeSpan(task.id), codeSpan(task.model))}\n\n`);

    const final = await this.follow(task, stream, token);
    const metadata = { kind: 'video' as const, prompt, taskId: final.id, videoState: final.state };
    if (final.state === 'completed') {
      stream.markdown(t('The video is ready.'));
      stream.button(this.tasks.downloadCommand(final.id));
      stream.button(this.tasks.openCommand(final.id));
      return { metadata };
    }
    if (final.state === 'failed') {
      const message = final.failure
        ? t('The video task {0} failed ({1}): {2}', final.id, final.status, final.failure)
        : t('The video task {0} failed ({1}).', final.id, final.status);
      return { errorDetails: { message }, metadata };
    }
    stream.markdown(t('Stopped following the task here: it keeps running, and **Video Tasks** shows when it is done.'));
    return { metadata };
  }

  /** Shows the price (or that it is not known) and what is sent; the follow-up confirms this quote. Nothing is sent. */
  private async askToConfirm(prompt: string, stream: vscode.ChatResponseStream): Promise<ParticipantResult> {
    const quote = await this.tasks.quote(prompt);
    if (!quote) {
      const missing = new Error(t('No video model is set: set promptreel.video.model, or use Promptreel: Generate Video to pick one.'));
      return failureResult(stream, { message: missing.message, actions: ['chooseVideoModel', 'showLogs'] }, { kind: 'error', prompt });
    }
    const question = quote.price
      ? t('Generate this video with {0} ({1})? It costs **{2}**.', codeSpan(quote.model), escapeMarkdown(quote.settings), quote.cost)
      : t(
          'Generate this video with {0} ({1})? **Its price is not known**: it uses your quota like any other video.',
          codeSpan(quote.model),
          escapeMarkdown(quote.settings),
        );
    stream.markdown(`${question}\n\n> ${escapeMarkdown(prompt).replace(/\r?\n/g, '\n> ')}\n\n`);
    if (quote.warning) stream.markdown(`${t('**Note:** {0}', escapeMarkdown(quote.warning))}\n\n`);
    stream.markdown(t('Nothing is sent (or charged) until you confirm with the follow-up below.'));
    return { metadata: { kind: 'video-confirm', prompt, quoteId: quote.id, ...(quote.price ? { price: quote.price } : {}) } };
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

/** The creation's outcome, or 'cancelled' as soon as the token fires (the creation itself goes on). */
function untilCancelled<T>(creating: Promise<T>, token: vscode.CancellationToken): Promise<{ task: T } | { error: unknown } | 'cancelled'> {
  return new Promise((resolve) => {
    const subscription = token.onCancellationRequested(() => resolve('cancelled'));
    creating
      .then(
        (task) => resolve({ task }),
        (error: unknown) => resolve({ error }),
      )
      .finally(() => subscription.dispose());
  });
}

export function progressLine(task: ParticipantVideoTask): string {
  return task.progress === undefined ? t('Video {0}: {1}', task.id, task.status) : t('Video {0}: {1} — {2}%', task.id, task.status, task.progress);
}

/** The quote the user confirms: the turn before this request showed our price for the same prompt. */
function confirmedQuote(history: vscode.ChatContext['history'], prompt: string): string | undefined {
  const last = history.at(-1);
  if (!(last instanceof vscode.ChatResponseTurn) || last.participant !== PARTICIPANT_ID) return undefined;
  const metadata = resultMetadataSchema().safeParse(last.result.metadata);
  return metadata.success && metadata.data.kind === 'video-confirm' && metadata.data.prompt === prompt ? metadata.data.quoteId : undefined;
}
