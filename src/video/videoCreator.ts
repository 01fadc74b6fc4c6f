import { randomUUID } from 'node:crypto';
import type { Connection } from '../connection/connection';
import * as vscode from 'vscode';
import { ApiError, isApiError } from '../api/errors';
import { mayHaveCreated } from '../api/video/mayHaveCreated';
import { t } from '../api/l10n';
import { videoCost } from '../api/account/prices';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import type { ShownMessage } from '../workbench/showMessage';
import { showRecovery } from '../workbench/recoveryActions';
import { recoveryFor, recoveryForMissing } from '../connection/core/recovery';
import { newRecord, shortenPrompt } from './core/taskModel';
import type { VideoTaskStore } from './core/taskStore';
import type { FirstFrame, StoredCreateRequest, TaskGroup, TaskSource, VideoTaskRecord } from './core/videoTaskRecord';
import { readFirstFrame } from './firstFrame';
import { confirmChargeInModal } from '../workbench/chargeConfirmation';
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
  /** The first frame of a request quoted as starting from the previous shot's last frame (ChargeGate.take). */
  firstFrame?: FirstFrame;
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
    // Asked, not offered: the command that led here asked already; what is missing now fails with its recovery.
    const readiness = await this.connection.readiness();
    if (readiness.kind === 'missing') {
      throw new ApiError({ kind: 'no-key', message: recoveryForMissing(readiness, t('Generating a video')).message, hint: '' });
    }
    const client = readiness.client;
    const gate = await this.connection.videoCharges();
    if (!extras.firstFrame && gate.needsFirstFrame(approval)) {
      throw new Error(t('This shot starts from the last frame of the shot before, which is not there: nothing was sent.'));
    }
    const request = gate.take(approval, extras.firstFrame);
    if (!request) throw new Error(t('This confirmation was used already: nothing was sent. Generate the video again to confirm its price.'));
    const { source, group, signal } = extras;
    // Read before the request: an image that cannot be read stops it before anything is sent.
    const inputReference = request.firstFrame ? await readFirstFrame(request.firstFrame) : undefined;
    if (signal?.aborted) throw new ApiError({ kind: 'aborted', message: t('The request was cancelled.'), hint: t('Cancelled before anything was sent.') });
    const frame = request.firstFrame ? `, first frame ${request.firstFrame.fileName}` : '';
    this.log.info(`Creating a video task with ${request.model} (${request.seconds ?? '?'} s, ${request.metadata?.resolution ?? '?'}${frame}).`);
    const priceUsd = videoCost(this.connection.prices.known().get(request.model), request.seconds);
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
      ...(priceUsd !== undefined ? { priceUsd } : {}),
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
    const approval = await confirmChargeInModal(await this.connection.videoCharges(), [request], {
      title: t('Send the video request again?'),
      lines: [
        `“${shortenPrompt(request.prompt, 120)}”`,
        [request.model, request.seconds ? t('{0} s', request.seconds) : undefined].filter(Boolean).join(' · '),
      ],
      action: t('Send Again'),
    });
    return approval ? this.create(approval, { ...extras, signal: undefined, firstFrame: undefined }) : undefined;
  }

  private failed(error: unknown, request: StoredCreateRequest, extras: CreateExtras): CreateOutcome {
    this.log.warn(`Creating the video task failed: ${describeError(error)}`);
    // A create that may have reached the service offers no Retry (the recovery says so): it could charge twice.
    const mayExist = isApiError(error) && mayHaveCreated(error);
    const recovery = recoveryFor(error, { what: t('Creating the video'), request: 'video' });
    const shown = showRecovery(mayExist || (isApiError(error) && error.kind === 'no-key') ? 'warning' : 'error', recovery, () => this.retry(request, extras));
    return { kind: 'failed', mayExist, shown };
  }
}
