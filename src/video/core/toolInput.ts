import * as z from 'zod/mini';
import { formatUsd } from '../../api/account/prices';
import { MAX_VIDEO_SECONDS } from '../../api/video/request';
import { describeChargeQuote } from '../../connection/account/core/chargeQuote';
import { folderNote, quoteWarning, type ChargedRequest, type Quote } from '../../connection/core/chargeGate';
import { t } from '../../api/l10n';
import { codeSpan, escapeMarkdown } from '../../common/markdownText';
import type { PromptProblem } from './promptCheck';
import { shortenPrompt } from './taskModel';
import { videoSeedSchema } from '../../api/video/request';
import type { VideoOptions } from './videoOptions';

// The video tool of VS Code's agent (and of any caller of vscode.lm.invokeTool): its input, and what its
// confirmation says before anything is charged.

/**
 * What a model may ask for; anything left out comes from the user's settings. Unknown fields are dropped, and a value
 * that does not fit refuses the call (before anything is sent), with the reason for the model.
 */
export const videoToolInputSchema = z.object({
  prompt: z.string().check(z.trim(), z.minLength(1, 'the prompt is empty')),
  model: z.optional(z.string().check(z.trim(), z.minLength(1))),
  seconds: z.optional(z.int().check(z.gte(1), z.lte(MAX_VIDEO_SECONDS))),
  resolution: z.optional(z.string().check(z.trim(), z.minLength(1))),
  ratio: z.optional(z.string().check(z.trim(), z.minLength(1))),
  seed: z.optional(videoSeedSchema()),
});
export type VideoToolInput = z.infer<typeof videoToolInputSchema>;

/** The input, or why it cannot be used (for the model to correct). */
export function parseToolInput(raw: unknown): { input: VideoToolInput } | { problem: string } {
  const parsed = videoToolInputSchema.safeParse(raw);
  if (parsed.success) return { input: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `The input does not fit: ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}.` };
}

/** The settings' options with what the call asked for over them. */
export function toolOptions(input: VideoToolInput, defaults: VideoOptions): VideoOptions {
  return {
    ...defaults,
    model: input.model ?? defaults.model,
    seconds: input.seconds !== undefined ? String(input.seconds) : defaults.seconds,
    resolution: input.resolution ?? defaults.resolution,
    ratio: input.ratio ?? defaults.ratio,
    seed: input.seed ?? defaults.seed,
  };
}

export interface ToolConfirmation {
  title: string;
  /** Markdown for the chat's confirmation (VS Code shows it as plain text in a dialog outside a chat). */
  message: string;
}

/** The confirmation: the price in the title (so a plain dialog shows it too), then the prompt, model, settings and checks. */
export function toolConfirmation(
  prompt: string,
  options: VideoOptions,
  gateQuote: Quote<ChargedRequest>,
  problems: readonly PromptProblem[],
): ToolConfirmation {
  const quote = gateQuote.charge;
  const cost = describeChargeQuote(quote);
  const title = quote.priceUsd !== undefined ? t('Generate a video for {0}?', formatUsd(quote.priceUsd)) : t('Generate a video (price not known)?');
  const fromFolder = folderNote(gateQuote);
  const settings = [
    t('{0} s', options.seconds),
    escapeMarkdown(options.resolution),
    escapeMarkdown(options.ratio),
    options.generateAudio ? t('audio on') : t('audio off'),
    options.watermark ? t('watermark on') : t('watermark off'),
    options.seed !== undefined ? t('seed {0}', options.seed) : t('seed random'),
    options.moderator ? t('content review on') : t('content review off'),
  ].join(' · ');
  const lines = [
    t('**Prompt:** {0}', escapeMarkdown(shortenPrompt(prompt, 600))),
    t('**Model:** {0}', codeSpan(options.model)),
    t('**Settings:** {0}', settings),
    cost ? t('**Price:** {0}', cost) : t('**Price:** not known for this model: it uses your quota like any other video.'),
    quoteWarning(gateQuote) ? t('**Note:** {0}', escapeMarkdown(quoteWarning(gateQuote) ?? '')) : '',
    fromFolder ? t('**Note:** {0}', escapeMarkdown(fromFolder)) : '',
    ...problems.map((problem) => t('**Check:** {0}', escapeMarkdown(problem.message))),
    t('One task is created when you allow it (the request is never sent twice); Promptreel follows it and downloads the video into the workspace.'),
  ];
  return { title, message: lines.filter(Boolean).join('\n\n') };
}

/** A name shown as code: no backtick or blank line in it can end the span and start Markdown of its own. */

export { escapeMarkdown };
