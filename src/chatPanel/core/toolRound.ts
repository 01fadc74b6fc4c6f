import type { ApprovalOutcome, ToolApprovals } from './toolApprovals';
import { boundedResult, type ToolSpec, type Toolbox } from './toolbox';
import type { AssistantMessage, Conversation, ToolCallRecord } from './model';

export interface ToolRoundInput {
  conversation: Conversation;
  /** The reply whose tool calls are run (changed in place: each call's state and result). */
  message: AssistantMessage;
  /** What the request offered: a call to anything else is answered as unknown. */
  offered: readonly ToolSpec[];
  toolbox: Toolbox;
  approvals: ToolApprovals;
  /** Stop: ends the waits and the running tool at once. */
  signal: AbortSignal;
  /** A call's state or result changed (the views are told, the chat is saved). */
  changed(): void;
  log(line: string): void;
}

export const TOOL_RESULTS = {
  denied: 'The user declined to run this tool call.',
  stopped: 'The user stopped the chat before this tool call ran.',
} as const;

/**
 * Runs the tool calls of one reply, in order: a read-only tool the user allowed for this chat runs at once, every
 * other call waits for Allow or Deny (all of them are shown waiting from the start). Each call ends with a result
 * the model reads next. Resolves `stopped` when Stop ended the round (the calls not run say so).
 */
export async function runToolRound(input: ToolRoundInput): Promise<'answered' | 'stopped'> {
  const { conversation, message, signal } = input;
  const calls = message.toolCalls.filter((call) => call.name);
  const allowed = new Set(conversation.allowedTools ?? []);
  const waits = new Map<ToolCallRecord, Promise<ApprovalOutcome>>();
  const inputs = new Map<ToolCallRecord, Record<string, unknown>>();

  calls.forEach((call) => {
    const spec = input.offered.find((tool) => tool.name === call.name);
    const args = parseArguments(call.arguments);
    if (!spec) return finish(call, 'failed', `No tool named "${call.name}" is offered in this chat.`);
    call.readOnly = spec.readOnly;
    call.source = spec.source;
    if (typeof args === 'string') return finish(call, 'failed', args);
    inputs.set(call, args);
    if (spec.readOnly && allowed.has(spec.name)) return void (call.state = 'running');
    call.state = 'pending';
    waits.set(call, input.approvals.expect(conversation.id, { id: call.id, name: call.name, readOnly: spec.readOnly }, signal));
  });
  input.changed();

  for (const call of calls) {
    const args = inputs.get(call);
    if (!args) continue;
    const outcome = (await waits.get(call)) ?? (signal.aborted ? 'stopped' : 'allow');
    if (outcome === 'stopped') break;
    if (outcome === 'deny') {
      finish(call, 'denied', TOOL_RESULTS.denied);
      input.log(`Tool call ${call.name} denied.`);
      input.changed();
      continue;
    }
    call.state = 'running';
    input.changed();
    const started = Date.now();
    // A tool that ignores its signal keeps running, but Stop does not wait for it: the turn ends now.
    const result = await untilAborted(input.toolbox.run(call.name, args, signal), signal);
    if (!result || signal.aborted) break;
    finish(call, result.ok ? 'done' : 'failed', boundedResult(result.text));
    input.log(`Tool call ${call.name} ${result.ok ? 'answered' : 'failed'} in ${Date.now() - started} ms (${result.text.length} characters).`);
    input.changed();
  }

  if (!signal.aborted) return 'answered';
  for (const call of calls) if (call.state === 'pending' || call.state === 'running') finish(call, 'stopped', TOOL_RESULTS.stopped);
  input.changed();
  return 'stopped';
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function finish(call: ToolCallRecord, state: NonNullable<ToolCallRecord['state']>, result: string): void {
  call.state = state;
  call.result = result;
}

/** The call's arguments as an object, or why they are not one (the model reads that and can try again). */
function parseArguments(text: string): Record<string, unknown> | string {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return 'The arguments must be a JSON object.';
  } catch (error) {
    return `The arguments are not valid JSON (${error instanceof Error ? error.message : String(error)}).`;
  }
}
