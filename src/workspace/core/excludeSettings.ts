import { anyGlobOrBelow, compilePattern } from './globMatcher';

// `files.exclude` and `search.exclude`: objects whose keys are globs and whose values say whether each is on.

function globsOn(settings: readonly Record<string, unknown>[]): string[] {
  const globs = new Set<string>();
  for (const setting of settings)
    for (const [glob, value] of Object.entries(setting)) if (value !== false && value !== null && value !== undefined) globs.add(glob);
  return [...globs];
}

/**
 * The patterns that are on (`true`; a `when` clause counts as on, the safe side for what the model sees), as one test
 * over relative paths. A folder's pattern also excludes what is inside it. A pattern without `/` matches at any depth
 * only when it starts with `**`, as in VS Code.
 */
export function excludeMatcher(settings: readonly Record<string, unknown>[]): (relativePath: string) => boolean {
  const globs = globsOn(settings)
    .map((glob) => glob.replace(/^\.\//, '').replace(/\/+$/, ''))
    .filter(Boolean);
  if (globs.length === 0) return () => false;
  const matcher = compilePattern(anyGlobOrBelow(globs));
  return (relativePath) => matcher.matches(relativePath);
}

/** The same patterns as one glob for `workspace.findFiles`' exclude argument. */
export function excludeGlob(settings: readonly Record<string, unknown>[]): string | undefined {
  const globs = globsOn(settings);
  return globs.length ? `{${globs.join(',')}}` : undefined;
}
