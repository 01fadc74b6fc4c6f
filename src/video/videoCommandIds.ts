/** Every command of the video feature; package.json declares the same ids. */
export const VideoCommandIds = {
  generate: 'promptreel.generateVideo',
  generateExplainer: 'promptreel.generateExplainerVideo',
  track: 'promptreel.trackVideoTask',
  refreshAll: 'promptreel.refreshVideoTasks',
  clearFinished: 'promptreel.clearFinishedVideoTasks',
  generateVariants: 'promptreel.generateVideoVariants',
  generateFromRecipe: 'promptreel.generateVideoFromRecipe',
  animateImage: 'promptreel.animateImage',
  openGallery: 'promptreel.openVideoGallery',
  // Item commands (context menus of the Video Tasks view; hidden from the palette).
  download: 'promptreel.video.download',
  open: 'promptreel.video.open',
  reveal: 'promptreel.video.reveal',
  copyId: 'promptreel.video.copyTaskId',
  copyPrompt: 'promptreel.video.copyPrompt',
  regenerate: 'promptreel.video.regenerate',
  refresh: 'promptreel.video.refresh',
  remove: 'promptreel.video.remove',
  goToSource: 'promptreel.video.goToSource',
} as const;

export const VIDEO_TASKS_VIEW = 'promptreel.videoTasks';
