import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isApiError } from '../../api/errors';
import { mayHaveCreated } from '../../api/video/mayHaveCreated';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';
import { CommandIds } from '../../common/contributions';
import { describeError, type ComponentLogger } from '../../common/logger';
import type { Settings } from '../../config/settings';
import type { Connection } from '../../connection/connection';
import { confirmChargeInModal, type ModalWording } from '../../workbench/chargeConfirmation';
import { ensureReady } from '../../workbench/readiness';
import { showMessage, type ShownMessage } from '../../workbench/showMessage';
import { defaultOptions } from '../core/videoOptions';
import type { VideoModelLimits } from '../core/videoModelLimits';
import type { FirstFrame, TaskGroup, TaskSource, VideoTaskRecord } from '../core/videoTaskRecord';
import { limitsOf } from '../modelLimits';
import type { VideoCreator } from '../videoCreator';
import { filmRequests, shotProblems, shotsToShoot, type ShootWhich, type ShotRequestOptions } from './core/filmRequests';
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
  | { kind: 'not-ready' }
  | { kind: 'nothing' };

export interface ShootHooks {
  /** Records the task made for a shot in the film's file, as soon as it is made. */
  recordTask(shotId: string, task: VideoTaskRecord): Promise<void>;
  /**
   * The last frame of a shot's video, once its task is made and its file downloaded, saved beside the storyboard:
   * the next shot's first frame (a first-frame model). Rejects when the shot failed, or on `signal`.
   */
  lastFrame(shotId: string, signal: AbortSignal): Promise<FirstFrame>;
  /** The group the shots' tasks join (a shot shot again joins its film's), else a new one. */
  groupId?: string;
  /** The editor's Stop: like the progress notification's Cancel, nothing more is sent. */
  stop?: AbortSignal;
}

/**
 * How the film's shots are asked for: for a model that takes a first frame, each shot after the first starts from
 * the last frame of the one before (the chain); otherwise every shot carries the previous shot's prompt.
 */
export function shotOptions(settings: Settings, limits: VideoModelLimits): ShotRequestOptions {
  return {
    defaults: defaultOptions(settings.video),
    firstFrame: limits.firstFrame,
    ...(limits.maxPromptLength !== undefined ? { maxPromptLength: limits.maxPromptLength } : {}),
  };
}

/**
 * Shoot the film (or some of its shots): one modal with the charge gate's total for those shots; then one POST per
 * shot, in order, never retried, each task grouped with the film's and its id written to the film's file
 * (`recordTask`) as soon as it is made. For a first-frame model the shots are made one after another: each waits
 * until the shot before is made and downloaded, and is sent with its last frame (the gate hands it out only so).
 */
export async function shootFilm(
  deps: FilmShootDeps,
  film: { file: vscode.Uri; storyboard: Storyboard },
  which: ShootWhich,
  hooks: ShootHooks,
): Promise<ShootOutcome> {
  const { storyboard } = film;
  const indexes = shotsToShoot(storyboard, which);
  if (indexes.length === 0) return { kind: 'nothing' };
  if (!(await ensureReady(deps.connection, t('Shooting a film')))) return { kind: 'not-ready' };
  const limits = await limitsOf(deps.settings, deps.connection, storyboard.model);
  const options = shotOptions(deps.settings, limits);
  const requests = filmRequests(storyboard, options, indexes);
  const count = requests.length;
  const chained = options.firstFrame && indexes.some((index) => index > 0);
  const problems = shotProblems(storyboard, options, limits);
  const checked = indexes.flatMap((index) => (problems[index] ? [t('Shot {0}: {1}', index + 1, problems[index])] : []));
  const asked = wording(storyboard, which, indexes, chained);
  const approval = await confirmChargeInModal(await deps.connection.videoCharges(), requests, { ...asked, lines: [...asked.lines, ...checked] });
  if (!approval) return { kind: 'cancelled' };
  const groupId = hooks.groupId ?? `film-${randomUUID()}`;
  const source = taskSource(film.file, storyboard);
  const created: VideoTaskRecord[] = [];
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Shooting "{0}"…', storyboard.name), cancellable: true },
    async (progress, token): Promise<ShootOutcome> => {
      const controller = new AbortController();
      const cancelled = token.onCancellationRequested(() => controller.abort());
      const stop = () => controller.abort();
      hooks.stop?.addEventListener('abort', stop);
      if (hooks.stop?.aborted) controller.abort();
      try {
        for (const index of indexes) {
          const shot = storyboard.shots[index];
          const group: TaskGroup = { id: groupId, label: t('Film: {0}', storyboard.name), index, count: storyboard.shots.length };
          let firstFrame: FirstFrame | undefined;
          if (options.firstFrame && index > 0) {
            progress.report({ message: t('Shot {0} of {1}: waiting for the last frame of shot {2}', index + 1, storyboard.shots.length, index) });
            try {
              firstFrame = await hooks.lastFrame(storyboard.shots[index - 1].id, controller.signal);
            } catch (error) {
              return stopped(deps.log, error, { created, count, shot: index + 1, sentThisOne: false, cancelled: controller.signal.aborted });
            }
          }
          progress.report({ message: t('Shot {0} of {1}', index + 1, storyboard.shots.length), increment: 100 / count });
          let task: VideoTaskRecord;
          try {
            // The signal stops only what is not sent yet: a request on its way runs to its answer.
            task = await deps.creator.createOrThrow(approval, {
              group,
              signal: controller.signal,
              ...(source ? { source } : {}),
              ...(firstFrame ? { firstFrame } : {}),
            });
          } catch (error) {
            return stopped(deps.log, error, { created, count, shot: index + 1, sentThisOne: true, cancelled: controller.signal.aborted });
          }
          created.push(task);
          await hooks.recordTask(shot.id, task);
        }
        vscode.window.setStatusBarMessage(t('Promptreel: the {0} shots of "{1}" are being made.', count, storyboard.name), 5000);
        return { kind: 'shot', tasks: created };
      } finally {
        cancelled.dispose();
        hooks.stop?.removeEventListener('abort', stop);
      }
    },
  );
}

/** The confirmation's words: what is shot, in how many requests, and how the chain makes them. */
function wording(storyboard: Storyboard, which: ShootWhich, indexes: number[], chained: boolean): ModalWording {
  const count = indexes.length;
  const seconds = indexes.reduce((sum, index) => sum + storyboard.shots[index].seconds, 0);
  const chain = chained ? t('The shots are made one after another, each from the last frame of the one before.') : undefined;
  if (which.kind === 'again') {
    const index = indexes[0];
    return {
      title: t('Shoot shot {0} of "{1}" again?', index + 1, storyboard.name),
      lines: [
        t('{0} · {1} s', storyboard.model, seconds),
        t('One video request, sent once and never retried.'),
        chained ? t('It starts from the last frame of shot {0}.', index) : undefined,
      ].filter((line): line is string => line !== undefined),
      action: t('Shoot Again'),
    };
  }
  return {
    title:
      which.kind !== 'rest'
        ? t('Shoot the film "{0}"?', storyboard.name)
        : count === 1
          ? t('Shoot the shot of "{0}" not sent yet?', storyboard.name)
          : t('Shoot the {0} shots of "{1}" not sent yet?', count, storyboard.name),
    lines: [
      t('{0} · {1} shots · {2} s in all', storyboard.model, count, which.kind === 'film' ? plannedSeconds(storyboard) : seconds),
      t('Each shot is one video request, sent once and never retried.'),
      ...(chain ? [chain] : []),
    ],
    action: count === 1 ? t('Shoot 1 Shot') : t('Shoot {0} Shots', count),
  };
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

interface StopPlace {
  created: VideoTaskRecord[];
  /** How many shots this Shoot was to send. */
  count: number;
  /** The film's shot (1-based) that was not sent, or whose request failed. */
  shot: number;
  /** Its request was sent (and failed); else it was stopped before. */
  sentThisOne: boolean;
  cancelled: boolean;
}

function stopped(log: ComponentLogger, error: unknown, place: StopPlace): ShootOutcome {
  const { created, count, shot, sentThisOne, cancelled } = place;
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
  if (!sentThisOne) {
    return {
      kind: 'stopped',
      tasks: created,
      notSent: count - done,
      shown: showMessage(
        'error',
        joinSentences(
          t('Shot {0} was not sent: {1}', shot, describeError(error)),
          t('Nothing more was sent; shoot the shots left from the storyboard editor.'),
        ),
        [showLogs],
      ),
    };
  }
  const lost = isApiError(error) && mayHaveCreated(error);
  const shown = lost
    ? showMessage('warning', t('The answer to shot {0} was lost: its task may exist (and be charged). Nothing more was sent.', shot), [
        { title: t('Track Video Task by ID'), run: () => vscode.commands.executeCommand(CommandIds.video.track) },
        showLogs,
      ])
    : showMessage(
        'error',
        t('Shot {0} of {1} could not be created: {2}', shot, count, joinSentences(describeError(error), isApiError(error) ? error.hint : undefined)),
        [showLogs],
      );
  return { kind: 'stopped', tasks: created, notSent: count - done - 1, shown };
}
