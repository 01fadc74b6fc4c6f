import * as assert from 'node:assert/strict';
import { formatMessage, setTranslator } from '../../../../src/api/l10n';
import { allRecipes, builtInRecipes, fillRecipe, parseRecipeFile, placeholdersOf, recipesFrom, type Recipe } from '../../../../src/video/core/recipes';
import { capVariants, parsePromptList, seedVariants } from '../../../../src/video/core/variants';
import { checkPrompt } from '../../../../src/video/core/promptCheck';

describe('issue 16.4: recipes', () => {
  it('lists the placeholders in order, once each, with their suggestions', () => {
    assert.deepEqual(placeholdersOf('{{subject}} in {{place}} at {{time:golden hour}}, {{subject}}'), [
      { name: 'subject' },
      { name: 'place' },
      { name: 'time', suggestion: 'golden hour' },
    ]);
    assert.deepEqual(placeholdersOf('no placeholders'), []);
  });

  it('fills a recipe; an empty answer keeps its placeholder, which the prompt check then names', () => {
    const template = '{{subject}} in {{place}} at {{time:golden hour}}';
    assert.equal(fillRecipe(template, { subject: 'A fox', place: ' a forest ', time: 'dawn' }), 'A fox in a forest at dawn');
    const filled = fillRecipe(template, { subject: 'A fox', place: '  ' });
    assert.equal(filled, 'A fox in {{place}} at {{time}}');
    assert.deepEqual(
      checkPrompt({ prompt: filled, model: 'm' }, { firstFrame: false }).map((problem) => problem.message),
      ['The placeholder {{place}} is empty.', 'The placeholder {{time}} is empty.'],
    );
  });

  it('every built-in recipe has a name, a prompt and at least one placeholder', () => {
    assert.ok(builtInRecipes().length >= 5);
    for (const recipe of builtInRecipes()) assert.ok(placeholdersOf(recipe.prompt).length > 0, recipe.name);
  });

  it('reads .promptreel/recipes.json as an array or {recipes}, skipping and naming entries that do not fit', () => {
    const entry = { name: 'Teaser', prompt: '{{product}} launching', seconds: 5 };
    assert.deepEqual(parseRecipeFile(JSON.stringify([entry])).recipes, [
      { name: 'Teaser', prompt: '{{product}} launching', seconds: '5', source: 'workspace' },
    ]);
    const mixed = parseRecipeFile(JSON.stringify({ recipes: [entry, { name: 'No prompt' }, { name: 'Long', prompt: 'p', seconds: 99 }] }));
    assert.equal(mixed.recipes.length, 1);
    assert.deepEqual(mixed.problems.length, 2);
    assert.match(mixed.problems[0], /^entry 2: prompt/);
    assert.match(mixed.problems[1], /^entry 3: seconds/);
    assert.match(parseRecipeFile('{ not json').problems[0], /^not JSON/);
    assert.match(parseRecipeFile('{"other": 1}').problems[0], /expected an array of recipes/);
  });

  it("puts the user's recipes first; a later one with a name already taken is left out", () => {
    const workspace = recipesFrom([{ name: 'Product shot', prompt: 'my own {{thing}}' }], 'workspace').recipes;
    const settings = recipesFrom(
      [
        { name: 'product SHOT', prompt: 'settings {{thing}}' },
        { name: 'Mine', prompt: '{{a}}' },
      ],
      'settings',
    ).recipes;
    const all = allRecipes(workspace, settings);
    assert.deepEqual(
      all.slice(0, 2).map((recipe) => [recipe.name, recipe.source]),
      [
        ['Product shot', 'workspace'],
        ['Mine', 'settings'],
      ],
    );
    assert.equal(all.length, builtInRecipes().length + 1);
  });

  it("a recipe of the user's named like a built-in one replaces it whatever the display language", () => {
    setTranslator((message, args) => `«${formatMessage(message, args)}»`);
    try {
      const mine: Recipe = { name: 'product shot', prompt: 'My {{thing}}', source: 'settings' };
      const all = allRecipes([], [mine]);
      assert.equal(all.length, builtInRecipes().length, 'the built-in one is left out');
      assert.ok(
        all.some((recipe) => recipe.name === '«Timelapse»'),
        'built-in names are read in the display language',
      );
      assert.ok(!all.some((recipe) => recipe.name === '«Product shot»'));
    } finally {
      setTranslator(formatMessage);
    }
  });
});

describe('issue 16.3: variants', () => {
  it('gives each variant of one prompt its own seed, from the chosen one or a random start', () => {
    assert.deepEqual(seedVariants('p', 3, 41), [
      { prompt: 'p', seed: 41 },
      { prompt: 'p', seed: 42 },
      { prompt: 'p', seed: 43 },
    ]);
    const random = seedVariants('p', 4, undefined, () => 0.5);
    assert.equal(new Set(random.map((variant) => variant.seed)).size, 4);
    assert.ok(random.every((variant) => Number.isInteger(variant.seed) && variant.seed! >= 0 && variant.seed! <= 4_294_967_295));
    assert.deepEqual(
      seedVariants('p', 2, 4_294_967_295).map((variant) => variant.seed),
      [4_294_967_295, 0],
    );
  });

  it('reads one prompt per line of a text file, skipping empty lines and comments', () => {
    const { variants, problems } = parsePromptList('# ideas\r\nA fox at dawn\n\n  A heron at dusk  \rA storm\n', 'ideas.txt');
    assert.deepEqual(
      variants.map((variant) => variant.prompt),
      ['A fox at dawn', 'A heron at dusk', 'A storm'],
    );
    assert.deepEqual(problems, []);
  });

  it('reads JSON Lines: strings or {prompt, seed, seconds}, naming the lines that do not fit', () => {
    const text = ['"A fox"', '{"prompt": "A heron", "seed": 7, "seconds": 10}', '{"prompt": ""}', 'not json', '{"prompt": "A storm", "seed": -1}'].join('\n');
    const { variants, problems } = parsePromptList(text, 'batch.JSONL');
    assert.deepEqual(variants, [{ prompt: 'A fox' }, { prompt: 'A heron', seed: 7, seconds: '10' }]);
    assert.deepEqual(problems, ['line 3: expected a prompt string or {"prompt": …}', 'line 4: not JSON', 'line 5: expected a prompt string or {"prompt": …}']);
  });

  it('caps the list at the setting and says how many were left out', () => {
    const list = ['a', 'b', 'c', 'd', 'e'].map((prompt) => ({ prompt }));
    assert.deepEqual(capVariants(list, 3), { kept: list.slice(0, 3), leftOut: 2 });
    assert.deepEqual(capVariants(list, 10), { kept: list, leftOut: 0 });
  });
});
