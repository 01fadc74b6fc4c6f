export const AccountCommandIds = {
  refreshKeyHealth: 'promptreel.refreshKeyHealth',
} as const;
