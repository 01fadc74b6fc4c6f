import { CommandIds } from '../../../src/common/contributions';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { packageJson } from '../support/extension';
import { connectVideo, generateReviewed, VIDEO, pollUntil, runtime, waitFor } from './videoTestSupport';
import { useConnectedService } from '../support/connectedService';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

describe('video: commands, menus and the list', () => {
  const ctx = useConnectedService(VIDEO);

  it('contributes every video command, with item commands only in the view', async () => {
    const contributes = packageJson().contributes as {
      commands: { command: string; category: string; icon: string }[];
      menus: Record<string, MenuEntry[]>;
      viewsWelcome: { view: string; contents: string; when?: string }[];
    };
    const registered = new Set(await vscode.commands.getCommands(true));
    const palette = contributes.menus.commandPalette;
    for (const id of Object.values(CommandIds.video)) {
      const command = contributes.commands.find((candidate) => candidate.command === id);
      assert.ok(command, `${id} is contributed`);
      assert.ok(registered.has(id), `${id} is registered`);
      if (id.startsWith('promptreel.video.')) {
        assert.ok(
          palette.some((entry) => entry.command === id && entry.when === 'false'),
          `${id} is hidden from the palette`,
        );
        assert.ok(
          contributes.menus['view/item/context'].some((entry) => entry.command === id),
          `${id} is in the item menu`,
        );
      }
    }
    const titles = contributes.menus['view/title'].filter((entry) => entry.when === 'view == promptreel.videoTasks' && entry.group?.startsWith('navigation'));
    assert.deepEqual(titles.map((entry) => entry.command).slice(0, 3), [
      CommandIds.video.generate,
      CommandIds.video.refreshAll,
      CommandIds.video.clearFinished,
    ]);
    const welcome = contributes.viewsWelcome.find((entry) => entry.view === 'promptreel.videoTasks' && entry.when === 'promptreel.hasApiKey');
    assert.ok(welcome?.contents.includes('[Generate Video](command:promptreel.generateVideo)'));
  });

  it('item menus match the context values the tree gives', async () => {
    const menus = (packageJson().contributes as { menus: Record<string, MenuEntry[]> }).menus['view/item/context'];
    const shownFor = (contextValue: string) =>
      menus
        .filter((entry) => {
          const match = /viewItem =~ \/(.*)\/$/.exec(entry.when ?? '');
          return match && new RegExp(match[1]).test(contextValue);
        })
        .map((entry) => `${entry.command}${entry.group?.startsWith('inline') ? ' (inline)' : ''}`);
    assert.deepEqual(shownFor('videoTask:running:request'), [
      'promptreel.video.regenerate',
      'promptreel.video.refresh',
      'promptreel.video.copyTaskId',
      'promptreel.video.copyPrompt',
      'promptreel.video.remove',
    ]);
    assert.deepEqual(shownFor('videoTask:completed:request').slice(0, 3), [
      'promptreel.video.download (inline)',
      'promptreel.video.download',
      'promptreel.video.open',
    ]);
    assert.ok(shownFor('videoTask:completed:downloaded:source:request').includes('promptreel.video.open (inline)'));
    assert.ok(shownFor('videoTask:completed:downloaded:source:request').includes('promptreel.video.reveal'));
    assert.ok(shownFor('videoTask:completed:downloaded:source:request').includes('promptreel.video.goToSource'));
    assert.ok(!shownFor('videoTask:completed:downloaded').includes('promptreel.video.download (inline)'));
    assert.ok(!shownFor('videoTask:failed').includes('promptreel.video.open'));
    assert.ok(shownFor('videoTask:stale').includes('promptreel.video.refresh'));
  });

  it('Copy Task ID, Copy Prompt, Remove from List, Clear Finished, Refresh All', async () => {
    const api = await connectVideo(ctx.service);
    const make = async (prompt: string) => {
      const outcome = await generateReviewed({ prompt });
      assert.ok(outcome?.kind === 'created');
      return outcome.task.id;
    };
    const running = await make('Still running');
    const done = await make('Finished one');
    const gone = await make('To remove');
    ctx.service.task(done)!.forced = 'completed';
    await pollUntil(api, done, (task) => task.state === 'completed', 'completed');

    assert.equal(await vscode.commands.executeCommand('promptreel.video.copyTaskId', running), true);
    assert.equal(await vscode.env.clipboard.readText(), running);
    assert.equal(await vscode.commands.executeCommand('promptreel.video.copyPrompt', { id: done }), true);
    assert.equal(await vscode.env.clipboard.readText(), 'Finished one');

    const { store, tree } = runtime(api);
    assert.equal(await vscode.commands.executeCommand('promptreel.video.remove', gone), 1);
    assert.deepEqual(tree.getChildren(), [done, running]);
    assert.equal(await vscode.commands.executeCommand('promptreel.clearFinishedVideoTasks'), 1);
    assert.deepEqual(tree.getChildren(), [running]);

    const polls = ctx.service.task(running)?.polls ?? 0;
    await vscode.commands.executeCommand('promptreel.refreshVideoTasks');
    await pollUntil(api, running, () => (ctx.service.task(running)?.polls ?? 0) > polls, 'Refresh All to poll');
    assert.ok(store.get(running));
  });

  it('keeps at most promptreel.video.historySize tasks', async () => {
    const api = await connectVideo(ctx.service);
    const { store } = runtime(api);
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) {
      const outcome = await generateReviewed({ prompt });
      assert.ok(outcome?.kind === 'created');
      ids.push(outcome.task.id);
      ctx.service.task(outcome.task.id)!.forced = 'completed';
      await pollUntil(api, outcome.task.id, (task) => task.state === 'completed', 'completed');
    }
    await vscode.workspace.getConfiguration('promptreel').update('video.historySize', 2, vscode.ConfigurationTarget.Global);
    try {
      await waitFor(() => store.tasks.length === 2, { what: 'the list to shrink' });
      assert.deepEqual(
        store.tasks.map((task) => task.id),
        [ids[2], ids[1]],
      );
    } finally {
      await vscode.workspace.getConfiguration('promptreel').update('video.historySize', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
