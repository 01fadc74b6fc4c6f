import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isApiError, mayHaveCreated } from '../../api';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';
import { CommandIds } from '../../common/contributions';
import { describeError, type ComponentLogger } from '../../common/logger';
import type { Settings } from '../../config/settings';
import type { Connection } from '../../connection/connection';
import { confirmChargeInModal } from '../../workbench/chargeConfirmation';
import { ensureReady } from '../../workbench/readiness';
import { showMessage, type ShownMessage } from '../../workbench/showMessage';
import { defaultOptions } from '../core/videoOptions';
import type { VideoModelLimits } from '../core/videoModelLimits';
import type { TaskGroup, TaskSource, VideoTaskRecord } from '../core/videoTaskRecord';
import { limitsOf } from '../modelLimits';
import type { VideoCreator } from '../videoCreator';
import { filmRequests, type ShotRequestOptions } from './core/filmRequests';
import { plannedSeconds, type Storyboard } from './core/storyboard';

export interface FilmShootDeps {
  settings: Settings;
  connection: Connection;
  creator: VideoCreator;
  log: ComponentLogger;
}

export type ShootOutcome =
  | { kind: 'shot'; tasks: VideoTaskRecord[] }
  | { kind: 'stopped'; tasks: VideoTaskRecord[]; notSent: number; shown: ShownMessage }
  | { kind: 'cancelled' }
  | { kind: 'not-ready' };

/**
 * How the film's shots are asked for. The first-frame chain (each shot starting from the last frame of the one
 * before, for a model that takes one) is a later step: until then every shot carries the previous shot's prompt.
 */
export function shotOptions(settings: Settings, limits: VideoModelLimits): ShotRequestOptions {
  return {
    defaults: defaultOptions(settings.video),
    firstFrame: false,
    ...(limits.maxPromptLength !== undefined ? { maxPromptLength: limits.maxPromptLength } : {}),
  };
}

/**
 * Shoot the film: one modal with the charge gate's total for all its shots; then one POST per shot, in order, never
 * retried, each task grouped with the film's and its id written to the film's file (`recordTask`) as soon as it is made.
 */
export async function shootFilm(
  deps: FilmShootDeps,
  film: { file: vscode.Uri; storyboard: Storyboard },
  recordTask: (shotId: string, task: VideoTaskRecord) => Promise<void>,
): Promise<ShootOutcome> {
  const { storyboard } = film;
  if (!(await ensureReady(deps.connection, t('Shooting a film')))) return { kind: 'not-ready' };
  const limits = await limitsOf(deps.settings, deps.connection, storyboard.model);
  const requests = filmRequests(storyboard, shotOptions(deps.settings, limits));
  const count = requests.length;
  const approval = await confirmChargeInModal(deps.connection.videoCharges, requests, {
    title: t('Shoot the film "{0}"?', storyboard.name),
    lines: [
      t('{0} · {1} shots · {2} s in all', storyboard.model, count, plannedSeconds(storyboard)),
      t('Each shot is one video request, sent once and never retried.'),
    ],
    action: t('Shoot {0} Shots', count),
  });
  if (!approval) return { kind: 'cancelled' };
  const groupId = `film-${randomUUID()}`;
  const source = taskSource(film.file, storyboard);
  const created: VideoTaskRecord[] = [];
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Shooting "{0}"…', storyboard.name), cancellable: true },
    async (progress, token): Promise<ShootOutcome> => {
      const controller = new AbortController();
      const cancelled = token.onCancellationRequested(() => controller.abort());
      try {
        for (const [index, shot] of storyboard.shots.entries()) {
          progress.report({ message: t('Shot {0} of {1}', index + 1, count), increment: 100 / count });
          const group: TaskGroup = { id: groupId, label: t('Film: {0}', storyboard.name), index, count };
          let task: VideoTaskRecord;
          try {
            // The signal stops only what is not sent yet: a request on its way runs to its answer.
            task = await deps.creator.createOrThrow(approval, { group, signal: controller.signal, ...(source ? { source } : {}) });
          } catch (error) {
            return stopped(deps.log, error, created, count, controller.signal.aborted);
          }
          created.push(task);
          await recordTask(shot.id, task);
        }
        vscode.window.setStatusBarMessage(t('Promptreel: the {0} shots of "{1}" are being made.', count, storyboard.name), 5000);
        return { kind: 'shot', tasks: created };
      } finally {
        cancelled.dispose();
      }
    },
  );
}

/** The code the film explains, as a task's source (Go to Source), when its file is in the film's workspace folder. */
function taskSource(file: vscode.Uri, storyboard: Storyboard): TaskSource | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(file);
  if (!folder || !storyboard.source) return undefined;
  const { source } = storyboard;
  return {
    uri: vscode.Uri.joinPath(folder.uri, ...source.file.split('/')).toString(),
    startLine: source.startLine - 1,
    startCharacter: 0,
    endLine: source.endLine - 1,
    endCharacter: 0,
  };
}

function stopped(log: ComponentLogger, error: unknown, created: VideoTaskRecord[], count: number, cancelled: boolean): ShootOutcome {
  const done = created.length;
  const showLogs = { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) };
  if (cancelled && !(isApiError(error) && error.kind !== 'aborted')) {
    return {
      kind: 'stopped',
      tasks: created,
      notSent: count - done,
      shown: showMessage('info', t('Shooting stopped: {0} of {1} shots were sent.', done, count)),
    };
  }
  log.warn(`Shooting the film stopped after ${done} of ${count} shots: ${describeError(error)}`);
  const lost = isApiError(error) && mayHaveCreated(error);
  const shown = lost
    ? showMessage('warning', t('The answer to shot {0} was lost: its task may exist (and be charged). Nothing more was sent.', done + 1), [
        { title: t('Track Video Task by ID'), run: () => vscode.commands.executeCommand(CommandIds.video.track) },
        showLogs,
      ])
    : showMessage(
        'error',
        t('Shot {0} of {1} could not be created: {2}', done + 1, count, joinSentences(describeError(error), isApiError(error) ? error.hint : undefined)),
        [showLogs],
      );
  return { kind: 'stopped', tasks: created, notSent: count - done - 1, shown };
}
