import type * as http from 'node:http';
import type { ReplyPlan } from './chatReply';
import { pause, untilAborted } from './httpHelpers';
import type { ChatScenario } from './scenario';
import { SseWriter } from './sseWriter';

export interface StreamTarget {
  response: http.ServerResponse;
  signal: AbortSignal;
  chat: ChatScenario;
  id: string;
  created: number;
  model: string;
  /** Called once the reply reached its end (its finish chunk sent): the gateway charges it. */
  onFinished?: (usage: ReplyPlan['usage']) => void;
}

type Delta = Record<string, unknown>;

/**
 * Streams a planned reply: a role chunk, the delta chunks (reasoning, content or tool-call fragments),
 * a finish chunk, a usage chunk (per scenario) and `[DONE]`; faults (mid-stream error, cut, stall) are
 * counted in delta chunks after the role chunk.
 */
export async function streamReply(target: StreamTarget, plan: ReplyPlan): Promise<void> {
  const { response, signal, chat } = target;
  const writer = new SseWriter(response, chat, signal);
  writer.open();
  if (!(await pause(chat.firstChunkDelayMs, signal))) return;
  const chunk = chunkBuilder(target);
  const roleDelta = plan.toolCalls.length ? { role: 'assistant', content: null } : { role: 'assistant', content: '' };
  if (!(await writer.json(chunk(roleDelta, null)))) return;

  const deltas = planDeltas(plan, chat.chunkChars);
  const at = (count: number | null | undefined) => (count === null || count === undefined ? -1 : Math.min(count, deltas.length));
  for (let sent = 0; ; sent++) {
    if (chat.midStreamError && sent === at(chat.midStreamError.afterChunks)) {
      const { message, type, code } = chat.midStreamError;
      await writer.json({ error: { message, type, code } });
      response.end();
      return;
    }
    if (chat.cut === 'no-finish' && sent === at(chat.cutAfterChunks)) {
      // A network cut: what was written goes out, then the connection just ends mid-response.
      response.socket?.end();
      return;
    }
    if (sent === at(chat.stallAfterChunks)) {
      await untilAborted(signal);
      return;
    }
    if (sent === deltas.length) break;
    if (sent > 0 && !(await pause(chat.delayMs, signal))) return;
    if (!(await writer.json(chunk(deltas[sent], null)))) return;
  }
  await finishStream(writer, target, plan);
}

/** Benchmark stream: exactly `chunks` content chunks from a few prebuilt templates, as fast as the socket drains. */
export async function streamBulk(target: StreamTarget, bulk: { chunks: number; chunkChars: number }, plan: ReplyPlan): Promise<void> {
  const writer = new SseWriter(target.response, target.chat, target.signal);
  writer.open();
  const chunk = chunkBuilder(target);
  if (!(await writer.json(chunk({ role: 'assistant', content: '' }, null)))) return;
  const alphabet = 'abcdefghijklmnopqrstuvwxyz';
  const templates = [0, 1, 2, 3].map((shift) => {
    let text = '';
    while (text.length < bulk.chunkChars + shift) text += alphabet;
    return writer.plainEvent(JSON.stringify(chunk({ content: text.slice(shift, shift + bulk.chunkChars) }, null)));
  });
  const perBlock = 64;
  const block = Buffer.from(Array.from({ length: perBlock }, (_, i) => templates[i % templates.length]).join(''));
  let sent = 0;
  for (; sent + perBlock <= bulk.chunks; sent += perBlock) {
    if (!(await writer.raw(block))) return;
  }
  for (; sent < bulk.chunks; sent++) {
    if (!(await writer.raw(templates[sent % templates.length]))) return;
  }
  const completion = Math.max(1, Math.ceil((bulk.chunks * bulk.chunkChars) / 4));
  const usage = { ...plan.usage, completion_tokens: completion, total_tokens: plan.usage.prompt_tokens + completion };
  await finishStream(writer, target, { ...plan, usage });
}

/** Content chunks of `chars` characters each, as fast as the socket drains, until the client goes away. */
export async function streamEndlessly(target: StreamTarget, chars: number): Promise<void> {
  const writer = new SseWriter(target.response, target.chat, target.signal);
  writer.open();
  const chunk = chunkBuilder(target);
  if (!(await writer.json(chunk({ role: 'assistant', content: '' }, null)))) return;
  const event = Buffer.from(writer.plainEvent(JSON.stringify(chunk({ content: 'x'.repeat(chars) }, null))));
  let open = true;
  while (open) open = await writer.raw(event);
}

async function finishStream(writer: SseWriter, target: StreamTarget, plan: ReplyPlan): Promise<void> {
  const { chat, response } = target;
  const chunk = chunkBuilder(target);
  const finishUsage = chat.usage === 'last-choice-chunk' ? plan.usage : null;
  if (!(await writer.json(chunk({}, plan.finishReason, finishUsage)))) return;
  target.onFinished?.(plan.usage);
  if (chat.cut === 'no-done') {
    response.end();
    return;
  }
  if (chat.usage === 'final-chunk') {
    const { id, created, model } = target;
    if (!(await writer.json({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: plan.usage }))) return;
  }
  if (!(await writer.done())) return;
  response.end();
}

function chunkBuilder(target: StreamTarget) {
  const { id, created, model, chat } = target;
  return (delta: Delta, finishReason: string | null, usage: ReplyPlan['usage'] | null = null): Record<string, unknown> => {
    const chunk: Record<string, unknown> = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (chat.usage !== 'none') chunk['usage'] = usage;
    return chunk;
  };
}

function pieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < characters.length; i += size) out.push(characters.slice(i, i + size).join(''));
  return out;
}

function planDeltas(plan: ReplyPlan, size: number): Delta[] {
  const deltas: Delta[] = [];
  if (plan.reasoning) {
    const field = plan.reasoning.field;
    for (const piece of pieces(plan.reasoning.text, size)) deltas.push({ [field]: piece });
  }
  for (const piece of pieces(plan.content, size)) deltas.push({ content: piece });
  plan.toolCalls.forEach((call, index) => {
    deltas.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of pieces(call.arguments, size)) deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  return deltas;
}
