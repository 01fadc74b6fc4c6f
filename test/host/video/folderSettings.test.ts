import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CreateOutcome } from '../../../src/video/videoCreator';
import { scriptQuickInputs, STUDIO, VIDEO, videoPosts, waitFor, writeWorkspaceFile } from './videoTestSupport';
import { useConnectedService } from '../support/connectedService';

/** Writes the folder's `.vscode/settings.json` (as a cloned repository ships it) and waits until VS Code applies it. */
async function folderSettings(values: Record<string, unknown>): Promise<void> {
  await writeWorkspaceFile('.vscode/settings.json', JSON.stringify(values, null, 2));
  await waitFor(() => vscode.workspace.getConfiguration('promptreel').inspect('video.seconds')?.workspaceValue !== undefined, {
    what: "the folder's settings to apply",
  });
}

async function removeFolderSettings(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return;
  await Promise.resolve(vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'))).catch(() => undefined);
  await waitFor(() => vscode.workspace.getConfiguration('promptreel').inspect('video.seconds')?.workspaceValue === undefined, {
    what: "the folder's settings to go",
  });
}

/** Opens `command`'s review with scripted answers up to it, dismisses it, and returns its generate item. */
async function reviewOf(command: string, steps: { pick: string }[], args?: unknown): Promise<vscode.QuickPickItem> {
  const script = scriptQuickInputs([...steps, { cancel: true }]);
  try {
    const outcome = await vscode.commands.executeCommand<CreateOutcome | undefined>(command, ...(args ? [args] : []));
    assert.equal(outcome, undefined);
  } finally {
    script.restore();
  }
  const review = script.seen.at(-1);
  assert.match(review?.title ?? '', /Generate Video \(2\/2\)/);
  const generate = review?.items?.[0];
  assert.ok(generate, 'the review has its generate item');
  return generate;
}

describe("video: what a folder's settings may decide (review 2.4)", () => {
  const ctx = useConnectedService(VIDEO, STUDIO);

  afterEach(async () => {
    await removeFolderSettings();
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) await Promise.resolve(vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, '.promptreel'), { recursive: true })).catch(() => undefined);
  });

  it("review 2.4: a folder's prices are never the price shown, and what it chose is named beside the price", async () => {
    await folderSettings({
      'promptreel.models.prices': { 'promptreel-video': { perRequest: 0.01 } },
      'promptreel.video.seconds': '10',
    });
    const generate = await reviewOf('promptreel.generateVideo', [], { prompt: 'A kite over a field' });
    assert.equal(generate.description, 'promptreel-video · 10 s · 720p · $0.40 · $2.80 left after', "the service's price, not the folder's $0.01");
    assert.match(generate.detail ?? '', /From this folder's settings \(not yours\): the duration\./);
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it("review 2.4: a workspace recipe's model and duration are named as the folder's", async () => {
    await writeWorkspaceFile(
      '.promptreel/recipes.json',
      JSON.stringify({ recipes: [{ name: 'Folder teaser', prompt: 'A teaser of the product', seconds: '10', model: 'promptreel-video' }] }),
    );
    const generate = await reviewOf('promptreel.generateVideoFromRecipe', [{ pick: 'Folder teaser' }]);
    assert.match(generate.description ?? '', /^promptreel-video · 10 s · 720p · \$0\.40/);
    assert.match(generate.detail ?? '', /the model promptreel-video \(this folder's recipe\), the duration 10 s \(this folder's recipe\)/);
  });

  it('review 2.4: every setting that changes what is charged is ignored in Restricted Mode, and prices are never a folder setting', () => {
    const manifest = vscode.extensions.getExtension('promptreel.promptreel')?.packageJSON as {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
      contributes: { configuration: { properties: Record<string, { scope?: string }> }[] };
    };
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of [
      'models.prices',
      'models.capabilities',
      'chat.model',
      'chat.maxTokens',
      'chat.maxToolRounds',
      'requestOptions',
      'models.requestOptions',
      'video.model',
      'video.seconds',
      'video.resolution',
      'video.generateAudio',
      'video.maxVariants',
      'video.recipes',
    ])
      assert.ok(restricted.includes(`promptreel.${key}`), `promptreel.${key} is restricted`);
    const prices = manifest.contributes.configuration.map((section) => section.properties['promptreel.models.prices']).find(Boolean);
    assert.equal(prices?.scope, 'application', 'only the user settings can hold prices');
  });
});
