import { atAnyDepth, compilePattern, parseGlob, type GlobMatcher } from './globMatcher';

interface Rule {
  /** The folder of the `.gitignore` the rule comes from ('' for the workspace folder). */
  base: string;
  negated: boolean;
  directoryOnly: boolean;
  test: GlobMatcher;
}

/**
 * The rules of a workspace folder's `.gitignore` files, applied as git does for what the model may see: the last
 * matching rule wins, `!` re-includes, a trailing `/` matches folders only, a pattern with a `/` is anchored to its
 * file's folder, and nothing inside an ignored folder comes back.
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
    const depth = relativePath.split('/').length;
    // What the last matching rule said of the path's first 1, 2, … segments (each but the whole path is a folder).
    const verdicts: (boolean | undefined)[] = new Array(depth);
    for (const rule of this.rules) {
      if (rule.base && !relativePath.startsWith(`${rule.base}/`)) continue;
      const offset = rule.base ? rule.base.split('/').length : 0;
      const answers = rule.test.matchesAtFolders(rule.base ? relativePath.slice(rule.base.length + 1) : relativePath);
      answers.forEach((matched, index) => {
        const at = offset + index;
        if (matched && (!rule.directoryOnly || at < depth - 1 || isFolder)) verdicts[at] = !rule.negated;
      });
    }
    return verdicts.includes(true);
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
  const pattern = parseGlob(line);
  return { base, negated, directoryOnly, test: compilePattern(anchored ? pattern : atAnyDepth(pattern)) };
}
