/** What `promptreel_search_text` looks for, compiled once per search. */
export interface TextQuery {
  query: string;
  isRegExp?: boolean;
  caseSensitive?: boolean;
}

export interface TextMatch {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

/** A matched line longer than this is shown around the match. */
const LINE_CHARS = 240;

/**
 * A test per line, or why the query is not a usable regular expression. Compiling is safe on any thread; running a
 * model's regular expression is not (it may backtrack without end): `RegExpLineSearch` runs it.
 */
export function compileQuery({ query, isRegExp = false, caseSensitive = false }: TextQuery): RegExp | string {
  const source = isRegExp ? query : query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return new RegExp(source, caseSensitive ? '' : 'i');
  } catch (error) {
    return `The query is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The lines of a file that match, at most `limit`. */
export function matchLines(path: string, text: string, pattern: RegExp, limit: number): TextMatch[] {
  const found: TextMatch[] = [];
  if (!pattern.test(text)) return found;
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length && found.length < limit; index++) {
    const line = lines[index]!;
    const match = pattern.exec(line);
    if (match) found.push(lineMatch(path, line, index, match.index));
  }
  return found;
}

/** A match at `at` in the line of index `index` (0-based), as the model reads it. */
export function lineMatch(path: string, line: string, index: number, at: number): TextMatch {
  return { path, line: index + 1, text: excerpt(line, at) };
}

function excerpt(line: string, at: number): string {
  const trimmed = line.trim();
  if (trimmed.length <= LINE_CHARS) return trimmed;
  const start = Math.max(0, at - LINE_CHARS / 3);
  return `${start > 0 ? '…' : ''}${line.slice(start, start + LINE_CHARS).trim()}…`;
}

export function formatMatches(
  query: string,
  matches: readonly TextMatch[],
  { filesSearched, truncated }: { filesSearched: number; truncated: boolean },
): string {
  if (matches.length === 0) return `No match for "${query}" in ${filesSearched} file${filesSearched === 1 ? '' : 's'}.`;
  const files = new Set(matches.map((match) => match.path)).size;
  const heading = `${matches.length}${truncated ? '+' : ''} match${matches.length === 1 ? '' : 'es'} for "${query}" in ${files} file${files === 1 ? '' : 's'}${truncated ? ' (the first ones; narrow the search with include or a longer query)' : ''}:`;
  return [heading, ...matches.map((match) => `${match.path}:${match.line}: ${match.text}`)].join('\n');
}
