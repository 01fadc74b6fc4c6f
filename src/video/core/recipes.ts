import * as z from 'zod/mini';
import { recipeSettingSchema, type RecipeSetting } from '../../config/schema';
import { t } from '../../api/l10n';
import { PLACEHOLDER } from './promptCheck';

/** A prompt template and where it comes from. */
export interface Recipe extends RecipeSetting {
  source: 'built-in' | 'settings' | 'workspace';
  /** A built-in recipe's English name: a recipe of the user's with that name replaces it in every language. */
  englishName?: string;
}

/** A placeholder of a recipe, in the order it first appears. */
export interface Placeholder {
  name: string;
  /** `{{name:default}}`: offered as the input's value. */
  suggestion?: string;
}

/**
 * The recipes Promptreel ships: common kinds of short videos, each with the parts the user fills in. Names and
 * descriptions in the user's language (read when asked, after the translator is installed); the prompts stay
 * English, as the video model gets them.
 */
export function builtInRecipes(): Recipe[] {
  return [
    {
      name: t('Product shot'),
      englishName: 'Product shot',
      description: t('An object turning in studio light'),
      prompt: 'A {{product}} slowly rotating on a {{surface:seamless white}} background, soft studio lighting, shallow depth of field, commercial product film',
      source: 'built-in',
    },
    {
      name: t('Explainer'),
      englishName: 'Explainer',
      description: t('A concept drawn step by step'),
      prompt: 'An animated explainer of {{concept}}: clean flat-design diagrams that build up step by step, calm camera, {{palette:blue and white}} palette',
      source: 'built-in',
    },
    {
      name: t('Cinematic scene'),
      englishName: 'Cinematic scene',
      description: t('A subject, a place, a time of day'),
      prompt: '{{subject}} in {{place}} at {{time:golden hour}}, cinematic wide shot, slow dolly-in, anamorphic lens flare, film grain',
      source: 'built-in',
    },
    {
      name: t('Timelapse'),
      englishName: 'Timelapse',
      description: t('Hours in a few seconds, from a fixed camera'),
      prompt: 'A timelapse of {{subject}} from {{start:dawn}} to {{end:night}}, fixed camera, smooth motion, clouds racing overhead',
      source: 'built-in',
    },
    {
      name: t('Logo reveal'),
      englishName: 'Logo reveal',
      description: t('A name revealed with an effect, 16:9'),
      prompt: 'The logo "{{brand}}" revealed by {{effect:light sweeping across brushed metal}}, dark background, elegant motion',
      ratio: '16:9',
      source: 'built-in',
    },
  ];
}

export function placeholdersOf(template: string): Placeholder[] {
  const seen = new Map<string, Placeholder>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (seen.has(name)) continue;
    const suggestion = match[2]?.trim();
    seen.set(name, suggestion ? { name, suggestion } : { name });
  }
  return [...seen.values()];
}

/** The prompt with each placeholder's value; one left empty stays `{{name}}`, for the prompt check to name. */
export function fillRecipe(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => values[name]?.trim() || `{{${name}}}`);
}

const recipeFileSchema = z.union([z.array(z.unknown()), z.object({ recipes: z.array(z.unknown()) })]);

/**
 * `.promptreel/recipes.json`: an array of recipes, or `{"recipes": [...]}`. Entries that do not fit are skipped and
 * named (the others still count); a file that is not JSON at all is one problem.
 */
export function parseRecipeFile(text: string, source: Recipe['source'] = 'workspace'): { recipes: Recipe[]; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { recipes: [], problems: [t('not JSON ({0})', error instanceof Error ? error.message : String(error))] };
  }
  const file = recipeFileSchema.safeParse(raw);
  if (!file.success) return { recipes: [], problems: [t('expected an array of recipes, or {"recipes": [...]}')] };
  return recipesFrom(Array.isArray(file.data) ? file.data : file.data.recipes, source);
}

/** Each entry checked on its own: a name and a prompt at least. */
export function recipesFrom(entries: readonly unknown[], source: Recipe['source']): { recipes: Recipe[]; problems: string[] } {
  const recipes: Recipe[] = [];
  const problems: string[] = [];
  entries.forEach((entry, index) => {
    const parsed = recipeSettingSchema().safeParse(entry);
    if (parsed.success) recipes.push({ ...parsed.data, source });
    else
      problems.push(
        t('entry {0}: {1}: {2}', index + 1, parsed.error.issues[0]?.path.join('.') || t('recipe'), parsed.error.issues[0]?.message ?? t('does not fit')),
      );
  });
  return { recipes, problems };
}

/** Every recipe, the user's first (workspace, then settings), then the built-in ones; a later one with a taken name is left out. */
export function allRecipes(workspace: readonly Recipe[], settings: readonly Recipe[]): Recipe[] {
  const seen = new Set<string>();
  return [...workspace, ...settings, ...builtInRecipes()].filter((recipe) => {
    const keys = [recipe.name, recipe.englishName].flatMap((name) => (name ? [name.trim().toLowerCase()] : []));
    if (keys.some((key) => seen.has(key))) return false;
    keys.forEach((key) => seen.add(key));
    return true;
  });
}
