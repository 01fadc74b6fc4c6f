/**
 * What the user can do about a failure, in one vocabulary for every surface: a notification's buttons, the chat
 * panel's, `@promptreel`'s, Test Connection's. Each surface maps an action to its own button (or command).
 */
export const RECOVERY_ACTIONS = [
  'retry',
  'setApiKey',
  'useThisService',
  'openSettings',
  'selectChatModel',
  'chooseVideoModel',
  'testConnection',
  'showLogs',
  'trackVideoTask',
] as const;
export type RecoveryAction = (typeof RECOVERY_ACTIONS)[number];
