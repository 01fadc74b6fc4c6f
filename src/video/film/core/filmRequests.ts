import { videoCost, type ModelPrice } from '../../../api/account/prices';
import { checkPrompt, describeProblems } from '../../core/promptCheck';
import type { VideoModelLimits } from '../../core/videoModelLimits';
import { toCreateRequest, type VideoOptions } from '../../core/videoOptions';
import type { ChargedVideoRequest } from '../../../connection/core/chargeGate';
import type { FirstFrame, StoredCreateRequest } from '../../core/videoTaskRecord';
import type { Storyboard } from './storyboard';

// What shooting a film sends: one `POST /v1/videos` per shot, made from the storyboard. The price shown before
// anything is sent is the charge gate's quote of exactly these requests (`connection.videoCharges.quote`); the costs
// here only split it per shot for the editor.

export interface ShotRequestOptions {
  /** The user's `promptreel.video.*` as options: what the storyboard's settings leave out. */
  defaults: VideoOptions;
  /**
   * The video model starts a shot from an image (`VideoModelLimits.firstFrame`): each shot after the first gets the
   * previous shot's last frame. Otherwise its prompt carries the previous shot's prompt, for continuity.
   */
  firstFrame: boolean;
  /** The longest prompt the video model takes: the continuity note is shortened, or left out, to stay within it. */
  maxPromptLength?: number;
}

/** The options of the film's shots: the storyboard's model and settings over the user's defaults. */
export function filmOptions(storyboard: Pick<Storyboard, 'model' | 'settings'>, defaults: VideoOptions): VideoOptions {
  const { settings } = storyboard;
  return {
    model: storyboard.model,
    seconds: defaults.seconds,
    resolution: settings.resolution ?? defaults.resolution,
    ratio: settings.ratio ?? defaults.ratio,
    generateAudio: settings.generateAudio ?? defaults.generateAudio,
    watermark: settings.watermark ?? defaults.watermark,
    moderator: settings.moderator ?? defaults.moderator,
    seed: settings.seed ?? defaults.seed,
  };
}

/**
 * The request of shot `index` (0-based). `firstFrame`: the previous shot's last frame, for a model that takes one
 * (the caller extracts it from the downloaded file once that shot is done; the first shot has none).
 */
export function shotRequest(storyboard: Storyboard, index: number, options: ShotRequestOptions, firstFrame?: FirstFrame): StoredCreateRequest {
  const shot = storyboard.shots[index];
  if (!shot) throw new RangeError(`The storyboard has no shot ${index + 1}.`);
  return toCreateRequest(shotPrompt(storyboard, index, options), {
    ...filmOptions(storyboard, options.defaults),
    seconds: String(shot.seconds),
    ...(options.firstFrame && firstFrame ? { firstFrame } : {}),
  });
}

/**
 * The requests of the shots at `indexes` (all, in order, by default), as the charge gate quotes them. For a model
 * that takes a first frame, every shot after the first is marked as starting from the previous shot's last frame:
 * that frame exists only once the shot before is made, and the gate hands the request out only with it (an image
 * does not change the price).
 */
export function filmRequests(storyboard: Storyboard, options: ShotRequestOptions, indexes?: readonly number[]): ChargedVideoRequest[] {
  return (indexes ?? storyboard.shots.map((_shot, index) => index)).map((index) => {
    const request = shotRequest(storyboard, index, options);
    return options.firstFrame && index > 0 ? { ...request, firstFrameFromPrevious: true as const } : request;
  });
}

/**
 * What the video model will likely refuse in each shot's request (a prompt longer than it accepts, a duration it does
 * not offer), in words, or undefined: the check before charging of Generate Video, per shot. Warnings only.
 */
export function shotProblems(storyboard: Storyboard, options: ShotRequestOptions, limits: VideoModelLimits): (string | undefined)[] {
  return filmRequests(storyboard, options).map((request) => describeProblems(checkPrompt(request, limits)));
}

const CONTINUITY = '\n\nContinuity: the shot before this one showed ';
/** A continuity note shorter than this says too little to be worth its place in the prompt. */
const MIN_CONTINUITY_CHARS = 40;

/**
 * The prompt the video model gets for shot `index`: the shot's own, and for a model without a first frame the
 * previous shot's prompt as context (the model never sees the other shots). English: the video model reads it.
 */
export function shotPrompt(storyboard: Pick<Storyboard, 'shots'>, index: number, options: Pick<ShotRequestOptions, 'firstFrame' | 'maxPromptLength'>): string {
  const shot = storyboard.shots[index];
  const previous = storyboard.shots[index - 1];
  if (!shot) throw new RangeError(`The storyboard has no shot ${index + 1}.`);
  if (options.firstFrame || !previous) return shot.prompt;
  const room = options.maxPromptLength === undefined ? Infinity : options.maxPromptLength - [...shot.prompt].length - CONTINUITY.length;
  if (room < MIN_CONTINUITY_CHARS) return shot.prompt;
  const context = [...previous.prompt];
  const note = context.length <= room ? previous.prompt : `${context.slice(0, room - 1).join('')}…`;
  return `${shot.prompt}${CONTINUITY}${note}`;
}

/** Which shots a Shoot sends: the whole film, the shots never sent (a chain that stopped), or one shot again. */
export type ShootWhich = { kind: 'film' } | { kind: 'rest' } | { kind: 'again'; shotId: string };

/** The shots (0-based, in order) a Shoot of `which` sends. */
export function shotsToShoot(storyboard: Pick<Storyboard, 'shots'>, which: ShootWhich): number[] {
  const all = storyboard.shots.map((_shot, index) => index);
  if (which.kind === 'film') return all;
  if (which.kind === 'rest') return all.filter((index) => !storyboard.shots[index].taskId);
  const index = storyboard.shots.findIndex((shot) => shot.id === which.shotId);
  return index < 0 ? [] : [index];
}

export interface FilmCost {
  /** Each shot's cost in US dollars, undefined where it is not known. */
  shots: (number | undefined)[];
  /** The sum, when every shot's cost is known. */
  totalUsd?: number;
}

/**
 * What each shot costs at `price` (per call: the price; per second: the price times its seconds). For the editor's
 * rows while editing; the total the user confirms is the charge gate's quote of `filmRequests`, with what the key keeps.
 */
export function filmCost(price: ModelPrice | undefined, storyboard: Pick<Storyboard, 'shots'>): FilmCost {
  const shots = storyboard.shots.map((shot) => videoCost(price, shot.seconds));
  const known = shots.every((cost) => cost !== undefined) && shots.length > 0;
  return { shots, ...(known ? { totalUsd: shots.reduce((sum: number, cost) => sum + (cost ?? 0), 0) } : {}) };
}
