import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChatSession } from '../../../../src/chatPanel/webview/chatSession';
import type { Conversation, ToolCallRecord } from '../../../../src/chatPanel/core/model';
import type { ToolDecision } from '../../../../src/chatPanel/webview/protocol';
import type { PromptreelTestApi } from '../../../../src/extension';
import { useConnectedService } from '../../support/connectedService';
import { MemoryFileSystem } from '../../support/memoryFileSystem';
import { workspaceUri, writeWorkspaceFile } from '../../support/workspace';
import { chatRequests, CHAT, lastChatBody, newConversation, readyViewHost, recordPosts, setSetting, testApi, waitFor } from '../chatTestSupport';

type ScriptedCall = { name: string; arguments: Record<string, unknown>; id?: string };

/** A folder `tools-test/` of the workspace with these files (relative path -> text). */
async function fixtureFolder(files: Record<string, string>): Promise<vscode.Uri> {
  for (const [path, text] of Object.entries(files)) await writeWorkspaceFile(`tools-test/${path}`, text);
  return workspaceUri('tools-test');
}

const toolCalls = (conversation: Conversation): ToolCallRecord[] =>
  conversation.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));

/** A secret outside the workspace, as `~/.aws/credentials` is: a folder of this machine's temporary folder. */
function outsideSecret(text: string): { folder: string; file: string; remove(): void } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-secret-'));
  const file = path.join(folder, 'credentials');
  fs.writeFileSync(file, `[default]\naws_secret_access_key = ${text}\n`);
  return { folder, file, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

/**
 * Adds a workspace folder as the extension sees it (tests and extension share one `vscode` API object). VS Code
 * itself would reload the window to add one, which ends the test run.
 */
function addWorkspaceFolder(folder: Omit<vscode.WorkspaceFolder, 'index'>): { folder: vscode.WorkspaceFolder; restore(): void } {
  const workspace = vscode.workspace as unknown as Record<string, unknown>;
  const own = Object.getOwnPropertyDescriptor(workspace, 'workspaceFolders');
  const getWorkspaceFolder = vscode.workspace.getWorkspaceFolder;
  const real = vscode.workspace.workspaceFolders ?? [];
  const added: vscode.WorkspaceFolder = { ...folder, index: real.length };
  Object.defineProperty(workspace, 'workspaceFolders', { configurable: true, get: () => [...real, added] });
  workspace['getWorkspaceFolder'] = (uri: vscode.Uri) => (uri.scheme === added.uri.scheme ? added : getWorkspaceFolder(uri));
  return {
    folder: added,
    restore: () => {
      if (own) Object.defineProperty(workspace, 'workspaceFolders', own);
      else delete workspace['workspaceFolders'];
      workspace['getWorkspaceFolder'] = getWorkspaceFolder;
    },
  };
}

describe('chat: tools run with approval (real extension host, local service)', () => {
  const ctx = useConnectedService(CHAT, { settings: { 'models.capabilities': { 'promptreel-chat': { tools: true } } } });
  let api: PromptreelTestApi;
  let host: ChatSession;

  beforeEach(async () => {
    api = await testApi();
    host = await readyViewHost(api);
  });

  afterEach(async () => {
    api.chat.controller.stopAll();
    for (const key of ['chat.toolsOffered', 'chat.excludedTools']) await setSetting(key, undefined);
  });

  /** Sends a message from the page with the model scripted to call `rounds` of tools; resolves when the call `index` waits. */
  async function ask(text: string, ...rounds: ScriptedCall[][]): Promise<Conversation> {
    ctx.service.setScenario({ chat: { toolScript: rounds } });
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    await host.handleMessage({ type: 'send', conversationId: conversation.id, text });
    return conversation;
  }

  async function waitingCall(conversation: Conversation, index: number): Promise<ToolCallRecord> {
    return waitFor(() => (toolCalls(conversation)[index]?.state === 'pending' ? toolCalls(conversation)[index] : undefined), {
      what: `tool call ${index} to wait for approval`,
    });
  }

  /** Answers a waiting call as the page's buttons do (a message validated at the border). */
  async function decide(conversation: Conversation, call: ToolCallRecord, decision: ToolDecision): Promise<void> {
    await host.handleMessage({ type: 'toolApproval', conversationId: conversation.id, callId: call.id, decision });
  }

  async function answered(conversation: Conversation): Promise<string> {
    await waitFor(() => !api.chat.controller.isBusy(conversation.id) && conversation.messages.length > 1, { what: 'the answer' });
    const last = conversation.messages.at(-1);
    assert.ok(last?.role === 'assistant');
    return last.text;
  }

  it('issue 15.3: read a file range after Allow; the page is told the call waits, then its result', async () => {
    const conversation = await ask('read the start of sample.ts', [
      { name: 'promptreel_read_file', arguments: { path: 'src/sample.ts', startLine: 1, endLine: 3 } },
    ]);
    const call = await waitingCall(conversation, 0);
    assert.equal(call.readOnly, true);
    assert.equal(call.source, 'promptreel');
    const offered = lastChatBody(ctx.service).tools?.map((tool) => tool.function.name) ?? [];
    assert.deepEqual(offered.slice(0, 5), [
      'promptreel_read_file',
      'promptreel_list_folder',
      'promptreel_search_text',
      'promptreel_find_symbols',
      'promptreel_read_problems',
    ]);
    assert.ok(offered.includes('fixture_append_note'), "another extension's tool is offered");
    assert.ok(!offered.some((name) => name.endsWith('_internal') || name === 'manage_todo_list'), "VS Code's own Chat tools are not");
    await decide(conversation, call, 'allow');
    assert.equal(await answered(conversation), 'Tool results received (1):\n- src/sample.ts, lines 1-3 of 9:');
    assert.equal(
      toolCalls(conversation)[0]?.result,
      'src/sample.ts, lines 1-3 of 9:\n1\t/** Adds two numbers. */\n2\texport function add(a: number, b: number): number {\n3\t  return a + b;',
    );
  });

  it('issue 15.3: list a folder, allowed for the rest of the chat: the next call runs without asking', async () => {
    const folder = await fixtureFolder({ 'a.ts': 'a', 'lib/b.ts': 'b', 'lib/c.ts': 'c' });
    const expected = ['tools-test/a.ts', 'tools-test/lib/b.ts', 'tools-test/lib/c.ts'];
    await waitFor(
      async () => {
        const seen = new Set((await api.chat.mentions.files.visibleFiles(0, 'tools-test')).map((file) => file.path));
        return expected.every((path) => seen.has(path));
      },
      { what: 'the index to see the three files' },
    );
    const conversation = await ask(
      'what is in tools-test?',
      [{ name: 'promptreel_list_folder', arguments: { path: 'tools-test' } }],
      [{ name: 'promptreel_list_folder', arguments: {} }],
    );
    await decide(conversation, await waitingCall(conversation, 0), 'allowForChat');
    await answered(conversation);
    assert.deepEqual(
      toolCalls(conversation).map((call) => call.state),
      ['done', 'done'],
    );
    assert.equal(toolCalls(conversation)[0]?.result, 'tools-test/ (1 folder, 1 file):\nlib/ (2 files)\na.ts');
    assert.match(
      toolCalls(conversation)[1]?.result ?? '',
      /^The workspace folder \(\d+ folders?, \d+ files?\):\n[^]*src\/ \(\d+ files?\)[^]*tools-test\/ \(3 files\)/,
    );
    assert.deepEqual(api.chat.store.get(conversation.id)?.allowedTools, ['promptreel_list_folder']);
    await vscode.workspace.fs.delete(folder, { recursive: true });
  });

  it('issue 15.3: search text: Deny runs nothing and the model reads that it was declined; Allow finds the lines', async () => {
    const denied = await ask('find greet', [{ name: 'promptreel_search_text', arguments: { query: 'greet' } }]);
    await decide(denied, await waitingCall(denied, 0), 'deny');
    assert.equal(await answered(denied), 'Tool results received (1):\n- The user declined to run this tool call.');
    assert.equal(toolCalls(denied)[0]?.state, 'denied');

    const allowed = await ask('find greet', [{ name: 'promptreel_search_text', arguments: { query: 'GREET', include: 'src/**' } }]);
    await decide(allowed, await waitingCall(allowed, 0), 'allow');
    await answered(allowed);
    assert.equal(
      toolCalls(allowed)[0]?.result,
      '2 matches for "GREET" in 1 file:\nsrc/sample.ts:6: /** Greets someone by name. */\nsrc/sample.ts:7: export function greet(name: string): string {',
    );
  });

  it("issue 15.3: find symbols by name (the workspace's symbol providers) and of one file", async () => {
    const folder = await fixtureFolder({ 'shapes.fixture': 'circle\nsquare\n' });
    const file = vscode.Uri.joinPath(folder, 'shapes.fixture');
    const range = new vscode.Range(1, 0, 1, 6);
    const symbol = new vscode.SymbolInformation('fixtureSquare', vscode.SymbolKind.Class, 'shapes', new vscode.Location(file, range));
    const providers = [
      vscode.languages.registerWorkspaceSymbolProvider({ provideWorkspaceSymbols: (query) => (query === 'fixtureSq' ? [symbol] : []) }),
      vscode.languages.registerDocumentSymbolProvider(
        { pattern: '**/*.fixture' },
        {
          provideDocumentSymbols: () => [new vscode.DocumentSymbol('fixtureSquare', '', vscode.SymbolKind.Class, range, range)],
        },
      ),
    ];
    try {
      const conversation = await ask('where is fixtureSquare?', [
        { name: 'promptreel_find_symbols', arguments: { query: 'fixtureSq' } },
        { name: 'promptreel_find_symbols', arguments: { path: 'tools-test/shapes.fixture' } },
      ]);
      await decide(conversation, await waitingCall(conversation, 0), 'allowForChat');
      await answered(conversation);
      assert.deepEqual(
        toolCalls(conversation).map((call) => call.result),
        [
          'Symbols matching "fixtureSq":\nfixtureSquare (class in shapes) tools-test/shapes.fixture:2',
          'Symbols of tools-test/shapes.fixture:\nfixtureSquare (class) line 2',
        ],
      );
    } finally {
      for (const provider of providers) provider.dispose();
      await vscode.workspace.fs.delete(folder, { recursive: true });
    }
  });

  it("issue 15.3: read problems of a file and of the workspace, as VS Code's Problems view holds them", async () => {
    const sample = workspaceUri('src', 'sample.ts');
    const diagnostics = vscode.languages.createDiagnosticCollection('tool-test');
    const problem = new vscode.Diagnostic(new vscode.Range(1, 9, 1, 12), "'add' is declared but never used.", vscode.DiagnosticSeverity.Warning);
    problem.source = 'lint';
    diagnostics.set(sample, [problem]);
    try {
      const conversation = await ask('any problems?', [
        { name: 'promptreel_read_problems', arguments: { path: 'src/sample.ts' } },
        { name: 'promptreel_read_problems', arguments: {} },
      ]);
      await decide(conversation, await waitingCall(conversation, 0), 'allow');
      await decide(conversation, await waitingCall(conversation, 1), 'allow');
      await answered(conversation);
      const line = "src/sample.ts:2:10 warning (lint): 'add' is declared but never used.";
      assert.equal(toolCalls(conversation)[0]?.result, `Problems in src/sample.ts:\n${line}`);
      assert.ok(toolCalls(conversation)[1]?.result?.includes(line), toolCalls(conversation)[1]?.result);
    } finally {
      diagnostics.dispose();
    }
  });

  it('issue 15.3: files outside the workspace or left out by .gitignore are not read', async () => {
    const folder = workspaceUri();
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, '.gitignore'), new TextEncoder().encode('secret.env\n'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'secret.env'), new TextEncoder().encode('TOKEN=abc\n'));
    // The index reads .gitignore files again when one changes (a file watcher's event, a moment later).
    await waitFor(() => api.chat.mentions.files.isHidden(vscode.Uri.joinPath(folder, 'secret.env')), { what: 'the new .gitignore to count' });
    try {
      const conversation = await ask('read secrets', [
        { name: 'promptreel_read_file', arguments: { path: 'secret.env' } },
        { name: 'promptreel_read_file', arguments: { path: '../../etc/passwd' } },
      ]);
      await decide(conversation, await waitingCall(conversation, 0), 'allowForChat');
      await answered(conversation);
      const [secret, outside] = toolCalls(conversation);
      assert.equal(secret?.state, 'failed');
      assert.match(secret?.result ?? '', /secret\.env is left out of the chat by files\.exclude, search\.exclude or a \.gitignore file/);
      assert.equal(outside?.state, 'failed');
      assert.match(outside?.result ?? '', /outside the workspace/);
      assert.ok(!JSON.stringify(chatRequests(ctx.service).map((request) => request.body)).includes('TOKEN=abc'), 'the secret never reached the service');
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, '.gitignore'));
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'secret.env'));
    }
  });

  it('review 2.1: a link to a secret outside the workspace (a file link, a folder link) is not read, listed or searched, even allowed for the chat', async () => {
    const secretText = 'review21-AKIAFAKESECRET';
    const secret = outsideSecret(secretText);
    // In a folder the file watcher already watches (it can miss files created with their folder).
    const src = path.join(workspaceUri().fsPath, 'src');
    const created = ['review-readme.md', 'review-notes.txt', 'review-home'].map((name) => path.join(src, name));
    fs.writeFileSync(created[0]!, 'Plain notes.\n');
    // What a cloned repository can ship: `notes.txt -> ~/.aws/credentials`, and a link to a home folder.
    fs.symlinkSync(secret.file, created[1]!);
    fs.symlinkSync(secret.folder, created[2]!, 'dir');
    try {
      await waitFor(async () => (await api.chat.mentions.files.search('srcreviewreadme', 5)).some((found) => found.path === 'src/review-readme.md'), {
        what: 'the index to see the files',
      });
      const conversation = await ask(
        'read the notes',
        [{ name: 'promptreel_read_file', arguments: { path: 'src/review-notes.txt' } }],
        [
          { name: 'promptreel_read_file', arguments: { path: 'src/review-home/credentials' } },
          { name: 'promptreel_list_folder', arguments: { path: 'src' } },
          { name: 'promptreel_list_folder', arguments: { path: 'src/review-home' } },
          { name: 'promptreel_search_text', arguments: { query: 'AKIAFAKE' } },
          { name: 'promptreel_search_text', arguments: { query: 'aws_secret_\\w+', isRegExp: true } },
        ],
      );
      // "Allow for this chat" for each tool as it first asks: from then on no card is shown for it.
      for (const index of [0, 2, 4]) await decide(conversation, await waitingCall(conversation, index), 'allowForChat');
      await answered(conversation);
      const [notes, inLinkedFolder, listing, linkedFolder, search, regExpSearch] = toolCalls(conversation);
      assert.equal(notes?.state, 'failed');
      assert.equal(notes?.result, 'src/review-notes.txt is a link to a place outside the workspace: it is left out of the chat, as hidden files are.');
      assert.equal(inLinkedFolder?.state, 'failed');
      assert.match(inLinkedFolder?.result ?? '', /^src\/review-home\/credentials is inside src\/review-home, a link to a place outside the workspace/);
      assert.match(listing?.result ?? '', /^src\/ \(/);
      assert.ok(listing?.result?.includes('\nreview-readme.md') && listing.result.includes('\nsample.ts'), listing?.result);
      assert.ok(!/review-notes|review-home/.test(listing?.result ?? ''), `the links are not listed: ${listing?.result}`);
      assert.match(linkedFolder?.result ?? '', /^src\/review-home is a link to a place outside the workspace/);
      assert.match(search?.result ?? '', /^No match for "AKIAFAKE"/);
      assert.match(regExpSearch?.result ?? '', /^No match for /);
      const sent = JSON.stringify(chatRequests(ctx.service).map((request) => request.body));
      assert.ok(!sent.includes(secretText), 'the secret never reached the service');
      assert.ok(!JSON.stringify(api.chat.store.get(conversation.id)).includes(secretText), 'nor the saved chat');
    } finally {
      for (const file of created) fs.rmSync(file, { force: true });
      secret.remove();
    }
  });

  it('review 2.2: hidden under every spelling: a link inside the workspace, another case on a case-insensitive file system', async () => {
    // On this disk: a link inside the workspace to Git's own files.
    const root = path.join(workspaceUri().fsPath, 'review-spelling');
    fs.mkdirSync(path.join(root, '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://review22-disk-token@example.invalid/x.git\n');
    fs.symlinkSync(path.join('.git', 'config'), path.join(root, 'config.txt'));
    // On a case-insensitive file system (as macOS and Windows disks are): .GIT is .git, .ENV is .env.
    const memfs = new MemoryFileSystem('promptreel-nocase', false);
    const registration = memfs.register();
    const write = async (file: string, text: string) => {
      await vscode.workspace.fs.createDirectory(memfs.uri(path.posix.dirname(file)));
      await vscode.workspace.fs.writeFile(memfs.uri(file), new TextEncoder().encode(text));
    };
    await write('/ws/.git/config', '[credential]\n\thelper = review22-mem-token\n');
    await write('/ws/.env', 'TOKEN=review22-env-token\n');
    await write('/ws/src/app.ts', 'export const app = 1;\n');
    const files = vscode.workspace.getConfiguration('files');
    await files.update('exclude', { ...files.inspect<Record<string, boolean>>('exclude')?.defaultValue, '**/.env': true }, vscode.ConfigurationTarget.Global);
    const added = addWorkspaceFolder({ uri: memfs.uri('/ws'), name: 'nocase' });
    try {
      const conversation = await ask(
        'read the config',
        [{ name: 'promptreel_read_file', arguments: { path: 'review-spelling/config.txt' } }],
        [
          { name: 'promptreel_read_file', arguments: { path: 'nocase/.GIT/config' } },
          { name: 'promptreel_read_file', arguments: { path: 'nocase/.ENV' } },
          { name: 'promptreel_read_file', arguments: { path: 'nocase/SRC/App.ts' } },
        ],
      );
      await decide(conversation, await waitingCall(conversation, 0), 'allowForChat');
      await answered(conversation);
      const [linked, git, env, app] = toolCalls(conversation);
      assert.match(linked?.result ?? '', /review-spelling\/\.git\/config is in a \.git folder: Git's own files are left out of the chat\./);
      assert.equal(git?.result, "nocase/.git/config is in a .git folder: Git's own files are left out of the chat.");
      assert.equal(env?.result, 'nocase/.env is left out of the chat by files.exclude, search.exclude or a .gitignore file (the user can still mention it).');
      assert.equal(app?.result, 'nocase/src/app.ts (1 line):\n1\texport const app = 1;', 'another case reads the file as the file system spells it');
      const sent = JSON.stringify(chatRequests(ctx.service).map((request) => request.body));
      for (const token of ['review22-disk-token', 'review22-mem-token', 'review22-env-token'])
        assert.ok(!sent.includes(token), `${token} never reached the service`);
    } finally {
      added.restore();
      await files.update('exclude', undefined, vscode.ConfigurationTarget.Global);
      registration.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("review 2.5: a model's regular expression that backtracks without end is stopped, and the extension host goes on", async () => {
    // In a folder the file watcher already watches (it can miss files created with their folder).
    const file = workspaceUri('src', 'review-regex.txt');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(`${'a'.repeat(30)}!\n`));
    try {
      await waitFor(async () => (await api.chat.mentions.files.search('srcreviewregex', 5)).some((found) => found.path === 'src/review-regex.txt'), {
        what: 'the index to see the file',
      });
      const conversation = await ask('find it', [
        { name: 'promptreel_search_text', arguments: { query: '(a+)+$', isRegExp: true, include: 'src/review-regex.txt' } },
      ]);
      await decide(conversation, await waitingCall(conversation, 0), 'allow');
      await answered(conversation);
      const [search] = toolCalls(conversation);
      assert.equal(search?.state, 'failed');
      assert.match(search?.result ?? '', /^The regular expression took more than 1 second on src\/review-regex\.txt, so the search was stopped/);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });

  it("issue 15.3: another extension's tool asks every time (no 'for this chat'), runs through vscode.lm after Allow", async () => {
    const notes = workspaceUri('notes.md');
    await vscode.workspace.fs.delete(notes).then(undefined, () => undefined);
    const conversation = await ask(
      'take notes',
      [{ name: 'fixture_append_note', arguments: { line: 'first' } }],
      [{ name: 'fixture_append_note', arguments: { line: 'second' } }],
      [{ name: 'fixture_append_note', arguments: { line: 'third' } }],
    );
    const first = await waitingCall(conversation, 0);
    assert.equal(first.readOnly, false);
    assert.equal(first.source, 'vscode');
    await decide(conversation, first, 'allowForChat');
    await decide(conversation, await waitingCall(conversation, 1), 'allow');
    await decide(conversation, await waitingCall(conversation, 2), 'deny');
    await answered(conversation);
    assert.deepEqual(
      toolCalls(conversation).map((call) => call.state),
      ['done', 'done', 'denied'],
    );
    assert.equal(toolCalls(conversation)[0]?.result, 'Appended "first" to notes.md.');
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(notes)), 'first\nsecond\n');
    assert.equal(api.chat.store.get(conversation.id)?.allowedTools, undefined);
    await vscode.workspace.fs.delete(notes);
  });

  it('issue 15.3: Stop from the page while a call waits ends the turn at once; nothing more is sent', async () => {
    const conversation = await ask('read', [{ name: 'promptreel_read_file', arguments: { path: 'README.md' } }]);
    await waitingCall(conversation, 0);
    const sent = chatRequests(ctx.service).length;
    await host.handleMessage({ type: 'stop', conversationId: conversation.id });
    await waitFor(() => !api.chat.controller.isBusy(conversation.id), { what: 'the turn to end' });
    assert.equal(toolCalls(conversation)[0]?.state, 'stopped');
    const last = conversation.messages.at(-1);
    assert.equal(last?.role === 'assistant' ? last.status : last?.role, 'stopped');
    assert.equal(chatRequests(ctx.service).length, sent);
  });

  it('review 2.8: two calls with one id: the page shows two cards, each decision applies to its own card', async () => {
    const posts = recordPosts(host);
    try {
      const conversation = await ask('read two ranges', [
        { name: 'promptreel_read_file', arguments: { path: 'src/sample.ts', startLine: 1, endLine: 1 }, id: 'call_dup' },
        { name: 'promptreel_read_file', arguments: { path: 'src/sample.ts', startLine: 2, endLine: 2 }, id: 'call_dup' },
      ]);
      await waitingCall(conversation, 1);
      const cards = await waitFor(
        () =>
          posts.messages
            .flatMap((message) => (message.type === 'toolCalls' && message.conversationId === conversation.id ? [message.calls] : []))
            .filter((calls) => calls.length === 2 && calls.every((call) => call.state === 'pending'))
            .at(-1),
        { what: 'the page to be told both calls wait' },
      );
      assert.notEqual(cards[0]?.id, cards[1]?.id, 'each card names its own call');
      await decide(conversation, cards[1]!, 'deny');
      assert.equal(api.chat.controller.decideTool(conversation.id, cards[1]!.id, 'allow'), false, 'the second card is decided');
      // The round runs its calls in order: the second is marked denied once the first is decided.
      assert.equal(toolCalls(conversation)[0]?.state, 'pending', 'Deny on the second card left the first call waiting');
      await decide(conversation, cards[0]!, 'allow');
      await answered(conversation);
      assert.deepEqual(
        toolCalls(conversation).map((call) => call.state),
        ['done', 'denied'],
      );
      const sent = lastChatBody(ctx.service).messages as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
      const ids = sent.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id));
      assert.deepEqual(ids, [cards[0]!.id, cards[1]!.id], 'the model reads the ids the cards went by');
      assert.deepEqual(
        sent.filter((message) => message.role === 'tool').map((message) => message.tool_call_id),
        ids,
      );
    } finally {
      posts.dispose();
    }
  });

  it('review 2.8: Stop from the page ends the turn while two calls with one id wait', async () => {
    const conversation = await ask('read twice', [
      { name: 'promptreel_read_file', arguments: { path: 'src/sample.ts' }, id: 'call_dup' },
      { name: 'promptreel_read_file', arguments: { path: 'README.md' }, id: 'call_dup' },
    ]);
    await waitingCall(conversation, 1);
    const sent = chatRequests(ctx.service).length;
    await host.handleMessage({ type: 'stop', conversationId: conversation.id });
    await waitFor(() => !api.chat.controller.isBusy(conversation.id), { timeoutMs: 3_000, what: 'Stop to end the turn' });
    assert.deepEqual(
      toolCalls(conversation).map((call) => call.state),
      ['stopped', 'stopped'],
    );
    assert.equal(chatRequests(ctx.service).length, sent);
  });

  it('promptreel.chat.toolsOffered and excludedTools choose what is offered; a model without tools gets none', async () => {
    const offeredFor = async (): Promise<string[]> => {
      const conversation = await newConversation();
      await api.chat.controller.send(conversation.id, { text: 'hello' });
      return lastChatBody(ctx.service).tools?.map((tool) => tool.function.name) ?? [];
    };
    await setSetting('chat.toolsOffered', 'workspace');
    assert.deepEqual((await offeredFor()).length, 5);
    await setSetting('chat.toolsOffered', 'all');
    await setSetting('chat.excludedTools', ['fixture_*', 'promptreel_search_text']);
    const offered = await offeredFor();
    assert.ok(
      !offered.includes('fixture_append_note') && !offered.includes('promptreel_search_text') && offered.includes('promptreel_read_file'),
      offered.join(),
    );
    await setSetting('chat.toolsOffered', 'none');
    assert.deepEqual(await offeredFor(), []);
    await setSetting('chat.toolsOffered', undefined);
    await setSetting('models.capabilities', { 'promptreel-chat': { tools: false } });
    assert.deepEqual(await offeredFor(), []);
  });
});
