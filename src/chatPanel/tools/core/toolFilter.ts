/** Whether `promptreel.chat.excludedTools` names a tool: exact names, or patterns with `*` (`mcp_github_*`). */
export function isExcludedTool(name: string, excluded: readonly string[]): boolean {
  return excluded.some((pattern) =>
    pattern.includes('*') ? new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 'i').test(name) : pattern.toLowerCase() === name.toLowerCase(),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
