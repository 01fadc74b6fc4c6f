import { t } from '../api/l10n';

// The words of the video studio (variants, recipes, Animate Image, the agent tool, the gallery), in one place, in the
// user's language: each is read when shown (getters), after the translations are installed.

export const VariantsText = {
  title: (step: number, of: number) => t('Promptreel: Generate Variants ({0}/{1})', step, of),
  get sourceSeeds() {
    return t('$(symbol-number) One prompt, different seeds');
  },
  get sourceSeedsDetail() {
    return t('Each variant is the same prompt with its own seed, so each can be made again.');
  },
  get sourceFile() {
    return t('$(file) Prompts from a file');
  },
  get sourceFileDetail() {
    return t('One prompt per line of a text file, or JSON Lines: "a prompt" or {"prompt", "seed", "seconds"} per line.');
  },
  get promptHint() {
    return t('Describe the video. Nothing is sent (or charged) before you confirm the total.');
  },
  count: (min: number, max: number) => t('How many variants? ({0} to {1}: promptreel.video.maxVariants)', min, max),
  countProblem: (min: number, max: number) => t('Enter a whole number from {0} to {1}.', min, max),
  get openFile() {
    return t('Use These Prompts');
  },
  get fileFilter() {
    return t('Prompts');
  },
  noPrompts: (file: string) => t('{0} has no prompt to make a video of: one per line, or JSON Lines with "prompt".', file),
  unreadable: (file: string, problem: string) => t('{0} cannot be read: {1}', file, problem),
  lockedPrompt: (count: number, file: string) => (count === 1 ? t('1 prompt from {0}', file) : t('{0} prompts from {1}', count, file)),
  review: (count: number) => (count === 1 ? t('Review 1 variant') : t('Review {0} variants', count)),
  reviewAnyway: (count: number) => (count === 1 ? t('Review 1 variant anyway') : t('Review {0} variants anyway', count)),
  confirm: (count: number) => (count === 1 ? t('Generate 1 video?') : t('Generate {0} videos?', count)),
  confirmButton: (count: number) => (count === 1 ? t('Generate 1 Video') : t('Generate {0} Videos', count)),
  get oncePerTask() {
    return t('Each is one request, sent once and never retried.');
  },
  leftOut: (listed: number, max: number) => t('The file lists {0} prompts; promptreel.video.maxVariants keeps the first {1}.', listed, max),
  skippedLines: (count: number, first: string) =>
    count === 1
      ? t('1 line of the file could not be read and is left out ({0}).', first)
      : t('{0} lines of the file could not be read and are left out ({1}).', count, first),
  checks: (problems: string) => t('Before you pay: {0}', problems),
  progress: (count: number) => (count === 1 ? t('Creating 1 video variant') : t('Creating {0} video variants', count)),
  progressStep: (index: number, count: number) => t('{0} of {1}', index, count),
  created: (count: number) =>
    count === 1
      ? t('Created 1 video variant: they are grouped under Video Tasks.')
      : t('Created {0} video variants: they are grouped under Video Tasks.', count),
  stopped: (created: number, count: number) => t('Stopped after {0} of {1} variants: the other {2} were not sent.', created, count, count - created),
  failed: (created: number, count: number, reason: string) =>
    t('Created {0} of {1} variants; the next one failed: {2} The remaining {3} were not sent.', created, count, reason, count - created - 1),
  lost: (created: number, count: number) =>
    t(
      'Created {0} of {1} variants, then the answer to the next request was lost: that task may exist (and be charged), so it was not sent again, and the remaining {2} were not sent. It is listed under Video Tasks as "answer lost".',
      created,
      count,
      count - created - 1,
    ),
  groupLabel: (count: number, label: string) => (count === 1 ? t('1 variant · {0}', label) : t('{0} variants · {1}', count, label)),
};

export const RecipeText = {
  folderModel: (model: string) => t("the model {0} (this folder's recipe)", model),
  folderSeconds: (seconds: string) => t("the duration {0} s (this folder's recipe)", seconds),
  folderResolution: (resolution: string) => t("the resolution {0} (this folder's recipe)", resolution),
  folderRatio: (ratio: string) => t("the aspect ratio {0} (this folder's recipe)", ratio),
  get title() {
    return t('Promptreel: Generate Video from Recipe');
  },
  get pick() {
    return t('Pick a recipe: its placeholders are asked next, then the settings and the price');
  },
  source: (source: 'workspace' | 'settings' | 'built-in') =>
    source === 'workspace' ? t('Workspace (.promptreel/recipes.json)') : source === 'settings' ? t('Settings (promptreel.video.recipes)') : t('Built in'),
  get edit() {
    return t('$(edit) Edit the workspace recipes…');
  },
  get editDetail() {
    return t('.promptreel/recipes.json: an array of {"name", "prompt", "description"?, "model"?, "seconds"?, "resolution"?, "ratio"?}');
  },
  get noWorkspace() {
    return t('Open a folder first: workspace recipes live in its .promptreel/recipes.json.');
  },
  placeholderTitle: (recipe: string, index: number, count: number) =>
    t('Promptreel: Generate Video from Recipe: {0}: placeholder {1} of {2}', recipe, index, count),
  placeholderPrompt: (name: string) => t('The value of {0}. Leave it empty to keep the placeholder (the check before charging names it).', `{{${name}}}`),
  skipped: (file: string, problems: string) => t('Some recipes of {0} were left out: {1}', file, problems),
  get openFile() {
    return t('Open File');
  },
};

export const AnimateText = {
  title: (step: number) => t('Promptreel: Animate Image ({0}/2)', step),
  get pickImage() {
    return t('Promptreel: Animate Image');
  },
  get notAnImage() {
    return t('Only a PNG, JPEG or WebP image can be the first frame of a video.');
  },
  get noModel() {
    return t(
      'No video model is declared to take an image as its first frame. Set "firstFrame": true for it in promptreel.models.capabilities (a gateway that lists image in the input_modalities of a model declares it by itself).',
    );
  },
  get pickModel() {
    return t('The video models that take an image as the first frame');
  },
  prompt: (file: string) => t('What happens from {0} on? Nothing is sent (or charged) before you confirm the settings in the next step.', file),
};
