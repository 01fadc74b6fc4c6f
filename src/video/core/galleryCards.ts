import { formatUsd } from '../../api/account/prices';
import { t } from '../../api/l10n';
import type { CardState, GalleryAction, GalleryCard, GalleryEntry } from '../gallery/protocol';
import { describeGroup, taskGroups } from './taskGroups';
import { displayState, displayStateName, isFollowedHere } from './taskModel';
import type { VideoTaskRecord } from './videoTaskRecord';

/** What the host knows of each task beyond its record: whether its file is there, and its address in the webview. */
export interface CardContext {
  service: string | undefined;
  /** The webview address of each downloaded file that is still there, by task id. */
  videoSources: ReadonlyMap<string, string>;
  /** The price of a model now, for tasks made before they kept theirs. */
  priceOf: (model: string) => number | undefined;
  formatTime: (epochMs: number) => string;
}

/** The task list as the gallery shows it: the tree's order and groups, one card per task. */
export function galleryEntries(tasks: readonly VideoTaskRecord[], context: CardContext): GalleryEntry[] {
  return taskGroups(tasks).map((entry) =>
    entry.kind === 'task'
      ? { kind: 'card', card: galleryCard(entry.task, context) }
      : {
          kind: 'group',
          group: { id: entry.id, label: entry.label, summary: describeGroup(entry.tasks), cards: entry.tasks.map((task) => galleryCard(task, context)) },
        },
  );
}

export function galleryCard(task: VideoTaskRecord, context: CardContext): GalleryCard {
  const videoSrc = context.videoSources.get(task.id);
  const state = displayState(task, videoSrc !== undefined);
  const elsewhere = !isFollowedHere(task, context.service);
  const price = task.priceUsd ?? (task.model ? context.priceOf(task.model) : undefined);
  const progress = (state === 'running' || state === 'queued') && task.progress ? ` · ${task.progress}%` : '';
  const note = state === 'failed' ? (task.error ?? t('the service gave no reason')) : state === 'unconfirmed' ? task.error : task.lastPollError;
  return {
    id: task.id,
    state,
    stateLabel: elsewhere ? elsewhereLabel(displayStateName(state), task.service) : `${displayStateName(state)}${progress}`,
    prompt: task.prompt ?? t('Task {0} (tracked by id: its prompt is not known)', task.id),
    model: task.model ?? t('unknown model'),
    ...(task.request?.seconds ? { duration: t('{0} s', task.request.seconds) } : {}),
    ...(price !== undefined || task.charged ? { price: cardPrice(price, task.charged?.usd) } : {}),
    created: context.formatTime(task.createdAt),
    ...(videoSrc && (task.downloadedUri || task.downloadedPath) ? { videoSrc, fileName: savedFileName(task) } : {}),
    ...(note ? { note } : {}),
    elsewhere,
    actions: cardActions(task, state, elsewhere),
  };
}

function elsewhereLabel(state: string, service: string | undefined): string {
  return service ? t('{0} · on {1}', state, service) : t('{0} · on another service', state);
}

/** The buttons of a card: the tree's item menu for the same state. */
/** `$0.40`, `$0.40 · charged $0.32`, or `charged $0.40` when no price was shown. */
function cardPrice(priceUsd: number | undefined, chargedUsd: number | undefined): string {
  if (chargedUsd === undefined) return formatUsd(priceUsd ?? 0);
  const charged = t('charged {0}', formatUsd(chargedUsd));
  return priceUsd === undefined ? charged : `${formatUsd(priceUsd)} · ${charged}`;
}

export function cardActions(task: VideoTaskRecord, state: CardState, elsewhere: boolean): GalleryAction[] {
  const copy: GalleryAction[] = [...(task.prompt ? ['copyPrompt' as const] : []), ...(state !== 'unconfirmed' ? ['copyId' as const] : [])];
  if (elsewhere) return [...copy, 'remove'];
  const byState: Record<CardState, GalleryAction[]> = {
    downloaded: ['open', 'reveal'],
    completed: ['download', 'open'],
    queued: ['refresh'],
    running: ['refresh'],
    stale: ['refresh'],
    failed: [],
    unconfirmed: ['track'],
  };
  return [
    ...byState[state],
    ...(task.request && state !== 'unconfirmed' ? ['regenerate' as const] : []),
    ...(task.source ? ['goToSource' as const] : []),
    ...copy,
    'remove',
  ];
}

/** Every model of the list, for the model filter. */
export function galleryModels(tasks: readonly VideoTaskRecord[]): string[] {
  return [...new Set(tasks.map((task) => task.model ?? t('unknown model')))].sort();
}

/** The saved file's name, from its URI (percent-encoded) or, for tasks saved by earlier versions, its local path. */
function savedFileName(task: VideoTaskRecord): string | undefined {
  if (task.downloadedUri) {
    const last = task.downloadedUri.split('/').pop() ?? '';
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  }
  return task.downloadedPath?.split(/[\\/]/).pop();
}
