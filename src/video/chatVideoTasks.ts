import { CommandIds } from '../common/contributions';
import type * as vscode from 'vscode';
import { describeQuotePrice, folderNote, quoteWarning } from '../connection/core/chargeGate';
import { joinSentences } from '../api/sentences';
import { formatUsd } from '../api/account/prices';
import { t } from '../api/l10n';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import type { ParticipantVideoQuote, ParticipantVideoTask, ParticipantVideoTasks } from './chatVideoTasksPort';
import type { VideoRuntime } from './videoRuntime';
import { defaultOptions, toCreateRequest } from './core/videoOptions';
import type { VideoTaskRecord } from './core/videoTaskRecord';

/** `@promptreel /video` creates and follows tasks through the video feature (same list, same poller). */
export class ParticipantVideoTasksAdapter implements ParticipantVideoTasks {
  readonly onDidChange: vscode.Event<void>;

  constructor(
    private readonly video: VideoRuntime,
    private readonly settings: Settings,
    private readonly connection: Connection,
  ) {
    this.onDidChange = video.store.onDidChange;
  }

  async create(quoteId: string): Promise<ParticipantVideoTask | 'not-confirmed'> {
    const approval = (await this.connection.videoCharges()).approve(quoteId);
    if (!approval) return 'not-confirmed';
    return toParticipantTask(await (await this.video.flows.get()).creator.createOrThrow(approval));
  }

  async quote(prompt: string): Promise<ParticipantVideoQuote | undefined> {
    const options = defaultOptions(this.settings.video);
    if (!options.model) return undefined;
    const quote = await (await this.connection.videoCharges()).quote([toCreateRequest(prompt, options)]);
    const warning = joinSentences(quoteWarning(quote), folderNote(quote));
    return {
      id: quote.id,
      model: options.model,
      settings: [t('{0} s', options.seconds), options.resolution, options.ratio].join(' · '),
      ...(quote.charge.priceUsd !== undefined ? { price: formatUsd(quote.charge.priceUsd) } : {}),
      cost: describeQuotePrice(quote),
      ...(warning ? { warning } : {}),
    };
  }

  get(id: string): ParticipantVideoTask | undefined {
    const task = this.video.store.get(id);
    return task ? toParticipantTask(task) : undefined;
  }

  downloadCommand(id: string): vscode.Command {
    return { command: CommandIds.video.download, title: t('Download to Workspace'), arguments: [id] };
  }

  openCommand(id: string): vscode.Command {
    return { command: CommandIds.video.open, title: t('Open Video'), arguments: [id] };
  }
}

function toParticipantTask(task: VideoTaskRecord): ParticipantVideoTask {
  return {
    id: task.id,
    model: task.model ?? t('unknown model'),
    status: task.rawStatus,
    state: task.state === 'completed' || task.state === 'failed' ? task.state : 'running',
    ...(task.progress !== undefined ? { progress: task.progress } : {}),
    ...(task.state === 'failed' ? { failure: task.error ?? t('the service gave no reason') } : {}),
  };
}
