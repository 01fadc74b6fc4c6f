import { compileWildcard } from '../../../workspace/core/globMatcher';

/**
 * Whether `promptreel.chat.excludedTools` names a tool: exact names, or patterns with `*` (`mcp_github_*`), in any
 * case. A pattern is matched in time linear in the name, however many `*` it has.
 */
export function isExcludedTool(name: string, excluded: readonly string[]): boolean {
  return excluded.some((pattern) =>
    pattern.includes('*') ? compileWildcard(pattern, { ignoreCase: true }).matches(name) : pattern.toLowerCase() === name.toLowerCase(),
  );
}
