// Every id Promptreel contributes in package.json, in one table: commands, views, context keys, the chat participant,
// the language-model vendor and the tool. A host test checks that package.json declares exactly these commands.

export const CommandIds = {
  setApiKey: 'promptreel.setApiKey',
  confirmService: 'promptreel.confirmService',
  clearApiKey: 'promptreel.clearApiKey',
  testConnection: 'promptreel.testConnection',
  selectChatModel: 'promptreel.selectChatModel',
  openSettings: 'promptreel.openSettings',
  showLogs: 'promptreel.showLogs',
  refreshKeyHealth: 'promptreel.refreshKeyHealth',
  showUsage: 'promptreel.showUsage',
  manageLanguageModels: 'promptreel.manageLanguageModels',
  setSecretHeader: 'promptreel.setSecretHeader',
  removeSecretHeader: 'promptreel.removeSecretHeader',
  setClientCertificatePassphrase: 'promptreel.setClientCertificatePassphrase',
  chat: {
    askAboutSelection: 'promptreel.askAboutSelection',
    newChat: 'promptreel.newChat',
    openChatInEditor: 'promptreel.openChatInEditor',
    showChatHistory: 'promptreel.showChatHistory',
    exportChat: 'promptreel.exportChat',
    importChat: 'promptreel.importChat',
  },
  editor: {
    completeAtCursor: 'promptreel.completeAtCursor',
    rewriteSelection: 'promptreel.rewriteSelection',
    cancelEditorStream: 'promptreel.cancelEditorStream',
    retryEditorStreamNow: 'promptreel.retryEditorStreamNow',
    acceptRewrite: 'promptreel.acceptRewrite',
    rejectRewrite: 'promptreel.rejectRewrite',
  },
  video: {
    generate: 'promptreel.generateVideo',
    generateExplainer: 'promptreel.generateExplainerVideo',
    generateExplainerFilm: 'promptreel.generateExplainerFilm',
    playFilm: 'promptreel.playFilm',
    openStoryboard: 'promptreel.openStoryboard',
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
  },
} as const;

/** Every command id of the table, flat. */
export function allCommandIds(): string[] {
  const ids: string[] = [];
  const collect = (group: object) => Object.values(group).forEach((value) => (typeof value === 'string' ? ids.push(value) : collect(value as object)));
  collect(CommandIds);
  return ids;
}

export const ViewIds = {
  chat: 'promptreel.chat',
  videoTasks: 'promptreel.videoTasks',
  chatPanel: 'promptreel.chatPanel',
  videoGallery: 'promptreel.videoGallery',
  videoPlayer: 'promptreel.videoPlayer',
  filmEditor: 'promptreel.filmEditor',
  usage: 'promptreel.usage',
} as const;

export const ContextKeys = {
  /** True while text streams into an editor (Escape stops it). */
  editorStreaming: 'promptreel.editorStreaming',
  /** True while a run into the editor waits out HTTP 429 (Retry Now is offered). */
  editorRateLimited: 'promptreel.editorRateLimited',
} as const;

/** The `@promptreel` chat participant, and its slash commands. */
export const PARTICIPANT_ID = 'promptreel.participant';
export const ParticipantCommands = { explain: 'explain', video: 'video', film: 'film' } as const;
/** The vendor of `languageModelChatProviders`. */
export const LANGUAGE_MODEL_VENDOR = 'promptreel';
/** The video tool of VS Code's agent (`languageModelTools`). */
export const VIDEO_TOOL_NAME = 'promptreel_generateVideo';
