import * as assert from 'node:assert/strict';
import { DEFAULT_RATE_LIMIT } from '../../../../src/api/chat/rateLimitRetry';
import { ChatController } from '../../../../src/chatPanel/core/chatController';
import { ConversationStore } from '../../../../src/chatPanel/core/conversationStore';
import type { AssistantMessage, Conversation } from '../../../../src/chatPanel/core/model';
import type { ChatSettingsSource } from '../../../../src/chatPanel/core/replyStreamer';
import { TOOL_RESULTS } from '../../../../src/chatPanel/core/toolRound';
import type { ToolRunResult, ToolSpec, Toolbox } from '../../../../src/chatPanel/core/toolbox';
import { Logger } from '../../../../src/common/logger';
import { SecretRedactor } from '../../../../src/common/redactor';
import { SETTING_DEFAULTS, type ModelCapabilities, type SettingKey, type SettingValue } from '../../../../src/config/schema';
import type { PromptreelClient } from '../../../../src/api/client';
import type { ModelPrice } from '../../../../src/api/account/prices';
import { MemoryStorage } from '../../../fakes/memoryStorage';
import type { LocalService } from '../../../service';
import { clientFor, useLocalService, waitUntil } from '../../support/localService';

const MODEL = 'promptreel-chat';

/** Tools that run in the test: they record their calls, answer from their input, and can be held until released. */
class RecordingToolbox implements Toolbox {
  readonly runs: { name: string; input: Record<string, unknown>; signal: AbortSignal }[] = [];
  hold: Promise<void> | undefined;
  /** A tool that does not listen to its signal: held until `hold` settles, Stop or not. */
  ignoresStop = false;

  constructor(private readonly tools: ToolSpec[]) {}

  list(): ToolSpec[] {
    return this.tools;
  }

  async run(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolRunResult> {
    this.runs.push({ name, input, signal });
    if (this.hold && this.ignoresStop) await this.hold;
    else if (this.hold) await Promise.race([this.hold, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
    return name === 'broken' ? { ok: false, text: 'disk on fire' } : { ok: true, text: `${name} of ${JSON.stringify(input)}\nsecond line` };
  }
}

const schema = { type: 'object', properties: { path: { type: 'string' } } };
const readFile: ToolSpec = { name: 'read_file', description: 'Read a file', inputSchema: schema, readOnly: true, source: 'promptreel' };
const writeNote: ToolSpec = { name: 'write_note', description: 'Write a note', inputSchema: schema, readOnly: false, source: 'vscode' };
const broken: ToolSpec = { name: 'broken', description: 'Fails', inputSchema: schema, readOnly: true, source: 'promptreel' };

interface Harness {
  controller: ChatController;
  toolbox: RecordingToolbox;
  conversation: Conversation;
  settings: Partial<Record<SettingKey, unknown>>;
  capabilities: ModelCapabilities;
}

interface HarnessOptions {
  tools?: ToolSpec[];
  capabilities?: ModelCapabilities;
  /** The `chat.model` setting ('' : none, the first model listed is asked for). */
  model?: string;
  firstListedModel?: (signal?: AbortSignal) => Promise<string | undefined>;
  priceOf?: (model: string) => Promise<ModelPrice | undefined>;
}

function harness(
  service: LocalService,
  { tools = [readFile, writeNote, broken], capabilities = { tools: true }, model = MODEL, firstListedModel, priceOf }: HarnessOptions = {},
): Harness {
  const client: PromptreelClient = clientFor(service);
  const values: Partial<Record<SettingKey, unknown>> = { 'chat.model': model };
  const settings: ChatSettingsSource = {
    get: <K extends SettingKey>(key: K) => (values[key] ?? SETTING_DEFAULTS[key]) as SettingValue<K>,
    get chat() {
      return { model, temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0, maxTokens: null };
    },
    capabilities: () => capabilities,
    rateLimit: DEFAULT_RATE_LIMIT,
  };
  const store = new ConversationStore(new MemoryStorage(), { saveDelayMs: 0 });
  const log = new Logger({ trace() {}, debug() {}, info() {}, warn() {}, error() {} }, new SecretRedactor()).forComponent('chat');
  const toolbox = new RecordingToolbox(tools);
  const ready = { readiness: async () => ({ kind: 'ready' as const, service: service.baseUrl, client }) };
  const controller = new ChatController(store, settings, ready, log, { toolbox, firstListedModel, priceOf });
  return { controller, toolbox, conversation: store.create(), settings: values, capabilities };
}

function script(...rounds: { name: string; arguments: Record<string, unknown> | string; id?: string }[][]) {
  return { chat: { toolScript: rounds } };
}

function chatRequests(service: LocalService) {
  return service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/chat/completions');
}

interface SentMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

function lastRequestMessages(service: LocalService): SentMessage[] {
  const requests = chatRequests(service);
  return (requests[requests.length - 1]!.body as { messages: SentMessage[] }).messages;
}

function callsOf(conversation: Conversation): AssistantMessage['toolCalls'] {
  return conversation.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));
}

async function pendingCall(h: Harness, index: number): Promise<string> {
  await waitUntil(() => callsOf(h.conversation)[index]?.state === 'pending');
  return callsOf(h.conversation)[index]!.id;
}

interface SentAssistant {
  role: string;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

/** The ids of the tool calls in the last request's history, and the `tool_call_id`s of the results that answer them. */
function sentToolIds(service: LocalService): { calls: string[]; results: string[] } {
  const messages = lastRequestMessages(service) as SentAssistant[];
  return {
    calls: messages.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id)),
    results: messages.flatMap((message) => (message.role === 'tool' && message.tool_call_id ? [message.tool_call_id] : [])),
  };
}

/** The turn's promise, once it settled: a turn that is still running after `ms` fails the test (Stop must end it). */
async function endsWithin<T>(turn: Promise<T>, what: string, ms = 2_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    const outcome = await Promise.race([turn, late]);
    assert.notEqual(outcome, 'late', `the turn is still running ${ms} ms after Stop (${what})`);
    return outcome as T;
  } finally {
    clearTimeout(timer);
  }
}

describe('the chat tool loop (local service playing a tool-calling model)', () => {
  const ctx = useLocalService();

  it('offers the tools, asks before a call, runs it after Allow and sends its result back until the model answers', async () => {
    ctx.service.setScenario(script([{ name: 'read_file', arguments: { path: 'a.ts' } }], [{ name: 'read_file', arguments: { path: 'b.ts' } }]));
    const h = harness(ctx.service);
    const replying = h.controller.send(h.conversation.id, { text: 'read a.ts and b.ts' });
    const first = await pendingCall(h, 0);
    assert.equal(h.toolbox.runs.length, 0, 'nothing runs before the user allows it');
    assert.ok(h.controller.isBusy(h.conversation.id), 'the chat is busy while a call waits');
    const offered = (chatRequests(ctx.service)[0]!.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    assert.deepEqual(offered, ['read_file', 'write_note', 'broken']);
    assert.ok(h.controller.decideTool(h.conversation.id, first, 'allow'));
    assert.equal(h.controller.decideTool(h.conversation.id, first, 'allow'), false, 'a decision counts once');
    h.controller.decideTool(h.conversation.id, await pendingCall(h, 1), 'allow');
    const reply = await replying;

    assert.equal(reply?.status, 'done');
    assert.equal(reply?.text, 'Tool results received (2):\n- read_file of {"path":"a.ts"}\n- read_file of {"path":"b.ts"}');
    assert.deepEqual(
      h.toolbox.runs.map((run) => run.input),
      [{ path: 'a.ts' }, { path: 'b.ts' }],
    );
    assert.equal(chatRequests(ctx.service).length, 3, 'two tool rounds, then the answer');
    const tools = lastRequestMessages(ctx.service).filter((message) => message.role === 'tool');
    assert.deepEqual(
      tools.map((message) => message.content),
      ['read_file of {"path":"a.ts"}\nsecond line', 'read_file of {"path":"b.ts"}\nsecond line'],
    );
    assert.deepEqual(
      callsOf(h.conversation).map((call) => [call.state, call.readOnly, call.source]),
      [
        ['done', true, 'promptreel'],
        ['done', true, 'promptreel'],
      ],
    );
    assert.equal(h.controller.isBusy(h.conversation.id), false);
  });

  it('"Allow for this chat" lets a read-only tool run without asking, in this round and in later turns', async () => {
    ctx.service.setScenario(
      script([
        { name: 'read_file', arguments: { path: 'a.ts' } },
        { name: 'read_file', arguments: { path: 'b.ts' } },
      ]),
    );
    const h = harness(ctx.service);
    const replying = h.controller.send(h.conversation.id, { text: 'read both' });
    const first = await pendingCall(h, 0);
    assert.equal(callsOf(h.conversation)[1]?.state, 'pending', 'both calls of the round wait from the start');
    h.controller.decideTool(h.conversation.id, first, 'allowForChat');
    await replying;
    assert.equal(h.toolbox.runs.length, 2, 'the second call of the same tool ran without asking');
    assert.deepEqual(h.conversation.allowedTools, ['read_file']);

    const later = await h.controller.send(h.conversation.id, { text: 'again' });
    assert.equal(later?.status, 'done');
    assert.equal(h.toolbox.runs.length, 4, 'a later turn runs it without asking');
  });

  it('a tool that is not read-only asks every time, even after "Allow for this chat"', async () => {
    ctx.service.setScenario(script([{ name: 'write_note', arguments: { path: 'n.md' } }], [{ name: 'write_note', arguments: { path: 'n.md' } }]));
    const h = harness(ctx.service);
    const replying = h.controller.send(h.conversation.id, { text: 'write twice' });
    h.controller.decideTool(h.conversation.id, await pendingCall(h, 0), 'allowForChat');
    const second = await pendingCall(h, 1);
    assert.equal(h.toolbox.runs.length, 1, 'the second call waits for its own approval');
    assert.equal(h.conversation.allowedTools, undefined);
    h.controller.decideTool(h.conversation.id, second, 'allow');
    assert.equal((await replying)?.status, 'done');
    assert.equal(h.toolbox.runs.length, 2);
  });

  it('Deny sends "declined" to the model, which answers; nothing runs', async () => {
    ctx.service.setScenario(script([{ name: 'write_note', arguments: { path: 'n.md' } }]));
    const h = harness(ctx.service);
    const replying = h.controller.send(h.conversation.id, { text: 'write' });
    h.controller.decideTool(h.conversation.id, await pendingCall(h, 0), 'deny');
    const reply = await replying;
    assert.equal(h.toolbox.runs.length, 0);
    assert.equal(callsOf(h.conversation)[0]?.state, 'denied');
    assert.equal(reply?.text, `Tool results received (1):\n- ${TOOL_RESULTS.denied}`);
  });

  it('Stop while a call waits ends the turn at once: the call is stopped and nothing more is sent', async () => {
    ctx.service.setScenario(script([{ name: 'read_file', arguments: { path: 'a.ts' } }]));
    const h = harness(ctx.service);
    const replying = h.controller.send(h.conversation.id, { text: 'read' });
    await pendingCall(h, 0);
    assert.ok(h.controller.stop(h.conversation.id));
    const reply = await replying;
    assert.equal(reply?.status, 'stopped');
    assert.equal(callsOf(h.conversation)[0]?.state, 'stopped');
    assert.equal(callsOf(h.conversation)[0]?.result, TOOL_RESULTS.stopped);
    assert.equal(chatRequests(ctx.service).length, 1);
    assert.equal(h.controller.isBusy(h.conversation.id), false);
  });

  it('Stop while a tool runs aborts its signal, and no further request is sent', async () => {
    ctx.service.setScenario(
      script([
        { name: 'read_file', arguments: { path: 'a.ts' } },
        { name: 'read_file', arguments: { path: 'b.ts' } },
      ]),
    );
    const h = harness(ctx.service);
    h.conversation.allowedTools = ['read_file'];
    h.toolbox.hold = new Promise(() => {});
    const replying = h.controller.send(h.conversation.id, { text: 'read' });
    await waitUntil(() => h.toolbox.runs.length === 1);
    h.controller.stop(h.conversation.id);
    const reply = await replying;
    assert.ok(h.toolbox.runs[0]!.signal.aborted, "the tool's signal is aborted");
    assert.equal(h.toolbox.runs.length, 1, 'the second call never ran');
    assert.equal(reply?.status, 'stopped');
    assert.deepEqual(
      callsOf(h.conversation).map((call) => call.state),
      ['stopped', 'stopped'],
    );
    assert.equal(chatRequests(ctx.service).length, 1);
  });

  it('review 2.8: two calls with one id each wait for their own decision; the history sends back distinct ids that match', async () => {
    ctx.service.setScenario(
      script([
        { name: 'read_file', arguments: { path: 'a.ts' }, id: 'call_same' },
        { name: 'write_note', arguments: { path: 'n.md' }, id: 'call_same' },
      ]),
    );
    const h = harness(ctx.service);
    const replying = h.controller.send(h.conversation.id, { text: 'read and write' });
    const first = await pendingCall(h, 0);
    const second = await pendingCall(h, 1);
    assert.notEqual(first, second, 'each call has its own id, so its own card and its own wait');
    assert.ok(h.controller.decideTool(h.conversation.id, second, 'deny'));
    assert.equal(callsOf(h.conversation)[0]?.state, 'pending', 'the decision on the second card left the first call waiting');
    assert.ok(h.controller.decideTool(h.conversation.id, first, 'allow'));
    const reply = await endsWithin(replying, 'both calls decided');

    assert.equal(reply?.status, 'done');
    assert.deepEqual(
      callsOf(h.conversation).map((call) => [call.name, call.state]),
      [
        ['read_file', 'done'],
        ['write_note', 'denied'],
      ],
    );
    assert.deepEqual(
      h.toolbox.runs.map((run) => run.name),
      ['read_file'],
    );
    const sent = sentToolIds(ctx.service);
    assert.deepEqual(sent.calls, [first, second], 'the model reads the ids the cards and the waits went by');
    assert.deepEqual(sent.results, sent.calls, 'each result answers its own call');
  });

  it("review 2.8: a decision on an earlier reply's card does not decide a later call that reuses its id", async () => {
    ctx.service.setScenario(
      script([{ name: 'read_file', arguments: { path: 'a.ts' }, id: 'call_0' }], [{ name: 'write_note', arguments: { path: 'n.md' }, id: 'call_0' }]),
    );
    const h = harness(ctx.service);
    const replying = h.controller.send(h.conversation.id, { text: 'read, then write' });
    const earlier = await pendingCall(h, 0);
    assert.ok(h.controller.decideTool(h.conversation.id, earlier, 'allow'));
    const later = await pendingCall(h, 1);
    assert.equal(h.controller.decideTool(h.conversation.id, earlier, 'allow'), false, 'the earlier card no longer waits');
    assert.equal(callsOf(h.conversation)[1]?.state, 'pending', 'the later call still waits for its own decision');
    assert.equal(h.toolbox.runs.length, 1);
    assert.ok(h.controller.decideTool(h.conversation.id, later, 'deny'));
    assert.equal((await endsWithin(replying, 'both rounds decided'))?.status, 'done');
    assert.deepEqual(
      h.toolbox.runs.map((run) => run.name),
      ['read_file'],
    );
    const sent = sentToolIds(ctx.service);
    assert.equal(new Set(sent.calls).size, 2, `distinct ids go back to the model: ${sent.calls.join()}`);
    assert.deepEqual(sent.results, sent.calls);
  });

  it('review 2.8: Stop ends the turn while two calls with one id wait', async () => {
    ctx.service.setScenario(
      script([
        { name: 'write_note', arguments: { path: 'a.md' }, id: 'call_same' },
        { name: 'write_note', arguments: { path: 'b.md' }, id: 'call_same' },
      ]),
    );
    const h = harness(ctx.service);
    const replying = h.controller.send(h.conversation.id, { text: 'write both' });
    await pendingCall(h, 1);
    assert.ok(h.controller.stop(h.conversation.id));
    const reply = await endsWithin(replying, 'two calls with one id waited');
    assert.equal(reply?.status, 'stopped');
    assert.deepEqual(
      callsOf(h.conversation).map((call) => call.state),
      ['stopped', 'stopped'],
    );
    assert.equal(h.controller.isBusy(h.conversation.id), false);
    assert.equal(h.toolbox.runs.length, 0);
    assert.equal(chatRequests(ctx.service).length, 1);
  });

  it('review 2.8: Stop ends the turn while a tool that ignores its signal runs', async () => {
    ctx.service.setScenario(script([{ name: 'read_file', arguments: { path: 'a.ts' } }]));
    const h = harness(ctx.service);
    h.conversation.allowedTools = ['read_file'];
    let release: () => void = () => {};
    h.toolbox.hold = new Promise<void>((resolve) => (release = resolve));
    h.toolbox.ignoresStop = true;
    const replying = h.controller.send(h.conversation.id, { text: 'read' });
    await waitUntil(() => h.toolbox.runs.length === 1);
    assert.ok(h.controller.stop(h.conversation.id));
    try {
      const reply = await endsWithin(replying, 'the tool went on running');
      assert.equal(reply?.status, 'stopped');
      assert.equal(callsOf(h.conversation)[0]?.state, 'stopped');
      assert.equal(h.controller.isBusy(h.conversation.id), false);
    } finally {
      release();
    }
    await new Promise((resolve) => setTimeout(resolve, 20)); // the point: the released tool's answer changes nothing
    assert.equal(callsOf(h.conversation)[0]?.state, 'stopped', "the tool's late answer does not change the stopped call");
    assert.equal(chatRequests(ctx.service).length, 1, 'nothing was sent after Stop');
  });

  it('review 2.8: Stop ends the turn while the model to use is still being asked for', async () => {
    let asked = false;
    const h = harness(ctx.service, {
      model: '',
      firstListedModel: (signal) =>
        new Promise<string | undefined>((resolve) => {
          asked = true;
          // A model list that never answers unless the signal aborts it (the catalog's own wait does the same).
          signal?.addEventListener('abort', () => resolve(undefined), { once: true });
        }),
    });
    const replying = h.controller.send(h.conversation.id, { text: 'hello' });
    await waitUntil(() => asked);
    assert.ok(h.controller.isBusy(h.conversation.id));
    assert.ok(h.controller.stop(h.conversation.id));
    await endsWithin(replying, 'the model list was awaited');
    assert.equal(h.controller.isBusy(h.conversation.id), false);
    assert.equal(chatRequests(ctx.service).length, 0, 'nothing was sent');
  });

  it('Stop just after a reply that calls tools completed (its cost still awaited) ends the turn; nothing runs or waits', async () => {
    ctx.service.setScenario(
      script([
        { name: 'read_file', arguments: { path: 'a.ts' } },
        { name: 'write_note', arguments: { path: 'n.md' } },
      ]),
    );
    const h = harness(ctx.service, { priceOf: () => new Promise<undefined>(() => {}) });
    h.conversation.allowedTools = ['read_file'];
    const replying = h.controller.send(h.conversation.id, { text: 'read and write' });
    // The reply is complete, its cost not yet known (the price never comes: the reply waits a second for it).
    await waitUntil(() => callsOf(h.conversation).length === 2 && (h.conversation.messages.at(-1) as AssistantMessage).status === 'done');
    assert.ok(h.controller.stop(h.conversation.id));
    const reply = await endsWithin(replying, 'the reply had ended with tool calls');
    assert.equal(reply?.status, 'stopped');
    assert.deepEqual(
      callsOf(h.conversation).map((call) => call.state),
      ['stopped', 'stopped'],
    );
    assert.equal(h.toolbox.runs.length, 0);
    assert.equal(h.controller.isBusy(h.conversation.id), false);
  });

  it('a call to a tool not offered, arguments that are not JSON and a failing tool come back as errors the model reads', async () => {
    ctx.service.setScenario(
      script([
        { name: 'format_disk', arguments: {} },
        { name: 'read_file', arguments: '{"path": ' },
        { name: 'broken', arguments: { path: 'x' } },
      ]),
    );
    const h = harness(ctx.service);
    h.conversation.allowedTools = ['broken'];
    const reply = await h.controller.send(h.conversation.id, { text: 'go' });
    assert.deepEqual(
      callsOf(h.conversation).map((call) => [call.name, call.state]),
      [
        ['format_disk', 'failed'],
        ['read_file', 'failed'],
        ['broken', 'failed'],
      ],
    );
    assert.equal(h.toolbox.runs.length, 1, 'only the call with good arguments to a tool offered ran');
    assert.match(reply?.text ?? '', /No tool named "format_disk" is offered/);
    assert.match(reply?.text ?? '', /The arguments are not valid JSON/);
    assert.match(reply?.text ?? '', /disk on fire/);
  });

  it('stops after promptreel.chat.maxToolRounds rounds and says so', async () => {
    ctx.service.setScenario(script(...Array.from({ length: 5 }, () => [{ name: 'read_file', arguments: { path: 'loop.ts' } }])));
    const h = harness(ctx.service);
    h.settings['chat.maxToolRounds'] = 2;
    h.conversation.allowedTools = ['read_file'];
    const reply = await h.controller.send(h.conversation.id, { text: 'loop' });
    assert.equal(reply?.status, 'stopped');
    assert.match(reply?.error?.message ?? '', /after 2 rounds of tool calls/);
    assert.equal(chatRequests(ctx.service).length, 3);
    assert.equal(h.toolbox.runs.length, 2);
  });

  it('offers no tools to a model not declared for them, nor in a chat that turned tools off', async () => {
    const h = harness(ctx.service, { capabilities: {} });
    await h.controller.send(h.conversation.id, { text: 'hello' });
    assert.equal((chatRequests(ctx.service)[0]!.body as { tools?: unknown }).tools, undefined);
    h.capabilities.tools = true;
    h.conversation.options.tools = false;
    await h.controller.send(h.conversation.id, { text: 'hello again' });
    assert.equal((chatRequests(ctx.service)[1]!.body as { tools?: unknown }).tools, undefined);
    assert.deepEqual(h.controller.toolsFor(h.conversation), []);
  });

  it('tells the views once per turn that it ended, with the last reply', async () => {
    ctx.service.setScenario(script([{ name: 'read_file', arguments: { path: 'a.ts' } }]));
    const h = harness(ctx.service);
    h.conversation.allowedTools = ['read_file'];
    const finished: string[] = [];
    h.controller.onDidFinish((event) => finished.push(event.message.text));
    const updates: string[] = [];
    h.controller.onDidChangeToolCalls((event) => updates.push(event.calls.map((call) => call.state ?? 'streaming').join()));
    await h.controller.send(h.conversation.id, { text: 'read' });
    assert.deepEqual(finished, ['Tool results received (1):\n- read_file of {"path":"a.ts"}']);
    assert.ok(updates.includes('running') && updates.includes('done'), `the views saw the call run: ${updates.join(' | ')}`);
  });
});
