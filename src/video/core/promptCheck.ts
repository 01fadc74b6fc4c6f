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
      message: `The prompt has ${length} characters; ${request.model} accepts at most ${limits.maxPromptLength}.`,
    });
  }
  const seconds = request.seconds === undefined || request.seconds === '' ? undefined : Number(request.seconds);
  if (seconds !== undefined && limits.durations && !limits.durations.includes(seconds)) {
    problems.push({
      kind: 'duration-not-offered',
      message: `${request.model} offers ${describeDurations(limits.durations)}, not ${seconds}.`,
    });
  }
  for (const name of unfilledPlaceholders(request.prompt)) {
    problems.push({ kind: 'empty-placeholder', message: `The placeholder {{${name}}} is empty.` });
  }
  return problems;
}

/** One line for a quick pick's detail or a confirmation. */
export function describeProblems(problems: readonly PromptProblem[]): string | undefined {
  return problems.length ? problems.map((problem) => problem.message).join(' ') : undefined;
}
