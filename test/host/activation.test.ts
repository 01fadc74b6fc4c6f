import { allCommandIds } from '../../src/common/contributions';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SETTING_DEFAULTS, SETTING_KEYS } from '../../src/config/schema';
import { EXTENSION_ID, packageJson, testApi, useSettings } from './support/extension';

interface ContributedCommand {
  command: string;
  title: string;
  category?: string;
  icon?: string;
}

interface ConfigurationSection {
  title: string;
  properties: Record<string, { default?: unknown; markdownDescription?: string }>;
}

describe('shell: activation and contributions', () => {
  const own = useSettings();

  it('activates and hands the test API over in test mode', async () => {
    const api = await testApi();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    // The public object of each feature and of the connection they share; nothing behind them.
    assert.deepEqual(Object.keys(api).sort(), [
      'account',
      'auth',
      'chat',
      'connection',
      'editorStream',
      'languageModels',
      'log',
      'participant',
      'startup',
      'statusBar',
      'storage',
      'video',
    ]);
    for (const [name, handle] of Object.entries(api)) assert.ok(handle, `${name} is handed over`);
  });

  it('issue 28.1: VS Code loads dist/start.js, which compiles dist/extension.js with a V8 code cache it keeps in the global storage', async () => {
    const { startup } = await testApi();
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(startup && extension, 'src/start.ts loaded the bundle and reported how');
    assert.equal(packageJson().main, './dist/start.js');
    // The cache is named by the text of the bundle this window runs: the one of the extension's own dist/ folder.
    const bundle = fs.readFileSync(path.join(extension.extensionPath, 'dist', 'extension.js'));
    const digest = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
    assert.match(
      String(startup.cacheFile),
      new RegExp(`[\\\\/]globalStorage[\\\\/]${EXTENSION_ID.replace('.', '\\.')}[\\\\/]code-cache[\\\\/]extension-${digest}-v8-[\\w.]+\\.cache$`),
    );
    // A fresh profile has no cache yet: this window writes it, a moment after its activation, for the next one.
    const written = await startup.cacheWritten;
    assert.equal(written, startup.codeCache !== 'used', `code cache ${startup.codeCache}, written ${written}`);
    assert.ok(fs.statSync(String(startup.cacheFile)).size > 0, 'the cache file holds what V8 compiled');
    for (const [phase, ms] of Object.entries(startup.phases)) assert.ok(ms >= 0 && ms < 60_000, `${phase}: ${ms} ms`);
  });

  it('issue 11.4: activates once the window has started (no "*"), and for the panels it restores', () => {
    const events = packageJson().activationEvents;
    // onStartupFinished: pending video tasks are followed, and their completion announced, without any view open;
    // it waits until the window is up, so it never delays start-up. onWebviewPanel (not derived from the
    // contributions) restores chat panels, video players, the gallery, storyboard editors and Show Usage after a reload.
    assert.deepEqual(events, [
      'onStartupFinished',
      'onWebviewPanel:promptreel.chatPanel',
      'onWebviewPanel:promptreel.videoPlayer',
      'onWebviewPanel:promptreel.videoGallery',
      'onWebviewPanel:promptreel.filmEditor',
      'onWebviewPanel:promptreel.usage',
    ]);
  });

  it('registers every contributed command, and contributes every command it registers', async () => {
    await testApi();
    const contributed = (packageJson().contributes.commands as ContributedCommand[]).map((command) => command.command).sort();
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of contributed) assert.ok(registered.has(id), `${id} is contributed but not registered`);
    for (const id of allCommandIds()) assert.ok(contributed.includes(id), `${id} is in the command table but not contributed`);
    // VS Code itself adds `<view id>.focus`, `.open`… for each contributed view.
    const viewIds = (packageJson().contributes.views as Record<string, { id: string }[]>).promptreel.map((view) => `${view.id}.`);
    const ours = [...registered].filter((id) => id.startsWith('promptreel.') && !viewIds.some((prefix) => id.startsWith(prefix))).sort();
    assert.deepEqual(ours, contributed, 'every registered promptreel.* command is contributed');
  });

  it('gives every command the Promptreel category and a codicon', () => {
    for (const command of packageJson().contributes.commands as ContributedCommand[]) {
      assert.equal(command.category, 'Promptreel', command.command);
      assert.match(command.icon ?? '', /^\$\([a-z-]+\)$/, `${command.command} has a codicon`);
    }
  });

  it('declares every setting with the defaults the code uses and a markdownDescription', () => {
    const sections = packageJson().contributes.configuration as ConfigurationSection[];
    assert.deepEqual(
      sections.map((section) => section.title),
      ['General', 'Chat', 'Video'],
    );
    const declared = Object.assign({}, ...sections.map((section) => section.properties)) as ConfigurationSection['properties'];
    assert.deepEqual(Object.keys(declared).sort(), SETTING_KEYS.map((key) => `promptreel.${key}`).sort());
    for (const key of SETTING_KEYS) {
      const property = declared[`promptreel.${key}`];
      assert.deepEqual(property.default, SETTING_DEFAULTS[key], `default of promptreel.${key}`);
      assert.ok(property.markdownDescription, `promptreel.${key} has a markdownDescription`);
    }
  });

  it('reads defaults through the typed accessor', () => {
    const { settings } = own;
    assert.equal(settings.video.seconds, '5');
    assert.equal(settings.video.downloadFolder, 'videos');
    assert.equal(settings.video.staleAfterHours, 24);
    assert.equal(settings.video.autoDownload, false);
    assert.equal(settings.chat.maxTokens, null);
  });

  it('contributes the Promptreel container with the Chat and Video Tasks views and their welcome content', () => {
    const contributes = packageJson().contributes as {
      viewsContainers: { activitybar: { id: string; title: string; icon: string }[] };
      views: Record<string, { id: string; name: string }[]>;
      viewsWelcome: { view: string; contents: string; when?: string }[];
    };
    assert.deepEqual(contributes.viewsContainers.activitybar, [{ id: 'promptreel', title: 'Promptreel', icon: 'media/promptreel.svg' }]);
    assert.deepEqual(
      contributes.views.promptreel.map((view) => [view.id, view.name]),
      [
        ['promptreel.chat', 'Chat'],
        ['promptreel.videoTasks', 'Video Tasks'],
      ],
    );
    // The Chat view is a webview: it shows its own no-key state (with Set API Key) instead of welcome content.
    assert.ok(!contributes.viewsWelcome.some((welcome) => welcome.view === 'promptreel.chat'), 'no welcome content for the chat webview');
    for (const view of ['promptreel.videoTasks']) {
      const noKey = contributes.viewsWelcome.find((welcome) => welcome.view === view && welcome.when === '!promptreel.hasApiKey');
      assert.ok(noKey?.contents.includes('(command:promptreel.setApiKey)'), `${view} offers Set API Key without a key`);
      const withKey = contributes.viewsWelcome.find((welcome) => welcome.view === view && welcome.when === 'promptreel.hasApiKey');
      assert.ok(withKey?.contents.includes('(command:promptreel.testConnection)'), `${view} offers Test Connection with a key`);
    }
  });

  it('opens the Promptreel views', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.promptreel');
    await vscode.commands.executeCommand('promptreel.videoTasks.focus');
  });
});
