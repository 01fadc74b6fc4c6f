/** Every command the shell contributes; package.json declares the same ids (a host test compares them). */
export const CommandIds = {
  setApiKey: 'promptreel.setApiKey',
  clearApiKey: 'promptreel.clearApiKey',
  testConnection: 'promptreel.testConnection',
  selectChatModel: 'promptreel.selectChatModel',
  openSettings: 'promptreel.openSettings',
  showLogs: 'promptreel.showLogs',
} as const;
