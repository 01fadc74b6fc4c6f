import * as z from 'zod/mini';
import { videoSecondsSchema, videoSeedSchema, MAX_VIDEO_SEED } from '../../api/video/request';
import { t } from '../../api/l10n';

/** One task of Generate Variants: its prompt, and what it changes of the shared options. */
export interface Variant {
  prompt: string;
  seed?: number;
  seconds?: string;
}

/**
 * `count` variants of one prompt, each with its own seed (so each can be made again): from the chosen seed upwards,
 * or from a random one when none is set.
 */
export function seedVariants(prompt: string, count: number, baseSeed: number | undefined, random: () => number = Math.random): Variant[] {
  const start = baseSeed ?? Math.floor(random() * (MAX_VIDEO_SEED - count));
  return Array.from({ length: count }, (_, index) => ({ prompt, seed: (start + index) % (MAX_VIDEO_SEED + 1) }));
}

const jsonLineSchema = z.union([
  z.string().check(z.trim(), z.minLength(1)),
  z.object({ prompt: z.string().check(z.trim(), z.minLength(1)), seed: z.optional(videoSeedSchema()), seconds: z.optional(videoSecondsSchema()) }),
]);

/**
 * A list of prompts from a file: JSON Lines (`.jsonl`: each line a string or `{"prompt", "seed"?, "seconds"?}`) or
 * text (one prompt per line). Empty lines and `#` comments are skipped; a line that does not fit is named.
 */
export function parsePromptList(text: string, fileName: string): { variants: Variant[]; problems: string[] } {
  const jsonLines = /\.jsonl$/i.test(fileName);
  const variants: Variant[] = [];
  const problems: string[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#') || (jsonLines && trimmed.startsWith('//'))) return;
    if (!jsonLines) {
      variants.push({ prompt: trimmed });
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(trimmed);
    } catch {
      problems.push(t('line {0}: not JSON', index + 1));
      return;
    }
    const parsed = jsonLineSchema.safeParse(raw);
    if (!parsed.success) problems.push(t('line {0}: expected a prompt string or {"prompt": …}', index + 1));
    else variants.push(typeof parsed.data === 'string' ? { prompt: parsed.data } : parsed.data);
  });
  return { variants, problems };
}

/** At most `max` variants; says how many were left out. */
export function capVariants(variants: readonly Variant[], max: number): { kept: Variant[]; leftOut: number } {
  return { kept: variants.slice(0, max), leftOut: Math.max(0, variants.length - max) };
}

/** `5 s`, or `5 s ×3, 10 s ×1` when the requests differ: what a confirmation of several tasks shows. */
export function describeDurations(requests: readonly { seconds?: string }[]): string {
  const counts = new Map<string, number>();
  for (const request of requests) counts.set(request.seconds ?? '?', (counts.get(request.seconds ?? '?') ?? 0) + 1);
  if (counts.size === 1) return t('{0} s', [...counts.keys()][0]);
  return [...counts].map(([seconds, count]) => t('{0} s ×{1}', seconds, count)).join(', ');
}

/** `Seeds: 7, 8, 9`, or undefined when none is set. */
export function describeSeeds(requests: readonly { metadata?: { seed?: number } }[]): string | undefined {
  const seeds = requests.map((request) => request.metadata?.seed).filter((seed): seed is number => seed !== undefined);
  if (!seeds.length) return undefined;
  const shown = seeds.length > 12 ? [...seeds.slice(0, 12).map(String), '…'] : seeds.map(String);
  return t('Seeds: {0}', shown.join(', '));
}
