// Fuzzy matching for the mention popup, in the manner of VS Code's Quick Open: the query's characters must appear in
// order (case-insensitive); a match scores more at word starts, in a run, and in the file name rather than its folder.

export interface FuzzyMatch {
  score: number;
  /** Indexes into the candidate of the matched characters. */
  matches: number[];
}

const WORD_START_BONUS = 8;
const RUN_BONUS = 5;
const FIRST_CHAR_BONUS = 6;
const NAME_BONUS = 4;
const CASE_BONUS = 1;
const GAP_PENALTY = 1;

function isSeparator(code: number): boolean {
  // / \ . _ - space
  return code === 47 || code === 92 || code === 46 || code === 95 || code === 45 || code === 32;
}

function isWordStart(candidate: string, index: number): boolean {
  if (index === 0) return true;
  const previous = candidate.charCodeAt(index - 1);
  if (isSeparator(previous)) return true;
  const current = candidate.charCodeAt(index);
  // camelCase: an upper-case letter after a lower-case one.
  return current >= 65 && current <= 90 && previous >= 97 && previous <= 122;
}

/**
 * Matches `query` (already lower-cased, spaces removed) against `candidate`, trying the file name first (the part after
 * the last `/`), so `app` finds `src/app.ts` before `apps/x/index.ts`. Undefined when the characters do not appear in order.
 */
export function fuzzyMatch(queryLower: string, candidate: string, candidateLower = candidate.toLowerCase()): FuzzyMatch | undefined {
  const best = bestAlignment(queryLower, candidate, candidateLower);
  if (!best) return undefined;
  const matches: number[] = [];
  const score = greedy(queryLower, candidate, candidateLower, best.from, matches)!;
  return { score: score + best.bonus, matches };
}

/** The score `fuzzyMatch` gives, without the matched positions (nothing allocated: the index scores every file). */
export function fuzzyScore(queryLower: string, candidate: string, candidateLower = candidate.toLowerCase()): number | undefined {
  return bestAlignment(queryLower, candidate, candidateLower)?.score;
}

/** Where the match starts (the file name, or the whole path), its score and the file name's bonus in it. */
function bestAlignment(queryLower: string, candidate: string, candidateLower: string): { from: number; score: number; bonus: number } | undefined {
  if (!queryLower) return { from: 0, score: 0, bonus: 0 };
  if (queryLower.length > candidate.length) return undefined;
  const nameStart = candidateLower.lastIndexOf('/') + 1;
  // Quick rejection: every character must occur in order somewhere.
  let probe = 0;
  for (let i = 0; i < queryLower.length; i++) {
    probe = candidateLower.indexOf(queryLower[i]!, probe);
    if (probe < 0) return undefined;
    probe++;
  }
  const inName = nameStart > 0 ? greedy(queryLower, candidate, candidateLower, nameStart) : undefined;
  const whole = greedy(queryLower, candidate, candidateLower, 0);
  const nameBonus = NAME_BONUS * queryLower.length;
  if (inName !== undefined && (whole === undefined || inName + nameBonus >= whole)) return { from: nameStart, score: inName + nameBonus, bonus: nameBonus };
  return whole === undefined ? undefined : { from: 0, score: whole, bonus: 0 };
}

/**
 * One left-to-right pass that prefers, for each query character, a word start or the continuation of a run over the
 * first occurrence. Not the optimal alignment, but stable and linear; the ranking it gives is what users expect.
 * Pushes the matched positions into `matches` when given.
 */
function greedy(query: string, candidate: string, lower: string, from: number, matches?: number[]): number | undefined {
  let score = 0;
  let position = from;
  let previous = -2;
  for (let q = 0; q < query.length; q++) {
    const char = query[q]!;
    const first = lower.indexOf(char, position);
    if (first < 0) return undefined;
    let chosen = first;
    if (first !== previous + 1) {
      // Look ahead for a word start with this character before settling for a mid-word match.
      for (let i = first; i >= 0 && i < lower.length; i = lower.indexOf(char, i + 1)) {
        if (isWordStart(candidate, i)) {
          chosen = i;
          break;
        }
      }
    }
    if (chosen === previous + 1) score += RUN_BONUS;
    else if (q > 0) score -= Math.min(GAP_PENALTY * (chosen - previous - 1), 10);
    if (isWordStart(candidate, chosen)) score += WORD_START_BONUS;
    if (chosen === from) score += FIRST_CHAR_BONUS;
    if (candidate[chosen] === query[q]) score += CASE_BONUS;
    matches?.push(chosen);
    previous = chosen;
    position = chosen + 1;
  }
  // Shorter candidates win ties: `app.ts` before `application.test.ts`.
  return score * 4 - Math.min(candidate.length, 100) / 8;
}

/** The query as matched: lower case, without spaces (`src app` finds `src/app.ts`). */
export function normalizeQuery(query: string): string {
  return query.toLowerCase().replace(/\s+/g, '');
}
