import { randomUUID } from 'node:crypto';
import type { Connection } from '../connection/connection';
import * as vscode from 'vscode';
import { ApiError, isApiError, lostReason, mayHaveCreated } from '../api';
import { CommandIds } from '../common/commandIds';
import { t } from '../common/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { joinSentences } from '../common/sentences';
import { showMessage, type MessageAction, type ShownMessage } from '../workbench/showMessage';
import { newRecord, shortenPrompt } from './core/taskModel';
import type { VideoTaskStore } from './core/taskStore';
import { VideoCommandIds } from './videoCommandIds';
import type { StoredCreateRequest, TaskGroup, TaskSource, VideoTaskRecord } from './core/videoTaskRecord';
import { readFirstFrame } from './firstFrame';
import { confirmChargeInModal } from '../connection/chargeConfirmation';
import type { Approval, ChargedVideoRequest } from '../connection/core/chargeGate';

/** The user's accepted confirmation of one or more video requests (see ChargeGate). */
export type VideoApproval = Approval<ChargedVideoRequest>;

/** Where a task comes from and what it belongs to, besides its request. */
export interface CreateExtras {
  /** The code an explainer was written from. */
  source?: TaskSource;
  /** The variants it is one of. */
  group?: TaskGroup;
  /** Stops the create only before anything is sent (see createOrThrow). */
  signal?: AbortSignal;
}

/** What a create came to: the task, or the message the user was shown (and whether a task may exist anyway). */
export type CreateOutcome = { kind: 'created'; task: VideoTaskRecord } | { kind: 'failed'; mayExist: boolean; shown: ShownMessage } | { kind: 'not-ready' };

/**
 * Sends one POST /v1/videos and puts the task in the list at once. Never retried by itself: a create whose answer
 * was lost may have made (and charged) a task, so the user decides, with the list and Track by ID at hand.
 */
export class VideoCreator {
  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly store: VideoTaskStore,
    private readonly reveal: (id: string) => void,
    private readonly log: ComponentLogger,
  ) {}

  /** The one request of an approval, with a progress notification, and a message with its actions when it fails. */
  async create(approval: VideoApproval, extras: CreateExtras = {}): Promise<CreateOutcome> {
    const request = approval.quote.requests[0];
    if (!request) return { kind: 'not-ready' };
    if (!(await this.connection.ensureReady(t('Generating a video')))) return { kind: 'not-ready' };
    try {
      const task = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: t('Creating the video "{0}"…', shortenPrompt(request.prompt, 40)) },
        () => this.createOrThrow(approval, extras),
      );
      return { kind: 'created', task };
    } catch (error) {
      return this.failed(error, request, extras);
    }
  }

  /**
   * Sends the next request of an approval (each is sent once: the gate hands it out once) and lists the task, without
   * any message: errors go to the caller (the chat participant's /video, the tool, variants). `signal` can only stop
   * it before anything is sent: once the request may have reached the service, it runs to its answer, so a charged
   * task always lands in the list. A lost answer leaves an "unconfirmed" entry there.
   */
  async createOrThrow(approval: VideoApproval, extras: CreateExtras = {}): Promise<VideoTaskRecord> {
    const client = this.connection.clients.get();
    if (!client) throw new Error(t('promptreel.baseUrl is not set.'));
    const request = this.connection.videoCharges.take(approval);
    if (!request) throw new Error(t('This confirmation was used already: nothing was sent. Generate the video again to confirm its price.'));
    const { source, group, signal } = extras;
    // Read before the request: an image that cannot be read stops it before anything is sent.
    const inputReference = request.firstFrame ? await readFirstFrame(request.firstFrame) : undefined;
    if (signal?.aborted) throw new ApiError({ kind: 'aborted', message: t('The request was cancelled.'), hint: t('Cancelled before anything was sent.') });
    const frame = request.firstFrame ? `, first frame ${request.firstFrame.fileName}` : '';
    this.log.info(`Creating a video task with ${request.model} (${request.seconds ?? '?'} s, ${request.metadata?.resolution ?? '?'}${frame}).`);
    const price = this.connection.prices.known().get(request.model);
    let task;
    try {
      task = await client.createVideoTask(inputReference ? { ...request, inputReference } : request);
    } catch (error) {
      if (isApiError(error) && mayHaveCreated(error)) await this.recordUnconfirmed(client.baseUrl, request, extras, error);
      throw error;
    }
    const now = Date.now();
    const record: VideoTaskRecord = {
      ...newRecord(task, { service: client.baseUrl, request, now, ...(source ? { source } : {}) }),
      nextPollAt: now + this.settings.video.pollIntervalSeconds * 1000,
      ...(group ? { group } : {}),
      ...(price?.kind === 'per-call' ? { priceUsd: price.usd } : {}),
    };
    await this.store.add(record);
    this.log.info(`Video task ${record.id} created (${task.status}).`);
    this.reveal(record.id);
    return this.store.get(record.id) ?? record;
  }

  /** An entry for a task that may exist: the user tracks it by its real id, or removes it. Never polled, never resent. */
  private async recordUnconfirmed(service: string, request: StoredCreateRequest, { source, group }: CreateExtras, error: ApiError): Promise<void> {
    const now = Date.now();
    const record: VideoTaskRecord = {
      id: `lost-${randomUUID()}`,
      service,
      state: 'unconfirmed',
      rawStatus: error.status ? `HTTP ${error.status}` : error.kind,
      prompt: request.prompt,
      model: request.model,
      request,
      createdAt: now,
      updatedAt: now,
      error: error.message,
      ...(source ? { source } : {}),
      ...(group ? { group } : {}),
    };
    await this.store.add(record);
    this.log.warn(`The answer to the video request was lost (${error.message}); listed as ${record.id} until tracked by its id.`);
    this.reveal(record.id);
  }

  /** Sends `request` again once the user confirmed it again, with its price: a Retry is a new charge. */
  async retry(request: StoredCreateRequest, extras: CreateExtras = {}): Promise<CreateOutcome | undefined> {
    const approval = await confirmChargeInModal(this.connection.videoCharges, [request], {
      title: t('Send the video request again?'),
      lines: [
        `“${shortenPrompt(request.prompt, 120)}”`,
        [request.model, request.seconds ? t('{0} s', request.seconds) : undefined].filter(Boolean).join(' · '),
      ],
      action: t('Send Again'),
    });
    return approval ? this.create(approval, { ...extras, signal: undefined }) : undefined;
  }

  private failed(error: unknown, request: StoredCreateRequest, extras: CreateExtras): CreateOutcome {
    const retry: MessageAction = { title: t('Retry'), run: () => this.retry(request, extras) };
    const showLogs: MessageAction = { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) };
    if (!isApiError(error)) {
      this.log.error(`Creating the video task failed: ${describeError(error)}`);
      return { kind: 'failed', mayExist: false, shown: showMessage('error', t('Creating the video failed: {0}', describeError(error)), [showLogs]) };
    }
    this.log.warn(`Creating the video task failed: ${error.message}`);
    if (mayHaveCreated(error)) {
      // No Retry here: a second request could make (and charge) a second task.
      const shown = showMessage('warning', lostMessage(error), [
        { title: t('Track Video Task by ID'), run: () => vscode.commands.executeCommand(VideoCommandIds.track) },
        { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) },
      ]);
      return { kind: 'failed', mayExist: true, shown };
    }
    return { kind: 'failed', mayExist: false, shown: this.explain(error, retry, showLogs) };
  }

  private explain(error: ApiError, retry: MessageAction, showLogs: MessageAction): ShownMessage {
    const setKey: MessageAction = { title: t('Set API Key'), run: () => vscode.commands.executeCommand(CommandIds.setApiKey) };
    const modelSetting: MessageAction = {
      title: t('Open Settings'),
      run: () => vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.video.model'),
    };
    const baseUrlSetting: MessageAction = {
      title: t('Open Settings'),
      run: () => vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.baseUrl'),
    };
    if (error.kind === 'no-key') return showMessage('warning', t('Generating a video needs an API key.'), [setKey]);
    if (error.kind === 'network' || error.kind === 'timeout') {
      const unreachable = joinSentences(t('Could not reach the service to create the video: {0}', error.message), error.hint);
      return showMessage('error', unreachable, [retry, baseUrlSetting, showLogs]);
    }
    if (error.kind !== 'http') return showMessage('error', joinSentences(t('Creating the video failed: {0}', error.message), error.hint), [retry, showLogs]);
    const status = error.status ?? 0;
    const said = error.serverMessage ? t('The service said: "{0}".', error.serverMessage) : undefined;
    const headline = joinSentences(t('Creating the video failed (HTTP {0}).', status), said, error.hint);
    if (error.code === 'model_not_found') return showMessage('error', headline, [modelSetting, showLogs]);
    if (status === 401) return showMessage('error', headline, [setKey, showLogs]);
    if (status === 400 || status === 402 || status === 403) return showMessage('error', headline, [modelSetting, showLogs, retry]);
    if (status === 404) return showMessage('error', headline, [baseUrlSetting, showLogs]);
    return showMessage('error', headline, [retry, showLogs]);
  }
}

/** Why the answer may be lost, then what that means: whole sentences in the user's language. */
function lostMessage(error: ApiError): string {
  const reason = lostReason(error);
  const lost =
    reason.kind === 'no-task-id'
      ? t('The answer to the video request was lost (it carried no task id).')
      : reason.kind === 'proxy'
        ? t('The answer to the video request was lost (a proxy in front of the service answered HTTP {0} after the request was sent).', String(reason.status))
        : t('The answer to the video request was lost (the connection dropped after the request was sent).');
  return joinSentences(
    lost,
    t(
      'The task may exist on the service, and may be charged: it was not sent again, and it is listed under Video Tasks as "answer lost". Track it by its id from the service\'s console before you make another.',
    ),
  );
}
