import { formatUsd } from '../api';

// The words of the video studio (variants, recipes, Animate Image, the agent tool, the gallery), in one place.

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export const VariantsText = {
  title: (step: number, of: number) => `Promptreel: Generate Variants (${step}/${of})`,
  sourceSeeds: '$(symbol-number) One prompt, different seeds',
  sourceSeedsDetail: 'Each variant is the same prompt with its own seed, so each can be made again.',
  sourceFile: '$(file) Prompts from a file',
  sourceFileDetail: 'One prompt per line of a text file, or JSON Lines: "a prompt" or {"prompt", "seed", "seconds"} per line.',
  promptHint: 'Describe the video. Nothing is sent (or charged) before you confirm the total.',
  count: (min: number, max: number) => `How many variants? (${min} to ${max}: promptreel.video.maxVariants)`,
  countProblem: (min: number, max: number) => `Enter a whole number from ${min} to ${max}.`,
  openFile: 'Use These Prompts',
  noPrompts: (file: string) => `${file} has no prompt to make a video of: one per line, or JSON Lines with "prompt".`,
  lockedPrompt: (count: number, file: string) => `${plural(count, 'prompt')} from ${file}`,
  review: (count: number) => `Review ${plural(count, 'variant')}`,
  confirm: (count: number) => `Generate ${plural(count, 'video')}?`,
  confirmButton: (count: number) => `Generate ${plural(count, 'Video')}`,
  costs: (total: number, count: number, keeps: string | undefined) =>
    `It costs ${formatUsd(total)} in all (${count} × ${formatUsd(total / count)})${keeps ? `; ${keeps}` : ''}.`,
  noPrice: 'Each uses your quota like any other video (no price is known for this model).',
  oncePerTask: 'Each is one request, sent once and never retried.',
  leftOut: (listed: number, max: number) => `The file lists ${listed} prompts; promptreel.video.maxVariants keeps the first ${max}.`,
  skippedLines: (count: number, first: string) =>
    `${plural(count, 'line')} of the file could not be read and ${count === 1 ? 'is' : 'are'} left out (${first}).`,
  checks: (problems: string) => `Before you pay: ${problems}`,
  progress: (count: number) => `Creating ${plural(count, 'video variant')}`,
  progressStep: (index: number, count: number) => `${index} of ${count}`,
  created: (count: number) => `Created ${plural(count, 'video variant')}: they are grouped under Video Tasks.`,
  stopped: (created: number, count: number) => `Stopped after ${created} of ${count} variants: the other ${count - created} were not sent.`,
  failed: (created: number, count: number, reason: string) =>
    `Created ${created} of ${count} variants; the next one failed: ${reason} The remaining ${count - created - 1} were not sent.`,
  lost: (created: number, count: number) =>
    `Created ${created} of ${count} variants, then the answer to the next request was lost: that task may exist (and be charged), so it was not sent again, and the remaining ${count - created - 1} were not sent. It is listed under Video Tasks as "answer lost".`,
  groupLabel: (count: number, label: string) => `${plural(count, 'variant')} · ${label}`,
};

export const RecipeText = {
  title: 'Promptreel: Generate Video from Recipe',
  pick: 'Pick a recipe: its placeholders are asked next, then the settings and the price',
  sources: { workspace: 'Workspace (.promptreel/recipes.json)', settings: 'Settings (promptreel.video.recipes)', 'built-in': 'Built in' },
  edit: '$(edit) Edit the workspace recipes…',
  editDetail: '.promptreel/recipes.json: an array of {"name", "prompt", "description"?, "model"?, "seconds"?, "resolution"?, "ratio"?}',
  noWorkspace: 'Open a folder first: workspace recipes live in its .promptreel/recipes.json.',
  placeholder: (recipe: string, index: number, count: number) => `${recipe}: placeholder ${index} of ${count}`,
  placeholderPrompt: (name: string) => `The value of {{${name}}}. Leave it empty to keep the placeholder (the check before charging names it).`,
  skipped: (file: string, problems: string) => `Some recipes of ${file} were left out: ${problems}`,
  openFile: 'Open File',
};

export const AnimateText = {
  title: (step: number) => `Promptreel: Animate Image (${step}/2)`,
  pickImage: 'Promptreel: Animate Image',
  notAnImage: 'Only a PNG, JPEG or WebP image can be the first frame of a video.',
  noModel:
    'No video model is declared to take an image as its first frame. Set "firstFrame": true for it in promptreel.models.capabilities (a gateway that lists image in the input_modalities of a model declares it by itself).',
  pickModel: 'The video models that take an image as the first frame',
  prompt: (file: string) => `What happens from ${file} on? Nothing is sent (or charged) before you confirm the settings in the next step.`,
};
