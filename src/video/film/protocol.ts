import * as z from 'zod/mini';
import { MAX_VIDEO_SECONDS } from '../../api/video/request';
import { RATIOS, RESOLUTIONS } from '../core/videoChoices';
import { MAX_FRAME_BASE64 } from './core/framePng';
import { MAX_CAPTION_CHARS } from './core/storyboard';

// The storyboard editor's page and its host (FilmEditorHost): the host sends the film as it is in its file, with
// each shot's cost and the charge gate's total; the page asks for one change at a time (checked here with zod).

export interface ShotView {
  id: string;
  prompt: string;
  caption: string;
  seconds: number;
  /** `$0.40`, or undefined when the price is not known. */
  cost?: string;
  /** The shot's task, once shot. */
  taskId?: string;
  /** Where its task is: never sent, being made, made, or failed (`stateText` says why). */
  state: ShotState;
  /** `Failed: the prompt was refused`, `In progress`… */
  stateText: string;
  /** It can be shot again alone (failed, or never sent while other shots were). */
  canReshoot: boolean;
  /** What the video model will likely refuse in it (a duration it does not offer…), when something. */
  problems?: string;
}

export type ShotState = 'not-sent' | 'in-progress' | 'done' | 'failed';

/** The video settings the editor changes. */
export interface FilmSettingsView {
  resolution?: string;
  ratio?: string;
  generateAudio?: boolean;
}

export interface FilmView {
  name: string;
  model: string;
  /** The video models offered: those the service marks as video (its whole list when it marks none), the film's kept. */
  models: string[];
  /** The film's own settings; an absent one is the user's (`defaults`). */
  settings: FilmSettingsView;
  /** The user's `promptreel.video.*`: what "From your settings (…)" stands for. */
  defaults: Required<FilmSettingsView>;
  /** The resolutions and ratios offered (Generate Video's, and the film's own if a hand edit set another). */
  resolutions: string[];
  ratios: string[];
  /** The workspace-relative file the storyboard is saved in. */
  file: string;
  /** The storyboard file's URI: the page keeps it (`FilmState`) so the editor comes back after a window reload. */
  uri: string;
  shots: ShotView[];
  /** The durations a shot may have (the model's, or every whole second). */
  durations: number[];
  /** The charge gate's words for the whole film: `$2.00 · $8.00 left after`, or `price not known`. */
  total: string;
  /** Why the key may not cover it, when there is a reason. */
  warning?: string;
  /** The button's label: `Shoot the film for $2.00`, or `Shoot the film (price not known)`. */
  shoot: string;
  /** What the shots were made into: the film's file, or its playlist's. */
  made?: string;
  canAdd: boolean;
  canRemove: boolean;
  /** Shooting now: the page's buttons wait (Stop excepted). */
  busy: boolean;
  /** The shots are made one after another, each from the last frame of the one before. */
  chain: boolean;
}

/**
 * Host → page: the film, or a sentence about the last change (refused, saved, shot), or a request for the last frame
 * of a shot's video (`src`: its webview address), answered with a `frame` message of the same `request`.
 */
export type HostToFilm = { type: 'film'; film: FilmView } | { type: 'notice'; text: string } | { type: 'takeFrame'; request: string; src: string };

const id = z.string().check(z.minLength(1), z.maxLength(40));
const text = z.string().check(z.maxLength(4000));
/** The longest model id the page may send (ids are short; the host also checks it is one it offered). */
export const MAX_MODEL_ID = 200;

/** Page → host. */
export const filmToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('change'),
    id,
    prompt: z.optional(text),
    caption: z.optional(z.string().check(z.maxLength(MAX_CAPTION_CHARS * 4))),
    seconds: z.optional(z.int().check(z.gte(1), z.lte(MAX_VIDEO_SECONDS))),
  }),
  z.object({ type: z.literal('move'), id, by: z.union([z.literal(-1), z.literal(1)]) }),
  z.object({ type: z.literal('add'), after: z.optional(id) }),
  z.object({ type: z.literal('remove'), id }),
  /** The film's model and settings; null: left to the user's settings. */
  z.object({
    type: z.literal('settings'),
    model: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_MODEL_ID))),
    resolution: z.optional(z.nullable(z.enum(RESOLUTIONS))),
    ratio: z.optional(z.nullable(z.enum(RATIOS))),
    generateAudio: z.optional(z.nullable(z.boolean())),
  }),
  z.object({ type: z.literal('shoot') }),
  z.object({ type: z.literal('reshoot'), id }),
  z.object({ type: z.literal('stop') }),
  z.object({
    type: z.literal('frame'),
    request: id,
    /** The PNG, base64 (checked again by parseFramePng), or why the page could not draw it. */
    png: z.optional(z.string().check(z.maxLength(MAX_FRAME_BASE64))),
    error: z.optional(z.string().check(z.maxLength(500))),
  }),
  /** Play the made film (in the player). */
  z.object({ type: z.literal('play') }),
]);
export type FilmToHost = z.infer<typeof filmToHostSchema>;

/** What the page keeps across a window reload: the storyboard it shows, which its restored panel opens again. */
export const filmStateSchema = z.object({ file: z.string().check(z.minLength(1), z.maxLength(4000)) });
export type FilmState = z.infer<typeof filmStateSchema>;
