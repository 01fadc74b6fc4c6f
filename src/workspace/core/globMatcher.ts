// Globs (`files.exclude`, `.gitignore`, a search's `include`, `chat.excludedTools`) matched in time linear in the text
// whatever the pattern. A pattern is compiled to a small automaton (Thompson's construction) and run over the text
// with the set of states it can be in, never backtracking; the sets met are kept as the states of a DFA built while
// matching, so a path costs about one table lookup per character. (A glob compiled to a JavaScript regular expression
// backtracks: one `.gitignore` line of twenty `*` took a minute for a single path, on the extension host's thread.)

/** Counts the work of matching, for the tests that check it grows with the text and not faster. */
export interface MatchMeter {
  steps: number;
}

export interface GlobMatcher {
  /** The automaton's states (the pattern's size, as the matcher sees it). */
  readonly size: number;
  matches(text: string, meter?: MatchMeter): boolean;
  /**
   * Whether each prefix of the text that ends before a `/`, and then the whole text, matches: one pass over the text
   * answers what `.gitignore` asks of a path and of each of its folders.
   */
  matchesAtFolders(text: string): boolean[];
}

type CharTest = (code: number) => boolean;

export type GlobPattern =
  | { kind: 'char'; test: CharTest }
  | { kind: 'seq'; items: GlobPattern[] }
  | { kind: 'alt'; options: GlobPattern[] }
  | { kind: 'star'; item: GlobPattern }
  | { kind: 'optional'; item: GlobPattern };

const SLASH = 47;
const anyChar: CharTest = () => true;
const notSlash: CharTest = (code) => code !== SLASH;
const anything: GlobPattern = { kind: 'star', item: { kind: 'char', test: anyChar } };

function literal(text: string): GlobPattern {
  return { kind: 'seq', items: [...text].map((char) => charPattern(char)) };
}

function charPattern(char: string): GlobPattern {
  const code = char.charCodeAt(0);
  return { kind: 'char', test: (other) => other === code };
}

export interface GlobOptions {
  /** Letters match in either case (the pattern and the text are compared in lower case). */
  ignoreCase?: boolean;
}

/**
 * A glob as VS Code settings and `.gitignore` files write it, over `/`-separated relative paths: `**` crosses folders
 * (`**` followed by `/` stands for any number of whole folders), `*` and `?` stay within one, `{a,b}` is either,
 * `[a-z]` and `[!a-z]` are classes, `\` escapes.
 */
export function parseGlob(glob: string, { ignoreCase = false }: GlobOptions = {}): GlobPattern {
  return parseSequence(ignoreCase ? glob.toLowerCase() : glob, 0, glob.length);
}

function parseSequence(glob: string, start: number, end: number): GlobPattern {
  const items: GlobPattern[] = [];
  for (let i = start; i < end; i++) {
    const char = glob[i]!;
    if (char === '*') {
      if (glob[i + 1] === '*' && i + 1 < end) {
        const slashAfter = glob[i + 2] === '/' && i + 2 < end;
        items.push(slashAfter ? { kind: 'optional', item: { kind: 'seq', items: [anything, charPattern('/')] } } : anything);
        i += slashAfter ? 2 : 1;
      } else items.push({ kind: 'star', item: { kind: 'char', test: notSlash } });
    } else if (char === '?') items.push({ kind: 'char', test: notSlash });
    else if (char === '{') {
      const close = closingBrace(glob, i, end);
      if (close < 0) items.push(charPattern(char));
      else {
        items.push({ kind: 'alt', options: topLevelCommas(glob, i + 1, close).map(([from, to]) => parseSequence(glob, from, to)) });
        i = close;
      }
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0 || close >= end) items.push(charPattern(char));
      else {
        items.push({ kind: 'char', test: charClass(glob.slice(i + 1, close)) });
        i = close;
      }
    } else if (char === '\\' && i + 1 < end) items.push(charPattern(glob[++i]!));
    else items.push(charPattern(char));
  }
  return { kind: 'seq', items };
}

function closingBrace(glob: string, open: number, end: number): number {
  let depth = 0;
  for (let i = open; i < end; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function topLevelCommas(glob: string, start: number, end: number): [number, number][] {
  const parts: [number, number][] = [];
  let depth = 0;
  let from = start;
  for (let i = start; i < end; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '{') depth++;
    else if (glob[i] === '}') depth--;
    else if (glob[i] === ',' && depth === 0) {
      parts.push([from, i]);
      from = i + 1;
    }
  }
  parts.push([from, end]);
  return parts;
}

/** `a-z0-9_`, negated by a leading `!` or `^`; in a pattern matched in lower case, an upper-case text letter counts too. */
function charClass(body: string): CharTest {
  const negated = body.startsWith('!') || body.startsWith('^');
  const chars = negated ? body.slice(1) : body;
  const ranges: [number, number][] = [];
  for (let i = 0; i < chars.length; i++) {
    const from = chars.charCodeAt(i);
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      ranges.push([from, chars.charCodeAt(i + 2)]);
      i += 2;
    } else ranges.push([from, from]);
  }
  return (code) => ranges.some(([from, to]) => code >= from && code <= to) !== negated;
}

/** Any of the globs, as a whole path or as a folder of it (what an exclude setting hides). */
export function anyGlobOrBelow(globs: readonly string[]): GlobPattern {
  return {
    kind: 'seq',
    items: [
      { kind: 'alt', options: globs.map((glob) => parseGlob(glob)) },
      { kind: 'optional', item: { kind: 'seq', items: [charPattern('/'), anything] } },
    ],
  };
}

/** The glob at any depth: preceded by any number of whole folders (a `.gitignore` pattern without a `/`). */
export function atAnyDepth(pattern: GlobPattern): GlobPattern {
  return { kind: 'seq', items: [{ kind: 'optional', item: { kind: 'seq', items: [anything, charPattern('/')] } }, pattern] };
}

/** A name with `*` for any run of characters and nothing else special (`mcp_github_*`). */
export function parseWildcard(pattern: string, { ignoreCase = false }: GlobOptions = {}): GlobPattern {
  const text = ignoreCase ? pattern.toLowerCase() : pattern;
  const items: GlobPattern[] = [];
  text.split('*').forEach((part, index) => {
    if (index > 0) items.push(anything);
    items.push(literal(part));
  });
  return { kind: 'seq', items };
}

/** More DFA states than this are forgotten and built again as needed: memory stays bounded, matching stays linear. */
const MAX_DFA_STATES = 4_096;
const ASCII = 128;

interface DfaState {
  /** The automaton's character tests this state waits on, sorted. */
  readonly nodes: readonly number[];
  readonly accepts: boolean;
  readonly ascii: (DfaState | undefined)[];
  readonly other: Map<number, DfaState>;
}

/** Compiles a pattern (`parseGlob`, `parseWildcard`, …) into a matcher. */
export function compilePattern(pattern: GlobPattern, { ignoreCase = false }: GlobOptions = {}): GlobMatcher {
  // The automaton: a node tests one character and goes on to `next`, or splits into `next` and `other` without
  // reading anything. The last node accepts.
  const tests: (CharTest | undefined)[] = [];
  const next: number[] = [];
  const other: number[] = [];
  const add = (test: CharTest | undefined, to: number, alternative = -1): number => {
    tests.push(test);
    next.push(to);
    other.push(alternative);
    return tests.length - 1;
  };
  const ACCEPT = add(undefined, -1);
  const build = (part: GlobPattern, then: number): number => {
    switch (part.kind) {
      case 'char':
        return add(part.test, then);
      case 'seq':
        return part.items.reduceRight((to, item) => build(item, to), then);
      case 'optional':
        return add(undefined, build(part.item, then), then);
      case 'alt': {
        const starts = part.options.map((option) => build(option, then));
        return starts.length === 0 ? then : starts.slice(1).reduce((rest, start) => add(undefined, start, rest), starts[0]!);
      }
      case 'star': {
        const loop = add(undefined, -1, then);
        next[loop] = build(part.item, loop);
        return loop;
      }
    }
  };
  const start = build(pattern, ACCEPT);

  const seen = new Int32Array(tests.length);
  let generation = 0;
  let states = new Map<string, DfaState>();
  let initial: DfaState | undefined;
  /** The state for these nodes with every split followed. */
  const closure = (from: readonly number[], meter: MatchMeter | undefined): DfaState => {
    generation++;
    const found: number[] = [];
    let accepts = false;
    const stack = [...from];
    while (stack.length) {
      const node = stack.pop()!;
      if (node < 0 || seen[node] === generation) continue;
      seen[node] = generation;
      if (meter) meter.steps++;
      if (node === ACCEPT) accepts = true;
      else if (tests[node]) found.push(node);
      else stack.push(next[node]!, other[node]!);
    }
    found.sort((a, b) => a - b);
    const key = `${accepts ? '+' : '-'}${found.join(',')}`;
    const known = states.get(key);
    if (known) return known;
    if (states.size >= MAX_DFA_STATES) {
      states = new Map();
      initial = undefined;
    }
    const state: DfaState = { nodes: found, accepts, ascii: new Array<DfaState | undefined>(ASCII), other: new Map() };
    states.set(key, state);
    return state;
  };
  const step = (state: DfaState, code: number, meter: MatchMeter | undefined): DfaState => {
    if (meter) meter.steps++;
    const cached = code < ASCII ? state.ascii[code] : state.other.get(code);
    if (cached) return cached;
    const targets: number[] = [];
    for (const node of state.nodes) {
      if (meter) meter.steps++;
      if (tests[node]!(code)) targets.push(next[node]!);
    }
    const target = closure(targets, meter);
    if (code < ASCII) state.ascii[code] = target;
    else state.other.set(code, target);
    return target;
  };
  const begin = (meter: MatchMeter | undefined): DfaState => (initial ??= closure([start], meter));
  const fold = (text: string): string => (ignoreCase ? text.toLowerCase() : text);

  return {
    size: tests.length,
    matches(text, meter) {
      const folded = fold(text);
      let state = begin(meter);
      for (let i = 0; i < folded.length; i++) {
        state = step(state, folded.charCodeAt(i), meter);
        if (state.nodes.length === 0) return state.accepts && i === folded.length - 1;
      }
      return state.accepts;
    },
    matchesAtFolders(text) {
      const folded = fold(text);
      const answers: boolean[] = [];
      let state = begin(undefined);
      for (let i = 0; i < folded.length; i++) {
        const code = folded.charCodeAt(i);
        if (code === SLASH) answers.push(state.accepts);
        state = step(state, code, undefined);
      }
      answers.push(state.accepts);
      return answers;
    },
  };
}

/** `parseGlob` then `compilePattern`. */
export function compileGlob(glob: string, options: GlobOptions = {}): GlobMatcher {
  return compilePattern(parseGlob(glob, options), options);
}

/** `parseWildcard` then `compilePattern`. */
export function compileWildcard(pattern: string, options: GlobOptions = {}): GlobMatcher {
  return compilePattern(parseWildcard(pattern, options), options);
}
