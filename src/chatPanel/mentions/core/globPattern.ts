// Glob patterns as VS Code settings (`files.exclude`, `search.exclude`) and `.gitignore` files write them, turned into
// regular expressions over `/`-separated relative paths.

/** `**` crosses folders, `*` and `?` stay within one, `{a,b}` is either; brackets pass through. */
export function globToRegExpSource(glob: string): string {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        source += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '{') {
      const close = glob.indexOf('}', i);
      if (close < 0) source += '\\{';
      else {
        source += `(?:${glob
          .slice(i + 1, close)
          .split(',')
          .map(globToRegExpSource)
          .join('|')})`;
        i = close;
      }
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) source += '\\[';
      else {
        const body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
        source += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else if (char === '\\' && i + 1 < glob.length) source += escape(glob[++i]!);
    else source += escape(char);
  }
  return source;
}

function escape(char: string): string {
  return /[.+^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}

/**
 * The patterns of a `files.exclude`-style setting that are on (`true`; a `when` clause counts as on, the safe side
 * for what the model sees), as one test over relative paths. A pattern without `/` matches at any depth only when it
 * starts with `**`, as in VS Code.
 */
export function excludeMatcher(settings: readonly Record<string, unknown>[]): (relativePath: string) => boolean {
  const sources: string[] = [];
  for (const setting of settings) {
    for (const [glob, value] of Object.entries(setting)) {
      if (value === false || value === null || value === undefined) continue;
      const trimmed = glob.replace(/^\.\//, '').replace(/\/+$/, '');
      if (trimmed) sources.push(globToRegExpSource(trimmed));
    }
  }
  if (sources.length === 0) return () => false;
  // A folder's pattern also excludes what is inside it.
  const test = new RegExp(`^(?:${sources.join('|')})(?:/.*)?$`);
  return (relativePath) => test.test(relativePath);
}

/** The same patterns as one glob for `workspace.findFiles`' exclude argument. */
export function excludeGlob(settings: readonly Record<string, unknown>[]): string | undefined {
  const globs = new Set<string>();
  for (const setting of settings)
    for (const [glob, value] of Object.entries(setting)) if (value !== false && value !== null && value !== undefined) globs.add(glob);
  return globs.size ? `{${[...globs].join(',')}}` : undefined;
}
