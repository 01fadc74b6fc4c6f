import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';
import { describeDurations, type VideoModelLimits } from './videoModelLimits';

/** Something about a video request the model will likely refuse (or make badly), named before anything is charged. */
export interface PromptProblem {
  kind: 'prompt-too-long' | 'duration-not-offered' | 'empty-placeholder';
  message: string;
}

/** `{{name}}` or `{{name:default}}`, as recipes write them; one left in a prompt was not filled in. */
export const PLACEHOLDER = /\{\{\s*([^{}:]+?)\s*(?::([^{}]*))?\}\}/g;

/** The names of the placeholders still in a prompt, each once. */
export function unfilledPlaceholders(prompt: string): string[] {
  return [...new Set([...prompt.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}

/**
 * The check before charging: a prompt longer than the model accepts, a duration it does not offer, a recipe's
 * placeholder left empty. Warnings only: the user may still send (the service decides).
 */
export function checkPrompt(request: { prompt: string; seconds?: string; model: string }, limits: VideoModelLimits): PromptProblem[] {
  const problems: PromptProblem[] = [];
  const length = [...request.prompt].length;
  if (limits.maxPromptLength !== undefined && length > limits.maxPromptLength) {
    problems.push({
      kind: 'prompt-too-long',
      message: t('The prompt has {0} characters; {1} accepts at most {2}.', length, request.model, limits.maxPromptLength),
    });
  }
  const seconds = request.seconds === undefined || request.seconds === '' ? undefined : Number(request.seconds);
  if (seconds !== undefined && limits.durations && !limits.durations.includes(seconds)) {
    problems.push({
      kind: 'duration-not-offered',
      message: t('{0} offers {1}, not {2}.', request.model, describeDurations(limits.durations), seconds),
    });
  }
  for (const name of unfilledPlaceholders(request.prompt)) {
    // `{{name}}` goes in as a value: braces around a placeholder would confuse VS Code's formatting of `{0}`.
    problems.push({ kind: 'empty-placeholder', message: t('The placeholder {0} is empty.', `{{${name}}}`) });
  }
  return problems;
}

/** One line for a quick pick's detail or a confirmation. */
export function describeProblems(problems: readonly PromptProblem[]): string | undefined {
  return problems.length ? joinSentences(problems.map((problem) => problem.message)) : undefined;
}
