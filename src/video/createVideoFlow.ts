import * as vscode from 'vscode';
import { isVideoModel, type ModelInfo } from '../api/models';
import { describeQuotePrice, folderNote, quoteWarning, QUOTE_DEADLINE_MS, type ChargedVideoRequest, type Quote } from '../connection/core/chargeGate';
import type { ModelPrice } from '../api/account/prices';
import { modelDescription } from '../connection/account/core/modelDescription';
import { t } from '../api/l10n';
import { joinSentences } from '../api/sentences';
import { shortenPrompt } from './core/taskModel';
import { MAX_SECONDS, RATIOS, RESOLUTIONS, seedProblem, secondsProblem, type VideoOptions } from './core/videoOptions';
import { checkPrompt, describeProblems } from './core/promptCheck';
import type { VideoModelLimits } from './core/videoModelLimits';
import { pickFirstFrame } from './firstFrame';

// The quick inputs of Generate Video: the prompt, then one review step listing every option with its value
// (the configured defaults). Enter generates; picking an option changes it and comes back to the review.

type Action = 'generate' | 'prompt' | keyof VideoOptions;

interface ReviewItem extends vscode.QuickPickItem {
  action: Action;
}

export async function askPrompt(options: { value?: string; title?: string; prompt?: string } = {}): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title: options.title ?? t('Promptreel: Generate Video (1/2)'),
    prompt: options.prompt ?? t('Describe the video. Nothing is sent (or charged) before you confirm the settings in the next step.'),
    placeHolder: t('e.g. A paper boat drifting down a rainy street at dusk, cinematic'),
    value: options.value,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() ? null : t('The prompt cannot be empty.')),
  });
  const prompt = value?.trim();
  return prompt ? prompt : undefined;
}

/** What the review step asks the service: the models, prices and limits (none of them throws). */
export interface ReviewSources {
  listModels: () => Promise<ModelInfo[]>;
  priceOf: (model: string) => Promise<ModelPrice | undefined>;
  /** The charge gate's quote of exactly what these choices send (one task, or each variant). */
  quote: (prompt: string, options: VideoOptions) => Promise<Quote<ChargedVideoRequest>>;
  /** What a model takes: durations, prompt length, a first frame. */
  limits: (model: string) => Promise<VideoModelLimits>;
}

/** How the review is worded for a flow other than Generate Video (variants); a locked prompt cannot be edited. */
export interface ReviewWording {
  title: string;
  generate: string;
  /** The generate item when a check warns (the key may not cover it, the model may refuse it). */
  generateAnyway: string;
  lockedPrompt?: string;
}

/** The prompt and options the user accepted, with the quote the review showed for them. */
export interface Reviewed {
  prompt: string;
  options: VideoOptions;
  quote: Quote<ChargedVideoRequest>;
}

/**
 * The review step: shown at once, the price and the model's limits filled in when they arrive (or said to be unknown
 * once the gate's deadline passes); Enter on the generate item is taken only once the price line is final, so what
 * the user accepts is what they saw. Resolves undefined when dismissed.
 */
export async function reviewOptions(
  initialPrompt: string,
  initial: VideoOptions,
  sources: ReviewSources,
  wording: ReviewWording = { title: t('Promptreel: Generate Video (2/2)'), generate: t('Generate video'), generateAnyway: t('Generate video anyway') },
): Promise<Reviewed | undefined> {
  let prompt = initialPrompt;
  let options = { ...initial };
  let active: Action = 'generate';
  for (;;) {
    const picked = await showReview(prompt, options, sources, wording, active);
    if (!picked) return undefined;
    if (picked.options !== options) {
      // The model takes no image: the review starts again without one (and a quote of what is sent now).
      options = picked.options;
      continue;
    }
    active = picked.action;
    if (active === 'generate') {
      if (options.model && picked.quote) return { prompt, options, quote: picked.quote };
      active = 'model';
    }
    if (active === 'prompt' && wording.lockedPrompt) continue;
    const changed = await edit(active, prompt, options, sources, picked.limits);
    if (changed) ({ prompt, options } = changed);
  }
}

interface ReviewPick {
  action: Action;
  options: VideoOptions;
  quote?: Quote<ChargedVideoRequest>;
  limits?: VideoModelLimits;
}

/** One showing of the review list; resolves with the item picked (and what was known then), or undefined when dismissed. */
function showReview(prompt: string, options: VideoOptions, sources: ReviewSources, wording: ReviewWording, active: Action): Promise<ReviewPick | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<ReviewItem>();
    let quote: Quote<ChargedVideoRequest> | undefined;
    let limits: VideoModelLimits | undefined;
    let settled = !options.model;
    let done = false;
    const finish = (result: ReviewPick | undefined) => {
      if (done) return;
      done = true;
      resolve(result);
      pick.dispose();
    };
    const render = () => {
      const items = reviewItems(prompt, options, quote, limits, wording, settled);
      pick.items = items;
      pick.activeItems = items.filter((item) => item.action === active).slice(0, 1);
      pick.busy = !settled;
    };
    pick.title = wording.title;
    pick.placeholder = t('Press Enter to generate the video, or pick a setting to change it for this video');
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = true;
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (!item) return;
      // Not before the price line is final: the user accepts what they saw.
      if (item.action === 'generate' && !settled) return;
      finish({ action: item.action, options, quote, limits });
    });
    pick.onDidHide(() => finish(undefined));
    render();
    pick.show();
    if (!options.model) return;
    const model = options.model;
    void Promise.all([sources.quote(prompt, options), withinDeadline(sources.limits(model))]).then(([priced, taken]) => {
      if (done) return;
      // A model that takes no image never offers (nor sends) one.
      if (options.firstFrame && !taken?.firstFrame) return finish({ action: active, options: { ...options, firstFrame: undefined } });
      quote = priced;
      limits = taken;
      settled = true;
      render();
    });
  });
}

/** What a model takes, unless reading the model list takes longer than a price may: then it is not known. */
function withinDeadline(limits: Promise<VideoModelLimits>): Promise<VideoModelLimits | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), QUOTE_DEADLINE_MS);
    limits.then(resolve, () => resolve(undefined)).finally(() => clearTimeout(timer));
  });
}

function reviewItems(
  prompt: string,
  options: VideoOptions,
  quote: Quote<ChargedVideoRequest> | undefined,
  limits: VideoModelLimits | undefined,
  wording: ReviewWording,
  settled: boolean,
): ReviewItem[] {
  const onOff = (value: boolean) => (value ? t('on') : t('off'));
  // Named before anything is charged: what the key cannot cover, what the model will likely refuse, what a folder chose.
  const problems = describeProblems(limits && !wording.lockedPrompt ? checkPrompt({ prompt, seconds: options.seconds, model: options.model }, limits) : []);
  const warning = quote ? joinSentences(quoteWarning(quote), problems, folderNote(quote)) : undefined;
  const frame = limits?.firstFrame
    ? [{ action: 'firstFrame' as const, label: t('$(file-media) First frame'), description: options.firstFrame?.fileName ?? t('none: from the prompt alone') }]
    : [];
  const generate: ReviewItem = !options.model
    ? {
        action: 'generate',
        label: `$(play) ${wording.generate}`,
        description: t('choose a model first'),
        detail: shortenPrompt(wording.lockedPrompt ?? prompt, 120),
      }
    : !settled || !quote
      ? {
          action: 'generate',
          label: t('$(loading~spin) Reading the price…'),
          description: [options.model, t('{0} s', options.seconds), options.resolution].join(' · '),
          detail: shortenPrompt(wording.lockedPrompt ?? prompt, 120),
        }
      : {
          action: 'generate',
          label: warning ? `$(warning) ${wording.generateAnyway}` : `$(play) ${wording.generate}`,
          description: [options.model, t('{0} s', options.seconds), options.resolution, describeQuotePrice(quote)].join(' · '),
          detail: warning || shortenPrompt(wording.lockedPrompt ?? prompt, 120),
        };
  return [
    generate,
    { action: 'prompt', label: t('$(edit) Prompt'), description: wording.lockedPrompt ?? shortenPrompt(prompt, 60) },
    ...frame,
    { action: 'model', label: t('$(symbol-class) Model'), description: options.model || t('not set: pick one') },
    { action: 'seconds', label: t('$(clock) Duration'), description: t('{0} s', options.seconds) },
    { action: 'resolution', label: t('$(screen-full) Resolution'), description: options.resolution },
    { action: 'ratio', label: t('$(symbol-ruler) Aspect ratio'), description: options.ratio },
    { action: 'generateAudio', label: t('$(unmute) Generate audio'), description: onOff(options.generateAudio) },
    { action: 'watermark', label: t('$(tag) Watermark'), description: onOff(options.watermark) },
    { action: 'seed', label: t('$(symbol-number) Seed'), description: options.seed === undefined ? t('none (random)') : String(options.seed) },
    { action: 'moderator', label: t('$(shield) Content review'), description: onOff(options.moderator) },
  ];
}

async function edit(
  action: Exclude<Action, 'generate'>,
  prompt: string,
  options: VideoOptions,
  sources: ReviewSources,
  limits: VideoModelLimits | undefined,
): Promise<{ prompt: string; options: VideoOptions } | undefined> {
  switch (action) {
    case 'prompt': {
      const next = await askPrompt({ value: prompt, title: t('Promptreel: Generate Video: prompt') });
      return next ? { prompt: next, options } : undefined;
    }
    case 'generateAudio':
    case 'watermark':
    case 'moderator':
      return { prompt, options: { ...options, [action]: !options[action] } };
    case 'resolution':
    case 'ratio': {
      const values: readonly string[] = action === 'resolution' ? RESOLUTIONS : RATIOS;
      const current = options[action];
      const choices = values.includes(current) ? values : [current, ...values];
      const picked = await vscode.window.showQuickPick(
        choices.map((value) => ({ label: value, description: value === current ? t('current') : undefined })),
        {
          title: action === 'resolution' ? t('Promptreel: Generate Video: resolution') : t('Promptreel: Generate Video: aspect ratio'),
          ignoreFocusOut: true,
        },
      );
      return picked ? { prompt, options: { ...options, [action]: picked.label } } : undefined;
    }
    case 'firstFrame': {
      const frame = await pickFirstFrame(t('Promptreel: Generate Video: first frame'));
      return frame ? { prompt, options: { ...options, firstFrame: frame } } : options.firstFrame ? await keepOrDropFrame(prompt, options) : undefined;
    }
    case 'seconds': {
      if (limits?.durations) return pickDuration(prompt, options, limits.durations);
      const value = await vscode.window.showInputBox({
        title: t('Promptreel: Generate Video: duration'),
        prompt: t('Seconds (1 to {0}); which durations a model accepts depends on the model.', MAX_SECONDS),
        value: options.seconds,
        ignoreFocusOut: true,
        validateInput: secondsProblem,
      });
      return value === undefined ? undefined : { prompt, options: { ...options, seconds: String(Number(value.trim())) } };
    }
    case 'seed': {
      const value = await vscode.window.showInputBox({
        title: t('Promptreel: Generate Video: seed'),
        prompt: t('The same seed reproduces a result. Leave empty for none.'),
        value: options.seed === undefined ? '' : String(options.seed),
        ignoreFocusOut: true,
        validateInput: seedProblem,
      });
      if (value === undefined) return undefined;
      return { prompt, options: { ...options, seed: value.trim() === '' ? undefined : Number(value.trim()) } };
    }
    case 'model': {
      const model = await pickModel(options.model, sources);
      return model ? { prompt, options: { ...options, model } } : undefined;
    }
  }
}

interface ModelItem extends vscode.QuickPickItem {
  modelId?: string;
}

async function pickModel(current: string, sources: ReviewSources): Promise<string | undefined> {
  const enterId = t('$(edit) Enter a model id…');
  const title = t('Promptreel: Generate Video: model');
  const items = sources.listModels().then(
    async (models): Promise<ModelItem[]> => {
      // Prefer what the service marks as video models; a gateway that marks nothing gets the whole list.
      const video = models.filter(isVideoModel);
      const listed = video.length > 0 ? video : models;
      const prices = await Promise.all(listed.map((model) => sources.priceOf(model.id)));
      const shown = listed.map((model, index) => ({
        label: model.id,
        modelId: model.id,
        description: modelDescription(model.id, current, model.ownedBy, prices[index]),
      }));
      return [...shown, { label: enterId }];
    },
    (error: unknown): ModelItem[] => [
      { label: enterId, detail: t('The models could not be listed ({0}).', error instanceof Error ? error.message : String(error)) },
    ],
  );
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: t('Pick the video model'), ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.modelId) return picked.modelId;
  const typed = await vscode.window.showInputBox({
    title,
    prompt: t('The id of the video model'),
    value: current,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() ? null : t('Enter a model id.')),
  });
  return typed?.trim() || undefined;
}

/** The dialog was dismissed while an image was set: keep it, or start from the prompt alone. */
async function keepOrDropFrame(prompt: string, options: VideoOptions): Promise<{ prompt: string; options: VideoOptions } | undefined> {
  const keep = options.firstFrame ? t('$(check) Keep {0}', options.firstFrame.fileName) : t('$(check) Keep the image');
  const picked = await vscode.window.showQuickPick([keep, t('$(close) No first frame')], {
    title: t('Promptreel: Generate Video: first frame'),
    ignoreFocusOut: true,
  });
  return picked && picked !== keep ? { prompt, options: { ...options, firstFrame: undefined } } : undefined;
}

/** The durations the model offers (`promptreel.models.capabilities`), and any other typed by hand. */
async function pickDuration(
  prompt: string,
  options: VideoOptions,
  durations: readonly number[],
): Promise<{ prompt: string; options: VideoOptions } | undefined> {
  const title = t('Promptreel: Generate Video: duration');
  const items: (vscode.QuickPickItem & { seconds?: number })[] = [
    ...durations.map((seconds) => ({ label: t('{0} s', seconds), description: String(seconds) === options.seconds ? t('current') : undefined, seconds })),
    { label: t('$(edit) Other…') },
  ];
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: t('The durations this model offers'), ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.seconds !== undefined) return { prompt, options: { ...options, seconds: String(picked.seconds) } };
  const value = await vscode.window.showInputBox({ title, value: options.seconds, ignoreFocusOut: true, validateInput: secondsProblem });
  return value === undefined ? undefined : { prompt, options: { ...options, seconds: String(Number(value.trim())) } };
}
