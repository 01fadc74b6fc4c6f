import { ensureReady } from '../workbench/readiness';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import type { ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import { showMessage } from '../workbench/showMessage';
import { allRecipes, fillRecipe, parseRecipeFile, placeholdersOf, recipesFrom, type Recipe } from './core/recipes';
import { defaultOptions, withOverrides, type VideoOptions } from './core/videoOptions';
import { RecipeText as T } from './studioText';
import type { CreateOutcome } from './videoCreator';

export const RECIPES_FILE = ['.promptreel', 'recipes.json'] as const;

const EXAMPLE = {
  recipes: [
    {
      name: 'Release teaser',
      description: 'A product launching, with confetti',
      prompt: '{{product}} launching into a starry sky, confetti bursting, {{mood:joyful}} energy, bold title card',
      seconds: '5',
    },
  ],
};

/**
 * What a recipe chooses besides its prompt. A recipe of the open folder (`.promptreel/recipes.json`) chooses nothing
 * in Restricted Mode, and when the folder is trusted its choices are named in the confirmation, beside the price.
 */
function recipeChoices(recipe: Recipe): { chosen: Pick<Recipe, 'model' | 'seconds' | 'resolution' | 'ratio'>; fromFolder: string[] } {
  const { model, seconds, resolution, ratio } = recipe;
  if (recipe.source !== 'workspace') return { chosen: { model, seconds, resolution, ratio }, fromFolder: [] };
  if (!vscode.workspace.isTrusted) return { chosen: {}, fromFolder: [] };
  const named = [
    model !== undefined ? T.folderModel(model) : undefined,
    seconds !== undefined ? T.folderSeconds(seconds) : undefined,
    resolution !== undefined ? T.folderResolution(resolution) : undefined,
    ratio !== undefined ? T.folderRatio(ratio) : undefined,
  ].filter((name): name is string => name !== undefined);
  return { chosen: { model, seconds, resolution, ratio }, fromFolder: named };
}

interface RecipeItem extends vscode.QuickPickItem {
  recipe?: Recipe;
  edit?: true;
}

export interface RecipeDeps {
  settings: Settings;
  connection: Connection;
  /** The review step and the one task (Generate Video's): price, checks, options; `fromFolder` is named beside the price. */
  review: (prompt: string, options: VideoOptions, fromFolder?: readonly string[]) => Promise<CreateOutcome | undefined>;
  log: ComponentLogger;
}

/**
 * Generate Video from Recipe: a prompt template (the workspace's `.promptreel/recipes.json`, the settings, the built-in
 * ones), its placeholders filled through input boxes, then Generate Video's review, whose check names any left empty.
 */
export class RecipeFlow {
  constructor(private readonly deps: RecipeDeps) {}

  async run(): Promise<CreateOutcome | undefined> {
    if (!(await ensureReady(this.deps.connection, t('Generating a video')))) return { kind: 'not-ready' };
    const recipe = await this.pick(
      allRecipes(
        await this.workspaceRecipes(),
        recipesFrom(this.deps.settings.get('video.recipes'), this.deps.settings.isFromFolder('video.recipes') ? 'workspace' : 'settings').recipes,
      ),
    );
    if (!recipe) return undefined;
    const values: Record<string, string> = {};
    const placeholders = placeholdersOf(recipe.prompt);
    for (const [index, placeholder] of placeholders.entries()) {
      const value = await vscode.window.showInputBox({
        title: T.placeholderTitle(recipe.name, index + 1, placeholders.length),
        prompt: T.placeholderPrompt(placeholder.name),
        placeHolder: placeholder.name,
        value: placeholder.suggestion ?? '',
        ignoreFocusOut: true,
      });
      if (value === undefined) return undefined;
      values[placeholder.name] = value;
    }
    const { chosen, fromFolder } = recipeChoices(recipe);
    const options = withOverrides(defaultOptions(this.deps.settings.video), chosen);
    return this.deps.review(fillRecipe(recipe.prompt, values), options, fromFolder);
  }

  private async pick(recipes: readonly Recipe[]): Promise<Recipe | undefined> {
    const items: RecipeItem[] = [];
    for (const source of ['workspace', 'settings', 'built-in'] as const) {
      const listed = recipes.filter((recipe) => recipe.source === source);
      if (!listed.length) continue;
      items.push({ label: T.source(source), kind: vscode.QuickPickItemKind.Separator });
      items.push(...listed.map((recipe) => ({ label: recipe.name, description: recipe.description, detail: recipe.prompt, recipe })));
    }
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: T.edit, detail: T.editDetail, edit: true });
    const picked = await vscode.window.showQuickPick(items, {
      title: T.title,
      placeHolder: T.pick,
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    });
    if (picked?.edit) await this.editWorkspaceRecipes();
    return picked?.recipe;
  }

  /** Every workspace folder's `.promptreel/recipes.json`; a file that is missing adds nothing, entries that do not fit are named. */
  private async workspaceRecipes(): Promise<Recipe[]> {
    const recipes: Recipe[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const uri = vscode.Uri.joinPath(folder.uri, ...RECIPES_FILE);
      let text: string;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue;
      }
      const parsed = parseRecipeFile(text);
      recipes.push(...parsed.recipes);
      if (parsed.problems.length) {
        const file = vscode.workspace.asRelativePath(uri);
        this.deps.log.warn(`${file}: ${parsed.problems.join('; ')}`);
        showMessage('warning', T.skipped(file, parsed.problems.slice(0, 2).join('; ')), [
          { title: T.openFile, run: () => vscode.window.showTextDocument(uri) },
        ]);
      }
    }
    return recipes;
  }

  /** Opens the first folder's recipes file, made with an example when there is none. */
  private async editWorkspaceRecipes(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
      showMessage('info', T.noWorkspace);
      return;
    }
    const uri = vscode.Uri.joinPath(folder.uri, ...RECIPES_FILE);
    const exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    if (!exists) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(EXAMPLE, null, 2)}\n`));
    await vscode.window.showTextDocument(uri);
  }
}
