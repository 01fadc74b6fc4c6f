import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { VariantsOutcome } from '../../../src/video/variantsFlow';
import { runScripted, scriptQuickInputs, setSetting, testApi, STUDIO, VIDEO, videoPosts, writeWorkspaceFile, type Step } from './videoTestSupport';
import { useConnectedService } from '../support/connectedService';

const PROMPT = 'A heron taking off from a misty lake';

type Body = { prompt: string; seconds: string; metadata: { seed?: number } };

/** Runs Generate Variants with scripted quick inputs, answering the one confirmation with `confirm` (or dismissing it). */
async function variants(steps: Step[], confirm: boolean, arg?: vscode.Uri) {
  const { result, messages, seen } = await runScripted(
    steps,
    () => vscode.commands.executeCommand<VariantsOutcome | undefined>('promptreel.generateVideoVariants', ...(arg ? [arg] : [])),
    (shown) => (confirm && /^Generate \d+ videos?\?$/.test(shown.message) ? shown.items[0] : undefined),
  );
  return { outcome: result, messages, seen };
}

describe('video: Generate Variants (issue 16.3)', () => {
  const ctx = useConnectedService(VIDEO, STUDIO);

  it('issue 16.3: one prompt, three seeds: the total price first, then exactly one POST per task, grouped in the tree', async () => {
    await setSetting('video.seed', 100);
    const { outcome, messages, seen } = await variants(
      [{ pick: 'One prompt, different seeds' }, { input: PROMPT }, { input: '3' }, { pick: 'Review 3 variants' }],
      true,
    );
    assert.equal(seen[2].value, '4', 'the count starts at promptreel.video.maxVariants (4)');
    const confirmation = messages.find((message) => message.message === 'Generate 3 videos?');
    assert.ok(confirmation, JSON.stringify(messages));
    assert.deepEqual(confirmation.items, ['Generate 3 Videos']);
    assert.match(confirmation.detail ?? '', /promptreel-video · 5 s · 720p · adaptive/);
    assert.match(confirmation.detail ?? '', /Price: \$1\.20 · \$2\.00 left after \(3 × \$0\.40\)\./);
    assert.match(confirmation.detail ?? '', /sent once and never retried/);

    assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
    const bodies = videoPosts(ctx.service).map((post) => post.body as Body);
    assert.equal(bodies.length, 3, 'exactly one POST per confirmed task');
    assert.deepEqual(
      bodies.map((body) => [body.prompt, body.metadata.seed]),
      [
        [PROMPT, 100],
        [PROMPT, 101],
        [PROMPT, 102],
      ],
    );

    const api = await testApi();
    const { tree, store } = api.video;
    const [groupElement, ...rest] = tree.getChildren();
    assert.deepEqual(rest, [], 'one group at the top');
    const ids = outcome.tasks.map((task) => task.id);
    assert.deepEqual(tree.getChildren(groupElement), ids, 'the variants in their order');
    assert.equal(tree.getParent(ids[1]), groupElement);
    const group = await tree.getTreeItem(groupElement);
    assert.match(String(group.label), /^3 variants · A heron taking off/);
    assert.equal(group.description, '3 queued');
    assert.equal(group.contextValue, 'videoGroup');
    assert.deepEqual(
      ids.map((id) => store.get(id)?.group?.index),
      [0, 1, 2],
    );
    assert.ok(
      ids.every((id) => store.get(id)?.priceUsd === 0.4),
      'each task keeps the price it was created at',
    );
  });

  it('issue 16.3: nothing is sent when the confirmation is dismissed', async () => {
    const { outcome } = await variants([{ pick: 'One prompt, different seeds' }, { input: PROMPT }, { input: '2' }, { pick: 'Review 2 variants' }], false);
    assert.equal(outcome, undefined);
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('issue 16.3: the count is bounded by promptreel.video.maxVariants', async () => {
    await setSetting('video.maxVariants', 3);
    const script = scriptQuickInputs([{ pick: 'One prompt, different seeds' }, { input: PROMPT }, { input: '4' }]);
    try {
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('promptreel.generateVideoVariants')),
        /refused "4": Enter a whole number from 2 to 3/,
      );
    } finally {
      script.restore();
    }
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('issue 16.3: prompts from a JSON Lines file (the Explorer menu), cut to the setting, with their own seeds and durations', async () => {
    await setSetting('video.maxVariants', 3);
    const file = await writeWorkspaceFile(
      'prompts/batch.jsonl',
      ['"A fox at dawn"', 'not json', '{"prompt": "A heron at dusk", "seed": 7, "seconds": 10}', '{"prompt": "A storm over the sea"}', '"A fourth one"'].join(
        '\n',
      ),
    );
    const { outcome, messages, seen } = await variants([{ pick: 'Review 3 variants' }], true, file);
    assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
    assert.equal(seen[0].items?.find((item) => item.label.includes('Prompt'))?.description, '3 prompts from batch.jsonl');
    const detail = messages.find((message) => message.message === 'Generate 3 videos?')?.detail ?? '';
    assert.match(detail, /Price: \$1\.20/);
    assert.match(detail, /The file lists 4 prompts; promptreel\.video\.maxVariants keeps the first 3\./);
    assert.match(detail, /1 line of the file could not be read and is left out \(line 2: not JSON\)/);
    const bodies = videoPosts(ctx.service).map((post) => post.body as Body);
    assert.deepEqual(
      bodies.map((body) => [body.prompt, body.seconds, body.metadata.seed]),
      [
        ['A fox at dawn', '5', undefined],
        ['A heron at dusk', '10', 7],
        ['A storm over the sea', '5', undefined],
      ],
    );
    const api = await testApi();
    assert.match(String((await api.video.tree.getTreeItem(api.video.tree.getChildren()[0])).label), /^3 variants · batch\.jsonl$/);
  });

  it("review 2.3: from a file, the confirmation shows each line's own duration and seed, and exactly those are sent", async () => {
    const file = await writeWorkspaceFile(
      'prompts/own-values.jsonl',
      ['{"prompt": "A fox at dawn", "seconds": 10, "seed": 7}', '"A heron at dusk"', '{"prompt": "A storm", "seed": 8}'].join('\n'),
    );
    const { outcome, messages } = await variants([{ pick: 'Review 3 variants' }], true, file);
    assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
    const detail = messages.find((message) => message.message === 'Generate 3 videos?')?.detail ?? '';
    assert.match(detail, /promptreel-video · 10 s ×1, 5 s ×2 · 720p/);
    assert.match(detail, /Seeds: 7, 8/);
    const bodies = videoPosts(ctx.service).map((post) => post.body as Body);
    assert.deepEqual(
      bodies.map((body) => [body.seconds, body.metadata.seed]),
      [
        ['10', 7],
        ['5', undefined],
        ['5', 8],
      ],
    );
  });

  it('issue 16.3: a refused request stops the rest, and nothing is retried', async () => {
    ctx.service.setScenario({
      fault: { status: 400, body: 'task', code: 'invalid_request', message: 'prompt rejected', path: '^/v1/videos$', method: 'POST' },
    });
    const { outcome, messages } = await variants(
      [{ pick: 'One prompt, different seeds' }, { input: PROMPT }, { input: '3' }, { pick: 'Review 3 variants' }],
      true,
    );
    assert.ok(outcome?.kind === 'stopped', JSON.stringify(outcome));
    assert.equal(outcome.tasks.length, 0);
    assert.equal(outcome.notSent, 2);
    assert.match(outcome.shown.message, /^Created 0 of 3 variants; the next one failed: .*prompt rejected.* The remaining 2 were not sent\.$/);
    assert.ok(messages.some((message) => message.severity === 'error'));
    assert.equal(videoPosts(ctx.service).length, 1, 'one POST: not retried, the others not sent');
  });

  it('issue 16.3: a lost answer is never sent again: it is listed as "answer lost" in the group, and the rest are not sent', async () => {
    ctx.service.setScenario({ video: { dropCreateConnection: true } });
    const { outcome } = await variants([{ pick: 'One prompt, different seeds' }, { input: PROMPT }, { input: '2' }, { pick: 'Review 2 variants' }], true);
    assert.ok(outcome?.kind === 'stopped', JSON.stringify(outcome));
    assert.match(outcome.shown.message, /answer to the next request was lost/);
    assert.equal(videoPosts(ctx.service).length, 1);
    const api = await testApi();
    const lost = api.video.store.tasks.find((task) => task.state === 'unconfirmed');
    assert.equal(lost?.group?.count, 2);
  });
});
