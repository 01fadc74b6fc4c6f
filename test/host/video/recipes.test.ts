import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CreateOutcome } from '../../../src/video/videoCreator';
import { runScripted, setSetting, STUDIO, VIDEO, videoPosts, writeWorkspaceFile, type scriptQuickInputs, type Step } from './videoTestSupport';
import { useConnectedService } from '../support/connectedService';

type Body = { prompt: string; seconds: string; model: string; metadata: { ratio: string } };

async function run(command: string, steps: Step[]) {
  const { result, seen, messages } = await runScripted(steps, () => vscode.commands.executeCommand<CreateOutcome | undefined>(command));
  return { outcome: result, seen, messages };
}

/** The review step's first item ("Generate video"), as it was offered at the `nth` review. */
function generateItem(seen: ReturnType<typeof scriptQuickInputs>['seen'], nth = 0): vscode.QuickPickItem | undefined {
  return seen.filter((step) => step.title?.startsWith('Promptreel: Generate Video (2/2)'))[nth]?.items?.[0];
}

describe('video: recipes and the check before charging (issue 16.4)', () => {
  const ctx = useConnectedService(VIDEO, STUDIO);

  afterEach(async () => {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.promptreel'), { recursive: true }).then(
      () => undefined,
      () => undefined,
    );
  });

  it('issue 16.4: a built-in recipe asks for its placeholders; one left empty is named before anything is charged', async () => {
    const empty = await run('promptreel.generateVideoFromRecipe', [
      { pick: 'Cinematic scene' },
      { input: 'A red fox' },
      { input: '' },
      { input: (value) => value ?? '' },
      { cancel: true },
    ]);
    assert.equal(empty.outcome, undefined);
    const placeholders = empty.seen.filter((step) => step.kind === 'input');
    assert.deepEqual(
      placeholders.map((step) => step.title),
      [
        'Promptreel: Generate Video from Recipe: Cinematic scene: placeholder 1 of 3',
        'Promptreel: Generate Video from Recipe: Cinematic scene: placeholder 2 of 3',
        'Promptreel: Generate Video from Recipe: Cinematic scene: placeholder 3 of 3',
      ],
    );
    assert.equal(placeholders[2].value, 'golden hour', 'the suggestion is offered');
    const warned = generateItem(empty.seen);
    assert.equal(warned?.label, '$(warning) Generate video anyway');
    assert.match(String(warned?.detail), /The placeholder \{\{place\}\} is empty\./);
    assert.equal(videoPosts(ctx.service).length, 0);

    const filled = await run('promptreel.generateVideoFromRecipe', [
      { pick: 'Cinematic scene' },
      { input: 'A red fox' },
      { input: 'a birch forest' },
      { input: 'dawn' },
      { pick: 'Generate video' },
    ]);
    assert.equal(generateItem(filled.seen)?.label, '$(play) Generate video');
    assert.equal(filled.outcome?.kind, 'created');
    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 1);
    assert.equal((posts[0].body as Body).prompt, 'A red fox in a birch forest at dawn, cinematic wide shot, slow dolly-in, anamorphic lens flare, film grain');
  });

  it("issue 16.4: the workspace's .promptreel/recipes.json comes first, with its settings; entries that do not fit are named", async () => {
    await writeWorkspaceFile(
      '.promptreel/recipes.json',
      JSON.stringify({ recipes: [{ name: 'Teaser', prompt: '{{product}} launching', seconds: 10, ratio: '1:1' }, { name: 'Broken' }] }),
    );
    await setSetting('video.recipes', [{ name: 'From settings', prompt: 'A {{thing}}' }]);
    const { outcome, seen, messages } = await run('promptreel.generateVideoFromRecipe', [
      { pick: 'Teaser' },
      { input: 'A rocket' },
      { pick: 'Generate video' },
    ]);
    assert.equal(outcome?.kind, 'created');
    const labels = seen[0].labels ?? [];
    assert.deepEqual(labels.slice(0, 4), ['Workspace (.promptreel/recipes.json)', 'Teaser', 'Settings (promptreel.video.recipes)', 'From settings']);
    assert.ok(labels.includes('Product shot'), 'the built-in recipes follow');
    const body = videoPosts(ctx.service)[0].body as Body;
    assert.deepEqual([body.prompt, body.seconds, body.metadata.ratio], ['A rocket launching', '10', '1:1']);
    assert.ok(
      messages.some((message) => /Some recipes of \.promptreel\/recipes\.json were left out: entry 2: prompt/.test(message.message)),
      JSON.stringify(messages),
    );
  });

  it('issue 16.4: Generate Video names a prompt too long and a duration the model does not offer, and offers its durations', async () => {
    await setSetting('models.capabilities', { 'promptreel-video': { durations: [5, 10], maxPromptLength: 20 } });
    await setSetting('video.seconds', '7');
    const { outcome, seen } = await run('promptreel.generateVideo', [
      { input: 'A paper boat drifting down a rainy street' },
      { pick: 'Duration' },
      { pick: '10 s' },
      { pick: 'Generate video' },
    ]);
    const before = generateItem(seen, 0);
    assert.equal(before?.label, '$(warning) Generate video anyway');
    assert.equal(before?.detail, 'The prompt has 41 characters; promptreel-video accepts at most 20. promptreel-video offers 5 or 10 seconds, not 7.');
    assert.deepEqual(seen[2].labels, ['5 s', '10 s', '$(edit) Other…']);
    assert.equal(generateItem(seen, 1)?.detail, 'The prompt has 41 characters; promptreel-video accepts at most 20.');
    assert.equal(outcome?.kind, 'created', 'the user may still send');
    assert.equal(videoPosts(ctx.service).length, 1);
    assert.equal((videoPosts(ctx.service)[0].body as Body).seconds, '10');
  });
});
