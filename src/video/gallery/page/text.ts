import type { GalleryAction, StateFilter } from '../protocol';
import { pageLocale, t } from '../../../webviewPage/l10n';

// The words of the gallery page, in one place (read when the script starts: the translations are already in the page).

export const ACTION_LABELS: Record<GalleryAction, string> = {
  open: t('Open'),
  download: t('Download'),
  reveal: t('Reveal'),
  regenerate: t('Regenerate'),
  refresh: t('Refresh'),
  goToSource: t('Go to Source'),
  track: t('Track by ID'),
  copyPrompt: t('Copy Prompt'),
  copyId: t('Copy ID'),
  remove: t('Remove'),
};

export const FILTER_LABELS: Record<StateFilter, string> = {
  all: t('All states'),
  running: t('Queued or running'),
  done: t('Completed'),
  failed: t('Failed'),
  other: t('Stale or answer lost'),
};

/** Counts as the page's language writes them. */
const numbers = new Intl.NumberFormat(pageLocale());

export const Text = {
  stateFilter: t('State'),
  modelFilter: t('Model'),
  allModels: t('All models'),
  empty: t('No video tasks yet. Make one with Promptreel: Generate Video, Generate Video Variants or Generate Video from Recipe.'),
  nothingMatches: t('No task matches these filters.'),
  shown: (shown: number, total: number) =>
    shown !== total ? t('{0} of {1} tasks', numbers.format(shown), numbers.format(total)) : total === 1 ? t('1 task') : t('{0} tasks', numbers.format(total)),
  compare: (selected: number) => (selected === 2 ? t('Compare the 2 selected') : t('Select {0} more to compare', 2 - selected)),
  select: t('Compare'),
  selectHint: t('Pick two downloaded videos to compare them side by side'),
  playBoth: t('Play Both'),
  closeCompare: t('Close Comparison'),
  compareTitle: t('Side by side'),
  notDownloaded: (state: string) => t('{0}: no video here yet', state),
  cannotPlay: (error: string) => t('This video cannot be played here ({0}).', error),
  playHint: (fileName: string | undefined) => t('{0}: Hover to play, click to play or pause', fileName ?? t('video')),
};
