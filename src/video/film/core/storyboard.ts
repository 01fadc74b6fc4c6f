import * as z from 'zod/mini';
import { MAX_VIDEO_SECONDS, videoSeedSchema } from '../../../api/video/request';
import { t } from '../../../api/l10n';
import '../../../api/zodLocale';

// An explainer film's storyboard, as a file in the workspace (`.promptreel/films/<name>.json`): versioned with the
// code it explains, edited in the storyboard editor, shot again. Whatever a hand edit (or another version) put in it
// is checked here before anything reads it; fields this version does not know are dropped.

export const STORYBOARD_VERSION = 1;
/** A film has at least this many shots: fewer is a clip, not a story (the editor stops removing there). */
export const MIN_SHOTS = 3;
/** At most this many: each is a charged video task. */
export const MAX_SHOTS = 8;
/** A caption is read while its shot plays: two lines of subtitles at most. */
export const MAX_CAPTION_CHARS = 200;
/** Where the storyboards live, relative to the workspace folder. */
export const FILMS_FOLDER = '.promptreel/films';

const text = z.string().check(z.trim(), z.minLength(1));

/** One shot: what the video model is asked to show, what the film says meanwhile, and for how long. */
export const shotSchema = z.object({
  /** Stable across edits and reorders (the shot's task and file are found by it). */
  id: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)),
  /** The visual prompt sent to the video model. */
  prompt: text,
  /** The explanation, in plain words: the film's subtitle while the shot plays. */
  caption: text.check(z.maxLength(MAX_CAPTION_CHARS)),
  seconds: z.int().check(z.gte(1), z.lte(MAX_VIDEO_SECONDS)),
  /** The video task made for this shot when the film was shot (absent until then). */
  taskId: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
  /** What the confirmation that sent its task priced it at, in US dollars (absent when the price was not known). */
  priceUsd: z.optional(z.number().check(z.gte(0))),
  /** What the service's log of the key says that task really cost, once known. */
  chargedUsd: z.optional(z.number().check(z.gte(0))),
});
export type Shot = z.infer<typeof shotSchema>;

/** The video settings of the whole film (absent ones come from the user's `promptreel.video.*` settings when shot). */
export const filmSettingsSchema = z.object({
  resolution: z.optional(z.string().check(z.minLength(1))),
  ratio: z.optional(z.string().check(z.minLength(1))),
  generateAudio: z.optional(z.boolean()),
  watermark: z.optional(z.boolean()),
  moderator: z.optional(z.boolean()),
  seed: z.optional(videoSeedSchema()),
});
export type FilmSettings = z.infer<typeof filmSettingsSchema>;

/** The code the film explains: a workspace-relative path (`/`-separated) and 1-based lines, as people read them. */
export const filmSourceSchema = z
  .object({
    file: text,
    startLine: z.int().check(z.gte(1)),
    endLine: z.int().check(z.gte(1)),
    language: z.optional(z.string()),
  })
  .check(z.refine((source) => source.endLine >= source.startLine, { error: () => t('the last line comes before the first'), path: ['endLine'] }));
export type FilmSource = z.infer<typeof filmSourceSchema>;

/** What the shots were joined into, beside the storyboard (names in its folder). */
export const filmOutputSchema = z.object({
  /** The joined film (`<stem>.mp4`), when the shots join without re-encoding. */
  video: z.optional(text),
  /** Otherwise the playlist of the shots (`<stem>.playlist.json`), and why they did not join. */
  playlist: z.optional(text),
  reason: z.optional(z.string()),
  /** The captions (`<stem>.vtt`). */
  captions: text,
});
export type FilmOutput = z.infer<typeof filmOutputSchema>;

export const storyboardSchema = z
  .object({
    version: z.literal(STORYBOARD_VERSION),
    name: text.check(z.maxLength(120)),
    /** ISO 8601. */
    created: z.iso.datetime({ offset: true }),
    /** The video model every shot is made with. */
    model: text,
    settings: z._default(filmSettingsSchema, {}),
    source: z.optional(filmSourceSchema),
    shots: z.array(shotSchema).check(z.minLength(MIN_SHOTS), z.maxLength(MAX_SHOTS)),
    output: z.optional(filmOutputSchema),
  })
  .check(
    z.superRefine((storyboard, context) => {
      const seen = new Set<string>();
      storyboard.shots.forEach((shot, index) => {
        if (seen.has(shot.id)) context.addIssue({ code: 'custom', message: t('another shot has the id "{0}"', shot.id), path: ['shots', index, 'id'] });
        seen.add(shot.id);
      });
    }),
  );
export type Storyboard = z.infer<typeof storyboardSchema>;

export type StoryboardFileParse = { ok: true; storyboard: Storyboard } | { ok: false; problems: string[] };

/** A storyboard file's text, checked: every problem named with where it is (`shot 2, caption: …`). */
export function parseStoryboardFile(content: string): StoryboardFileParse {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch (error) {
    return { ok: false, problems: [t('The file is not JSON ({0}).', error instanceof Error ? error.message : String(error))] };
  }
  const version = z.object({ version: z.unknown() }).safeParse(raw);
  const found = version.success ? version.data.version : undefined;
  if (typeof found === 'number' && found > STORYBOARD_VERSION) {
    return {
      ok: false,
      problems: [
        t(
          'The storyboard was written by a newer Promptreel (version {0}; this one reads version {1}). Update Promptreel to open it.',
          found,
          STORYBOARD_VERSION,
        ),
      ],
    };
  }
  const parsed = storyboardSchema.safeParse(raw);
  if (parsed.success) return { ok: true, storyboard: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((issue) => t('{0}: {1}', placeOf(issue.path), issue.message.replace(/[.。]$/, ''))) };
}

/** The file's text: two-space JSON, fields in the schema's order, a final newline (diffs stay small). */
export function storyboardJson(storyboard: Storyboard): string {
  const { version, name, created, model, settings, source, shots, output } = storyboard;
  const ordered = {
    version,
    name,
    created,
    model,
    settings,
    ...(source ? { source } : {}),
    shots: shots.map(({ id, prompt, caption, seconds, taskId, priceUsd, chargedUsd }) => ({
      id,
      prompt,
      caption,
      seconds,
      ...(taskId ? { taskId } : {}),
      ...(priceUsd !== undefined ? { priceUsd } : {}),
      ...(chargedUsd !== undefined ? { chargedUsd } : {}),
    })),
    ...(output ? { output } : {}),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** `shots.1.caption` as a person says it: `shot 2, caption`. */
function placeOf(path: readonly PropertyKey[]): string {
  if (path.length === 0) return t('the storyboard');
  if (path[0] === 'shots' && typeof path[1] === 'number') {
    const rest = path.slice(2).map(String).join('.');
    return rest ? t('shot {0}, {1}', path[1] + 1, rest) : t('shot {0}', path[1] + 1);
  }
  return path.map(String).join('.');
}

export interface NewStoryboard {
  /** The film's name; the draft's title when absent, else the file's name. */
  name?: string;
  model: string;
  settings: FilmSettings;
  source?: FilmSource;
  created: Date;
}

/** A storyboard of the chat model's draft (ids `s1`, `s2`…), ready for the editor and its file. */
export function newStoryboard(draft: { title?: string; shots: readonly Omit<Shot, 'id'>[] }, meta: NewStoryboard): Storyboard {
  const fallback = meta.source ? meta.source.file.slice(meta.source.file.lastIndexOf('/') + 1) : t('Explainer film');
  return {
    version: STORYBOARD_VERSION,
    name: (meta.name?.trim() || draft.title?.trim() || fallback).slice(0, 120),
    created: meta.created.toISOString(),
    model: meta.model,
    settings: meta.settings,
    ...(meta.source ? { source: meta.source } : {}),
    shots: draft.shots.map(({ prompt, caption, seconds }, index) => ({ id: `s${index + 1}`, prompt, caption, seconds })),
  };
}

/** An id no shot of `shots` has: `s1`, `s2`… (the editor's Add Shot). */
export function newShotId(shots: readonly Pick<Shot, 'id'>[]): string {
  const taken = new Set(shots.map((shot) => shot.id));
  let next = shots.length + 1;
  while (taken.has(`s${next}`)) next++;
  return `s${next}`;
}

/**
 * The file name of a film's storyboard (without `.json`): the name in safe characters, e.g. `how-retry-works`; names
 * with nothing safe in them become `film`. The caller adds `-2`, `-3`… when the name is taken.
 */
export function filmFileStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 60)
    .replace(/[-_]+$/g, '');
  return stem || 'film';
}

/** The film's total length in seconds, as the storyboard plans it. */
export function plannedSeconds(storyboard: Pick<Storyboard, 'shots'>): number {
  return storyboard.shots.reduce((sum, shot) => sum + shot.seconds, 0);
}
