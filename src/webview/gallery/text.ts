import type { GalleryAction, StateFilter } from '../../video/core/galleryProtocol';

// The words of the gallery page, in one place.

export const ACTION_LABELS: Record<GalleryAction, string> = {
  open: 'Open',
  download: 'Download',
  reveal: 'Reveal',
  regenerate: 'Regenerate',
  refresh: 'Refresh',
  goToSource: 'Go to Source',
  track: 'Track by ID',
  copyPrompt: 'Copy Prompt',
  copyId: 'Copy ID',
  remove: 'Remove',
};

export const FILTER_LABELS: Record<StateFilter, string> = {
  all: 'All states',
  running: 'Queued or running',
  done: 'Completed',
  failed: 'Failed',
  other: 'Stale or answer lost',
};

export const Text = {
  stateFilter: 'State',
  modelFilter: 'Model',
  allModels: 'All models',
  empty: 'No video tasks yet. Make one with Promptreel: Generate Video, Generate Video Variants or Generate Video from Recipe.',
  nothingMatches: 'No task matches these filters.',
  shown: (shown: number, total: number) => (shown === total ? `${total} task${total === 1 ? '' : 's'}` : `${shown} of ${total} tasks`),
  compare: (selected: number) => (selected === 2 ? 'Compare the 2 selected' : `Select ${2 - selected} more to compare`),
  select: 'Compare',
  selectHint: 'Pick two downloaded videos to compare them side by side',
  playBoth: 'Play Both',
  closeCompare: 'Close Comparison',
  compareTitle: 'Side by side',
  notDownloaded: (state: string) => `${state}: no video here yet`,
  cannotPlay: 'This video cannot be played here',
  playHint: 'Hover to play, click to play or pause',
};
