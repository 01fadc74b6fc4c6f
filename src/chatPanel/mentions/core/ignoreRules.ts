import { globToRegExpSource } from './globPattern';

interface Rule {
  /** The folder of the `.gitignore` the rule comes from ('' for the workspace folder). */
  base: string;
  negated: boolean;
  directoryOnly: boolean;
  test: RegExp;
}

/**
 * The rules of a workspace's `.gitignore` files, applied as git does for what the model may see: the last matching
 * rule wins, `!` re-includes, a trailing `/` matches folders only, a pattern with a `/` is anchored to its file's
 * folder, and nothing inside an ignored folder comes back.
 */
export class IgnoreRules {
  private readonly rules: Rule[] = [];

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  /** Adds a `.gitignore` found in `base` (relative, '' for the root). */
  add(base: string, content: string): void {
    for (const raw of content.split(/\r?\n/)) {
      const rule = parseLine(base, raw);
      if (rule) this.rules.push(rule);
    }
  }

  ignores(relativePath: string, isFolder = false): boolean {
    if (this.rules.length === 0) return false;
    const segments = relativePath.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      if (this.matches(segments.slice(0, depth).join('/'), true)) return true;
    }
    return this.matches(relativePath, isFolder);
  }

  private matches(path: string, isFolder: boolean): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.directoryOnly && !isFolder) continue;
      if (rule.base && !path.startsWith(`${rule.base}/`)) continue;
      const relative = rule.base ? path.slice(rule.base.length + 1) : path;
      if (rule.test.test(relative)) ignored = !rule.negated;
    }
    return ignored;
  }
}

function parseLine(base: string, raw: string): Rule | undefined {
  let line = raw.replace(/(?<!\\)\s+$/, '');
  if (!line || line.startsWith('#')) return undefined;
  const negated = line.startsWith('!');
  if (negated) line = line.slice(1);
  if (line.startsWith('\\#') || line.startsWith('\\!')) line = line.slice(1);
  const directoryOnly = line.endsWith('/');
  if (directoryOnly) line = line.replace(/\/+$/, '');
  if (!line) return undefined;
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  const body = globToRegExpSource(line);
  return { base, negated, directoryOnly, test: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`) };
}
