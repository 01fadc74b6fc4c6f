import * as z from 'zod/mini';
import type { ChatMessage } from '../../../api/chat/request';
import type { ServiceClient } from '../../../api/serviceClient';
import { t } from '../../../api/l10n';
import { MAX_VIDEO_SECONDS } from '../../../api/video/request';
import { buildChatRequest } from '../../../chatRequest/chatRequestBuilder';
import { MAX_CAPTION_CHARS, MAX_SHOTS, MIN_SHOTS } from './storyboard';
import type { ExplainerModel } from '../../core/explainerPrompt';

// Generate Explainer Film from Selection, its first step: the chat model turns code into a storyboard (3–8 shots,
// each a visual prompt, a caption that explains, a duration the video model offers). Its reply is checked; a reply
// that is not a storyboard is asked again once, with what was wrong, then given back as text with the problems.

/** The code is cut beyond this (all files together): the storyboard needs the gist, and the context has a limit. */
export const MAX_CODE_CHARS = 12_000;

export interface StoryboardInput {
  /** The selected code. */
  code: string;
  languageId: string;
  /** Workspace-relative, as the user reads it. */
  fileName: string;
  /** Other files the user mentioned (`@file`), with their text. */
  files?: readonly { name: string; text: string }[];
  /** What the user asked for besides the code (`/film focus on the retries`). */
  request?: string;
  /** The durations the video model offers (`VideoModelLimits.durations`); undefined: any whole number of seconds. */
  durations?: readonly number[];
  /** The duration to take when the model offers any (`promptreel.video.seconds`). */
  defaultSeconds: number;
  /** The longest prompt the video model takes (`VideoModelLimits.maxPromptLength`). */
  maxPromptLength?: number;
  /** The video model starts a shot from an image: each shot after the first starts from the last frame of the one before. */
  firstFrame: boolean;
}

/** The messages the chat model is asked with (shaped into a request by the chat-request layer, like every chat). */
export interface StoryboardPrompt {
  instructions: string;
  messages: ChatMessage[];
}

/** One shot as the chat model wrote it, checked. */
export interface DraftShot {
  prompt: string;
  caption: string;
  seconds: number;
}

export interface StoryboardDraft {
  title?: string;
  shots: DraftShot[];
}

/** A duration the video model does not offer, replaced by the nearest one it does (or a missing one by the default). */
export interface DurationAdjustment {
  /** 0-based. */
  shot: number;
  /** What the reply said; undefined when it said nothing. */
  asked?: number;
  used: number;
}

/** What makes a reply not a storyboard; said to the user (`describeStoryboardProblem`) and to the model when asked again. */
export type StoryboardProblem =
  | { kind: 'no-json' }
  | { kind: 'not-json'; detail: string }
  | { kind: 'no-shots' }
  | { kind: 'shot-count'; count: number }
  | { kind: 'shot-not-object'; shot: number }
  | { kind: 'missing-prompt'; shot: number }
  | { kind: 'missing-caption'; shot: number }
  | { kind: 'bad-seconds'; shot: number; value: string }
  | { kind: 'caption-too-long'; shot: number; length: number }
  | { kind: 'prompt-too-long'; shot: number; length: number; limit: number };

export type StoryboardReplyParse = { ok: true; draft: StoryboardDraft; adjustments: DurationAdjustment[] } | { ok: false; problems: StoryboardProblem[] };

export type DraftOutcome =
  | { ok: true; draft: StoryboardDraft; adjustments: DurationAdjustment[]; attempts: 1 | 2 }
  /** The last reply, as it came, and why it is not a storyboard. */
  | { ok: false; text: string; problems: StoryboardProblem[]; attempts: 2 };

/** The chat model, as the draft needs it: the prompt in, the reply's text out. Aborting `signal` closes the request. */
export type AskChat = (prompt: StoryboardPrompt, signal?: AbortSignal) => Promise<string>;

/**
 * Asks once; a reply that is not a storyboard is asked again once, with the reply and what was wrong with it. Failures
 * of the request itself (network, refusals) are thrown as they come, for the caller's recovery.
 */
export async function draftStoryboard(ask: AskChat, input: StoryboardInput, signal?: AbortSignal): Promise<DraftOutcome> {
  const prompt = storyboardPrompt(input);
  const first = await ask(prompt, signal);
  const parsed = parseStoryboardReply(first, input);
  if (parsed.ok) return { ...parsed, attempts: 1 };
  const again: StoryboardPrompt = {
    instructions: prompt.instructions,
    messages: [...prompt.messages, { role: 'assistant', content: first }, { role: 'user', content: correctionRequest(parsed.problems) }],
  };
  const second = await ask(again, signal);
  const reparsed = parseStoryboardReply(second, input);
  return reparsed.ok ? { ...reparsed, attempts: 2 } : { ok: false, text: second, problems: reparsed.problems, attempts: 2 };
}

const FORMAT = [
  'Reply with one JSON object and nothing else, in this form:',
  '{"title": "<a short title for the film>", "shots": [{"prompt": "<visual prompt>", "caption": "<explanation>", "seconds": <number>}]}',
].join('\n');

/** What the chat model is asked: the film's rules, the format, then the code. */
export function storyboardPrompt(input: StoryboardInput): StoryboardPrompt {
  const durations = input.durations?.length
    ? `Each shot lasts one of the durations the video model offers, in seconds: ${input.durations.join(', ')}.`
    : `Each shot lasts a whole number of seconds from 1 to ${MAX_VIDEO_SECONDS}; ${input.defaultSeconds} suits most shots.`;
  const continuity = input.firstFrame
    ? 'Each shot after the first starts from the last frame of the shot before: make each one continue the picture where the previous one ends.'
    : 'The video model makes each shot on its own: repeat the style, the palette and the recurring objects in every prompt so the shots look like one film.';
  const promptLimit = input.maxPromptLength ? ` A prompt has at most ${input.maxPromptLength} characters.` : '';
  const instructions = [
    'You write storyboards for short explainer films about source code.',
    `Given code, plan a film of ${MIN_SHOTS} to ${MAX_SHOTS} shots that explains what the code does, step by step, to a developer who has not read it.`,
    'Each shot has a visual prompt for a text-to-video model (concrete objects standing for the parts of the code, motion, camera, style; no on-screen code or text),',
    `and a caption: the explanation said while the shot plays, in plain words, one or two sentences, at most ${MAX_CAPTION_CHARS} characters.${promptLimit}`,
    durations,
    continuity,
    FORMAT,
  ].join('\n');
  return { instructions, messages: [{ role: 'user', content: codeMessage(input) }] };
}

function codeMessage(input: StoryboardInput): string {
  let budget = MAX_CODE_CHARS;
  const take = (code: string): string => {
    const cut = code.length > budget ? `${code.slice(0, budget)}\n… (cut)` : code;
    budget = Math.max(0, budget - code.length);
    return cut;
  };
  const parts = [`File: ${input.fileName} (${input.languageId})\n\n${take(input.code)}`];
  for (const file of input.files ?? []) if (budget > 0) parts.push(`Also mentioned: ${file.name}\n\n${take(file.text)}`);
  if (input.request?.trim()) parts.push(`What the film should focus on: ${input.request.trim()}`);
  return parts.join('\n\n---\n\n');
}

function correctionRequest(problems: readonly StoryboardProblem[]): string {
  return [
    'That reply is not a valid storyboard:',
    ...problems.map((problem) => `- ${problemForModel(problem)}`),
    'Reply again with the whole storyboard as one JSON object in the form asked, and nothing else.',
  ].join('\n');
}

// The model's reply is read leniently: the JSON may be fenced or surrounded by words, fields may carry other common
// names, durations may be strings ("5s"); fields nobody asked for are ignored.
const looseShot = z.looseObject({
  prompt: z.optional(z.unknown()),
  visual_prompt: z.optional(z.unknown()),
  visualPrompt: z.optional(z.unknown()),
  visual: z.optional(z.unknown()),
  caption: z.optional(z.unknown()),
  narration: z.optional(z.unknown()),
  seconds: z.optional(z.unknown()),
  duration: z.optional(z.unknown()),
  duration_seconds: z.optional(z.unknown()),
  durationSeconds: z.optional(z.unknown()),
});
const looseStoryboard = z.looseObject({
  title: z.optional(z.unknown()),
  name: z.optional(z.unknown()),
  shots: z.optional(z.unknown()),
  scenes: z.optional(z.unknown()),
});

/** The reply as a storyboard, durations fitted to what the video model offers; or every problem found. */
export function parseStoryboardReply(reply: string, offered: Pick<StoryboardInput, 'durations' | 'defaultSeconds' | 'maxPromptLength'>): StoryboardReplyParse {
  const json = jsonOf(reply);
  if ('problem' in json) return { ok: false, problems: [json.problem] };
  const shotsValue = Array.isArray(json.value) ? json.value : shotsOf(json.value);
  if (!Array.isArray(shotsValue)) return { ok: false, problems: [{ kind: 'no-shots' }] };
  const problems: StoryboardProblem[] = [];
  if (shotsValue.length < MIN_SHOTS || shotsValue.length > MAX_SHOTS) problems.push({ kind: 'shot-count', count: shotsValue.length });
  const shots: DraftShot[] = [];
  const adjustments: DurationAdjustment[] = [];
  shotsValue.forEach((value, index) => {
    const shot = looseShot.safeParse(value);
    if (!shot.success) {
      problems.push({ kind: 'shot-not-object', shot: index });
      return;
    }
    const prompt = firstText(shot.data.prompt, shot.data.visual_prompt, shot.data.visualPrompt, shot.data.visual);
    const caption = firstText(shot.data.caption, shot.data.narration);
    if (!prompt) problems.push({ kind: 'missing-prompt', shot: index });
    else if (offered.maxPromptLength !== undefined && [...prompt].length > offered.maxPromptLength)
      problems.push({ kind: 'prompt-too-long', shot: index, length: [...prompt].length, limit: offered.maxPromptLength });
    if (!caption) problems.push({ kind: 'missing-caption', shot: index });
    else if ([...caption].length > MAX_CAPTION_CHARS) problems.push({ kind: 'caption-too-long', shot: index, length: [...caption].length });
    const rawSeconds = [shot.data.seconds, shot.data.duration, shot.data.duration_seconds, shot.data.durationSeconds].find((field) => field !== undefined);
    const asked = rawSeconds === undefined ? undefined : secondsOf(rawSeconds);
    if (asked === null) problems.push({ kind: 'bad-seconds', shot: index, value: shortText(rawSeconds) });
    const seconds = fittedSeconds(asked ?? undefined, offered);
    if (asked !== null && seconds !== asked) adjustments.push({ shot: index, ...(asked !== undefined ? { asked } : {}), used: seconds });
    if (prompt && caption) shots.push({ prompt, caption, seconds });
  });
  if (problems.length) return { ok: false, problems };
  const title = firstText(json.value && !Array.isArray(json.value) ? looseStoryboard.safeParse(json.value).data?.title : undefined);
  return { ok: true, draft: { ...(title ? { title } : {}), shots }, adjustments };
}

function shotsOf(value: unknown): unknown {
  const parsed = looseStoryboard.safeParse(value);
  return parsed.success ? (parsed.data.shots ?? parsed.data.scenes) : undefined;
}

/** The JSON in a reply: a fenced block, else the outermost object or array (reasoning in `<think>` skipped). */
function jsonOf(reply: string): { value: unknown } | { problem: StoryboardProblem } {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const fenced = /```(?:json|JSON)?[^\S\n]*\n([\s\S]*?)\n?```/.exec(text)?.[1];
  const candidate = fenced ?? outermostJson(text);
  if (candidate === undefined) return { problem: { kind: 'no-json' } };
  try {
    return { value: JSON.parse(candidate) as unknown };
  } catch (error) {
    return { problem: { kind: 'not-json', detail: error instanceof Error ? error.message : String(error) } };
  }
}

function outermostJson(text: string): string | undefined {
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  const end = text.lastIndexOf(text[start] === '{' ? '}' : ']');
  return end > start ? text.slice(start, end + 1) : undefined;
}

function firstText(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value.trim()) return value.trim().replace(/\s+/g, ' ');
  return undefined;
}

/** `5`, `"5"`, `"5s"`, `"5 seconds"`, `7.5`; null when it is not a number of seconds. */
function secondsOf(value: unknown): number | null {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(/^\s*(\d+(?:\.\d+)?)\s*(?:s|sec|secs|seconds?)?\s*$/i.exec(value)?.[1]) : NaN;
  return Number.isFinite(number) && number > 0 ? number : null;
}

/** The offered duration nearest to `asked` (the shorter of two as near), a whole number within bounds, or the default. */
function fittedSeconds(asked: number | undefined, offered: Pick<StoryboardInput, 'durations' | 'defaultSeconds'>): number {
  const durations = offered.durations?.length ? offered.durations : undefined;
  if (asked === undefined)
    return durations && !durations.includes(offered.defaultSeconds) ? nearest(offered.defaultSeconds, durations) : offered.defaultSeconds;
  if (durations) return nearest(asked, durations);
  return Math.min(MAX_VIDEO_SECONDS, Math.max(1, Math.round(asked)));
}

function nearest(value: number, durations: readonly number[]): number {
  return [...durations].sort((a, b) => Math.abs(a - value) - Math.abs(b - value) || a - b)[0];
}

function shortText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A problem in the user's words. */
export function describeStoryboardProblem(problem: StoryboardProblem): string {
  switch (problem.kind) {
    case 'no-json':
      return t('The reply holds no JSON storyboard.');
    case 'not-json':
      return t('The reply is not valid JSON ({0}).', problem.detail);
    case 'no-shots':
      return t('The reply has no list of shots.');
    case 'shot-count':
      return t('The reply has {0} shots; a film has {1} to {2}.', problem.count, MIN_SHOTS, MAX_SHOTS);
    case 'shot-not-object':
      return t('Shot {0} is not an object with a prompt, a caption and seconds.', problem.shot + 1);
    case 'missing-prompt':
      return t('Shot {0} has no visual prompt.', problem.shot + 1);
    case 'missing-caption':
      return t('Shot {0} has no caption.', problem.shot + 1);
    case 'bad-seconds':
      return t('The duration of shot {0} ("{1}") is not a number of seconds.', problem.shot + 1, problem.value);
    case 'caption-too-long':
      return t('The caption of shot {0} has {1} characters; at most {2} fit on screen.', problem.shot + 1, problem.length, MAX_CAPTION_CHARS);
    case 'prompt-too-long':
      return t('The prompt of shot {0} has {1} characters; the video model takes at most {2}.', problem.shot + 1, problem.length, problem.limit);
  }
}

/** The same, in English, for the chat model asked again. */
function problemForModel(problem: StoryboardProblem): string {
  switch (problem.kind) {
    case 'no-json':
      return 'It holds no JSON object.';
    case 'not-json':
      return `It is not valid JSON (${problem.detail}).`;
    case 'no-shots':
      return 'It has no "shots" array.';
    case 'shot-count':
      return `It has ${problem.count} shots; write ${MIN_SHOTS} to ${MAX_SHOTS}.`;
    case 'shot-not-object':
      return `Shot ${problem.shot + 1} is not an object with "prompt", "caption" and "seconds".`;
    case 'missing-prompt':
      return `Shot ${problem.shot + 1} has no "prompt".`;
    case 'missing-caption':
      return `Shot ${problem.shot + 1} has no "caption".`;
    case 'bad-seconds':
      return `The "seconds" of shot ${problem.shot + 1} ("${problem.value}") is not a number.`;
    case 'caption-too-long':
      return `The caption of shot ${problem.shot + 1} has ${problem.length} characters; keep it within ${MAX_CAPTION_CHARS}.`;
    case 'prompt-too-long':
      return `The prompt of shot ${problem.shot + 1} has ${problem.length} characters; keep it within ${problem.limit}.`;
  }
}

/**
 * The ask port over a Promptreel client: one non-streamed chat completion shaped by the chat-request layer, in JSON
 * mode where the model has it (the layer leaves it out, and says so, where it does not).
 */
export function chatAsker(client: Pick<ServiceClient, 'createChatCompletion'>, { model, settings, capabilities }: ExplainerModel): AskChat {
  return async (prompt, signal) => {
    const { request } = buildChatRequest({ model, ...prompt, settings, overrides: { jsonMode: true } }, capabilities);
    return (await client.createChatCompletion(request, signal)).text;
  };
}
