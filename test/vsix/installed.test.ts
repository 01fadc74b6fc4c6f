import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DoctorResult } from '../../src/doctor/core/doctorResult';
import { waitFor } from '../host/support/waitFor';
import { DEMO_KEY, startLocalService, type LocalService } from '../service';
import { listedName } from './packageContents';

// `npm run test:vsix` (scripts/run-vsix-check.js → scripts/run-host-tests.js --vsix): Promptreel as a user gets it,
// dist/promptreel.vsix installed with `code-server --install-extension`, in each pinned VS Code. These tests only use
// what any extension can (the extension's exports are empty outside test mode): its commands and its language models.

const EXTENSION_ID = 'promptreel.promptreel';

/** A value the runner hands over through the environment (scripts/run-host-tests.js --vsix, scripts/run-vsix-check.js). */
function given(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is set by the runner (npm run test:vsix)`);
  return value;
}

function installed(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed`);
  return extension;
}

function filesBelow(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((entry) => (entry.isFile() ? [path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')] : []));
}

/** The lines of the one log below the profile's logs (`<session>/exthost1/…`) whose path matches `name`. */
function logLines(name: RegExp): string[] {
  const logs = path.join(given('PROMPTREEL_VSIX_USER_DATA_DIR'), 'logs');
  const files = fs.existsSync(logs) ? filesBelow(logs).filter((file) => name.test(file)) : [];
  assert.equal(files.length, 1, `one log ${name} below ${logs}: ${files.join(', ')}`);
  return fs.readFileSync(path.join(logs, files[0]), 'utf8').split('\n');
}

/** Promptreel's own log (its output channel). */
const promptreelLog = (): string[] => logLines(/\/exthost\d+\/promptreel\.promptreel\/Promptreel\.log$/);
/** The extension host's log: activation failures and uncaught errors of extensions land there. */
const extensionHostLog = (): string[] => logLines(/\/exthost\d+\/(remote)?exthost\.log$/);

describe(`the installed VSIX (npm run test:vsix) in VS Code ${vscode.version}`, () => {
  let service: LocalService | undefined;

  before(async () => {
    service = await startLocalService();
  });

  after(async () => {
    await vscode.workspace.getConfiguration('promptreel').update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await service?.stop();
  });

  function local(): LocalService {
    assert.ok(service, 'the local service is started');
    return service;
  }

  it('runs in the VS Code the runner installed', () => {
    assert.equal(vscode.version, given('PROMPTREEL_VSIX_VSCODE_VERSION'));
  });

  it('is the package code-server installed, holding exactly what vsce ls listed', () => {
    const extension = installed();
    const folder = extension.extensionUri.fsPath;
    const version = String((extension.packageJSON as { version?: unknown }).version);
    assert.equal(folder, path.join(given('PROMPTREEL_VSIX_EXTENSIONS_DIR'), `${EXTENSION_ID}-${version}`));
    const listed = JSON.parse(fs.readFileSync(given('PROMPTREEL_VSIX_LISTED'), 'utf8')) as string[];
    const held = filesBelow(folder).flatMap((file) => listedName(file) ?? []);
    assert.deepEqual(held.sort(), [...listed].sort());
  });

  it('activates as for any user: without error, and handing no test API out', async () => {
    const extension = installed();
    const exported = await extension.activate();
    assert.equal(extension.isActive, true);
    assert.equal(exported, undefined, 'activate() hands its test API out only in test mode');
    const version = String((extension.packageJSON as { version?: unknown }).version);
    // The log file is written a moment after the lines are logged.
    await waitFor(() => promptreelLog().some((line) => line.includes(`Promptreel ${version} activated in VS Code ${vscode.version}.`)), {
      what: 'the activation line in its log',
    });
  });

  it('registers every command it contributes', async () => {
    const contributed = (installed().packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((entry) => entry.command);
    assert.ok(contributed.length > 10, `${contributed.length} commands contributed`);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((id) => !registered.has(id)),
      [],
    );
  });

  it('Test Connection reaches the local service with the key from PROMPTREEL_API_KEY', async () => {
    await vscode.workspace.getConfiguration('promptreel').update('baseUrl', local().baseUrl, vscode.ConfigurationTarget.Global);
    const result = await vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
    assert.equal(result.ok, true, result.message);
    assert.deepEqual(
      result.steps.filter((step) => !step.ok),
      [],
    );
    const models = local().requests.filter((request) => request.path === '/v1/models');
    assert.ok(models.length > 0, 'the service was asked for its models');
    assert.ok(
      models.every((request) => request.key === DEMO_KEY),
      'with the key',
    );
  });

  it('streams a chat completion through its language model provider', async () => {
    const model = await waitFor(
      async () => (await vscode.lm.selectChatModels({ vendor: 'promptreel' })).find((candidate) => candidate.id === 'promptreel-chat'),
      {
        what: "Promptreel's chat model in vscode.lm",
        timeoutMs: 20_000,
      },
    );
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('Hello from the installed VSIX')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const chunk of response.text) text += chunk;
    assert.equal(text, 'You said: Hello from the installed VSIX');
    const sent = local()
      .requests.filter((request) => request.path === '/v1/chat/completions')
      .at(-1);
    assert.ok(sent, 'the service received the chat completion');
    assert.equal(sent.key, DEMO_KEY);
    assert.equal((sent.body as { stream?: unknown }).stream, true);
  });

  it('opens its views and its chat panel', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.promptreel');
    await vscode.commands.executeCommand('promptreel.videoTasks.focus');
    await vscode.commands.executeCommand('promptreel.openChatInEditor');
    const panel = await waitFor(
      () =>
        vscode.window.tabGroups.all
          .flatMap((group) => group.tabs)
          .find((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('promptreel.chatPanel')),
      { what: 'the chat panel tab' },
    );
    await vscode.window.tabGroups.close(panel);
  });

  it('logs no error, and the extension host none about it', () => {
    assert.deepEqual(
      promptreelLog().filter((line) => /\[error\]/.test(line)),
      [],
    );
    assert.deepEqual(
      extensionHostLog().filter((line) => /\[error\]/.test(line) && /promptreel/i.test(line)),
      [],
    );
  });
});
