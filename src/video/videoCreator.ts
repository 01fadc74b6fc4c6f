import * as vscode from 'vscode';
import { isApiError, type ApiError } from '../api';
import type { ApiKeyStore } from '../auth/apiKeyStore';
import { ensureApiKey } from '../auth/ensureApiKey';
import type { ClientProvider } from '../client/clientProvider';
import { CommandIds } from '../commands/commandIds';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { showActions, type ActionButton, type ShownMessage } from './messageActions';
import { newRecord, shortenPrompt } from './taskModel';
import type { VideoTaskStore } from './taskStore';
import { VideoCommandIds } from './videoCommandIds';
import type { StoredCreateRequest, TaskSource, VideoTaskRecord } from './videoTaskRecord';

/** What a create came to: the task, or the message the user was shown (and whether a task may exist anyway). */
export type CreateOutcome =
  | { kind: 'created'; task: VideoTaskRecord }
  | { kind: 'failed'; mayExist: boolean; shown: ShownMessage }
  | { kind: 'not-ready' };

/**
 * Sends one POST /v1/videos and puts the task in the list at once. Never retried by itself: a create whose answer
 * was lost may have made (and charged) a task, so the user decides, with the list and Track by ID at hand.
 */
export class VideoCreator {
  constructor(
    private readonly settings: Settings,
    private readonly keyStore: ApiKeyStore,
    private readonly clients: ClientProvider,
    private readonly store: VideoTaskStore,
    private readonly reveal: (id: string) => void,
    private readonly log: ComponentLogger,
  ) {}

  async create(request: StoredCreateRequest, source?: TaskSource): Promise<CreateOutcome> {
    if (!(await ensureApiKey(this.keyStore, 'Generating a video')) || !this.clients.get()) return { kind: 'not-ready' };
    try {
      const task = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Creating the video "${shortenPrompt(request.prompt, 40)}"…` },
        () => this.createOrThrow(request, source),
      );
      return { kind: 'created', task };
    } catch (error) {
      return this.failed(error, request, source);
    }
  }

  /** The POST and the new list entry, without any message: errors go to the caller (the chat participant's /video). */
  async createOrThrow(request: StoredCreateRequest, source?: TaskSource, signal?: AbortSignal): Promise<VideoTaskRecord> {
    const client = this.clients.get();
    if (!client) throw new Error('promptreel.baseUrl is not set.');
    this.log.info(`Creating a video task with ${request.model} (${request.seconds ?? '?'} s, ${request.metadata?.resolution ?? '?'}).`);
    const task = await client.createVideoTask(request, signal);
    const now = Date.now();
    const record: VideoTaskRecord = { ...newRecord(task, { request, now, ...(source ? { source } : {}) }), nextPollAt: now + this.settings.video.pollIntervalSeconds * 1000 };
    await this.store.add(record);
    this.log.info(`Video task ${record.id} created (${task.status}).`);
    this.reveal(record.id);
    return this.store.get(record.id) ?? record;
  }

  private failed(error: unknown, request: StoredCreateRequest, source: TaskSource | undefined): CreateOutcome {
    const retry: ActionButton = { title: 'Retry', run: () => this.create(request, source) };
    const showLogs: ActionButton = { title: 'Show Logs', run: () => vscode.commands.executeCommand(CommandIds.showLogs) };
    if (!isApiError(error)) {
      this.log.error(`Creating the video task failed: ${describeError(error)}`);
      return { kind: 'failed', mayExist: false, shown: showActions('error', `Creating the video failed: ${describeError(error)}`, [showLogs]) };
    }
    this.log.warn(`Creating the video task failed: ${error.message}`);
    if (mayHaveCreated(error)) {
      const shown = showActions(
        'warning',
        `The answer to the video request was lost (${error.kind === 'invalid-response' ? 'it carried no task id' : 'the connection dropped after the request was sent'}). The task may exist on the service, and may be charged: it was not sent again. Refresh the list, or track the task by its id from the service's console, before you retry.`,
        [
          { title: 'Refresh', run: () => vscode.commands.executeCommand(VideoCommandIds.refreshAll) },
          { title: 'Track Video Task by ID', run: () => vscode.commands.executeCommand(VideoCommandIds.track) },
          { title: 'Retry Anyway', run: () => this.create(request, source) },
        ],
      );
      return { kind: 'failed', mayExist: true, shown };
    }
    return { kind: 'failed', mayExist: false, shown: this.explain(error, retry, showLogs) };
  }

  private explain(error: ApiError, retry: ActionButton, showLogs: ActionButton): ShownMessage {
    const setKey: ActionButton = { title: 'Set API Key', run: () => vscode.commands.executeCommand(CommandIds.setApiKey) };
    const modelSetting: ActionButton = { title: 'Open Settings', run: () => vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.video.model') };
    const baseUrlSetting: ActionButton = { title: 'Open Settings', run: () => vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.baseUrl') };
    const said = error.serverMessage ? ` The service said: "${error.serverMessage}".` : '';
    if (error.kind === 'no-key') return showActions('warning', 'Generating a video needs an API key.', [setKey]);
    if (error.kind === 'network' || error.kind === 'timeout') {
      return showActions('error', `Could not reach the service to create the video: ${error.message} ${error.hint}`, [retry, baseUrlSetting, showLogs]);
    }
    if (error.kind !== 'http') return showActions('error', `Creating the video failed: ${error.message} ${error.hint}`, [retry, showLogs]);
    const status = error.status ?? 0;
    const headline = `Creating the video failed (HTTP ${status}).${said} ${error.hint}`;
    if (error.code === 'model_not_found') return showActions('error', headline, [modelSetting, showLogs]);
    if (status === 401) return showActions('error', headline, [setKey, showLogs]);
    if (status === 400 || status === 402 || status === 403) return showActions('error', headline, [modelSetting, showLogs, retry]);
    if (status === 404) return showActions('error', headline, [baseUrlSetting, showLogs]);
    return showActions('error', headline, [retry, showLogs]);
  }
}

/** The request went out and no usable answer came back: the service may have made the task. */
export function mayHaveCreated(error: ApiError): boolean {
  if (error.kind === 'invalid-response') return true;
  return !!error.mayHaveReachedServer && (error.kind === 'network' || error.kind === 'timeout');
}
