import { ContextKeys } from '../common/contributions';
import * as vscode from 'vscode';
import { withRateLimitRetry } from '../api/chat/rateLimitRetry';
import type { ChatRequest } from '../api/chat/request';
import type { ServiceClient } from '../api/serviceClient';
import { t } from '../api/l10n';
import { Disposable, MutableDisposable, toDisposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { runStream, type StreamRunOutcome } from './core/streamRunner';
import { RateLimitCountdown } from './rateLimitCountdown';
import type { StreamSink } from './streamSink';

export interface EditorStreamRun {
  /** The command's name, for the logs. */
  what: string;
  /** The progress notification's title (in VS Code's language). */
  title: string;
  /** When the command started, on the stream's clock (`systemClock.now()`): its timings count from there. */
  started: number;
  client: ServiceClient;
  request: ChatRequest;
  sink: StreamSink;
  stripFences: boolean;
  ending?: (written: string) => string;
}

/**
 * The one stream into the editor at a time: a cancellable progress notification (Stop, Escape), a 429 waited out
 * with its countdown and Retry Now, and the `promptreel.editorStreaming` context while it runs. Starting another
 * stream stops the previous one.
 */
export class EditorStreamSession extends Disposable {
  private readonly active = this._register(new MutableDisposable());
  private readonly rateLimit = this._register(new RateLimitCountdown());
  private activeController: AbortController | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(toDisposable(() => void vscode.commands.executeCommand('setContext', ContextKeys.editorStreaming, false)));
  }

  get streaming(): boolean {
    return this.activeController !== undefined;
  }

  get rateLimited(): boolean {
    return this.rateLimit.waiting;
  }

  /** Stops the stream in progress (its text so far stays); false when none runs. */
  cancel(): boolean {
    if (!this.activeController) return false;
    this.log.info('Stopping the stream into the editor.');
    this.activeController.abort();
    return true;
  }

  /** Ends a wait after HTTP 429 at once: the request goes again now. False when none is waited out. */
  retryNow(): boolean {
    const retried = this.rateLimit.retryNow();
    if (retried) this.log.info('Retrying now, before the wait after HTTP 429 ended.');
    return retried;
  }

  async run({ what, title, started, client, request, sink, stripFences, ending }: EditorStreamRun): Promise<StreamRunOutcome> {
    const controller = new AbortController();
    this.active.value = toDisposable(() => controller.abort());
    this.activeController = controller;
    void vscode.commands.executeCommand('setContext', ContextKeys.editorStreaming, true);
    this.log.info(`${what}: streaming from ${request.model}.`);
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
        const cancelled = token.onCancellationRequested(() => controller.abort());
        try {
          return await runStream({
            stream: (body, signal) =>
              withRateLimitRetry(() => client.streamChatCompletion(body, signal), {
                policy: this.settings.rateLimit,
                signal,
                onWait: (wait) => {
                  this.log.warn(`${what}: rate limited (HTTP 429); retry ${wait.attempt} of ${wait.retries} in ${Math.ceil(wait.delayMs / 1000)} s.`);
                  this.rateLimit.start(wait, (message) => progress.report({ message }));
                },
                onRetry: () => {
                  this.rateLimit.end();
                  progress.report({ message: t('Sending again…') });
                },
              }),
            request,
            sink,
            signal: controller.signal,
            stripFences,
            origin: started,
            ...(ending ? { ending } : {}),
            onProgress: (chars) => progress.report({ message: t('{0} characters', chars) }),
          });
        } finally {
          cancelled.dispose();
          this.rateLimit.end();
        }
      });
    } finally {
      if (this.activeController === controller) {
        this.activeController = undefined;
        this.active.clear();
        void vscode.commands.executeCommand('setContext', ContextKeys.editorStreaming, false);
      }
    }
  }
}
