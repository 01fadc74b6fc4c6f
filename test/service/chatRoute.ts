import { validateChatRequest, type ChatRequest } from './chatRequest';
import { planReply, type ReplyPlan } from './chatReply';
import { logCharge } from './keyLog';
import { streamBulk, streamEndlessly, streamReply } from './chatStream';
import { sendOpenAiError } from './errors';
import { newChatCompletionId, unixSeconds } from './ids';
import { sendJson } from './httpHelpers';
import { sendWholeAnswer, writeRunaway } from './quirks';
import type { RouteContext } from './routeContext';

/** POST /v1/chat/completions */
export async function chatCompletions(context: RouteContext): Promise<void> {
  const { response, scenario, signal } = context;
  const validated = validateChatRequest(context.body);
  if ('error' in validated) {
    sendOpenAiError(response, 400, { ...validated.error, type: 'invalid_request_error' });
    return;
  }
  const request = validated.request;
  const chat = scenario.chat;
  if (chat.refuseStreamOptions && request['stream_options'] !== undefined) {
    sendOpenAiError(response, 400, {
      message: 'Unrecognized request argument supplied: stream_options',
      type: 'invalid_request_error',
      param: 'stream_options',
      code: 'unknown_parameter',
    });
    return;
  }
  const reasoningProblem = chat.deepseekReasoning ? deepseekReasoningProblem(request) : undefined;
  if (reasoningProblem) {
    sendOpenAiError(response, 400, { message: reasoningProblem, type: 'invalid_request_error', param: 'messages', code: 'invalid_request_error' });
    return;
  }
  if (chat.refuseStream && request.stream === true) {
    sendOpenAiError(response, 400, {
      message: 'Streaming is not supported by this model',
      type: 'invalid_request_error',
      param: 'stream',
      code: 'invalid_value',
    });
    return;
  }
  const plan = withCachedTokens(planReply(request, chat), chat.cachedTokens);
  const startedAt = Date.now();
  const charge = (usage: ReplyPlan['usage']) => {
    const cached = usage.prompt_tokens_details?.cached_tokens;
    logCharge(context.state, context.key, scenario.account, {
      model: request.model,
      startedAt,
      stream: request.stream === true,
      requestId: context.requestId,
      usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, ...(cached ? { cached_tokens: cached } : {}) },
      path: '/v1/chat/completions',
    });
  };
  const target = { response, signal, chat, id: newChatCompletionId(), created: unixSeconds(), model: request.model, onFinished: charge };
  if (request.stream === true && chat.endlessEventBytes !== null) {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    context.state.runawayBytesWritten = await writeRunaway(
      response,
      signal,
      'data: {"choices":[{"index":0,"delta":{"content":"',
      chat.endlessEventBytes,
      '"}}]}\n\n',
    );
    return;
  }
  if (request.stream === true && chat.endlessChunkChars !== null) {
    await streamEndlessly(target, chat.endlessChunkChars);
    return;
  }
  if (request.stream === true && chat.streamAnswer === 'sse') {
    await (chat.bulk ? streamBulk(target, chat.bulk, plan) : streamReply(target, plan));
    return;
  }
  // Stream faults (cuts, stalls, mid-stream errors, bulk) only concern streams.
  const message: Record<string, unknown> = { role: 'assistant', content: plan.toolCalls.length ? null : plan.content };
  if (plan.reasoning) message[plan.reasoning.field] = plan.reasoning.text;
  if (plan.toolCalls.length) {
    message['tool_calls'] = plan.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  const completion = {
    id: target.id,
    object: 'chat.completion',
    created: target.created,
    model: target.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    usage: plan.usage,
  };
  if (request.stream === true) sendWholeAnswer(response, chat, completion);
  else sendJson(response, 200, completion);
  if (request.stream !== true || chat.streamAnswer === 'completion-json') charge(plan.usage);
}

/** The usage with `prompt_tokens_details.cached_tokens` (at most the prompt), when the scenario caches some. */
function withCachedTokens(plan: ReplyPlan, cachedTokens: number): ReplyPlan {
  if (cachedTokens === 0) return plan;
  return { ...plan, usage: { ...plan.usage, prompt_tokens_details: { cached_tokens: Math.min(cachedTokens, plan.usage.prompt_tokens) } } };
}

/** What DeepSeek's API says about the reasoning of earlier assistant turns, or undefined when they are as it wants. */
function deepseekReasoningProblem(request: ChatRequest): string | undefined {
  for (const [index, message] of request.messages.entries()) {
    if (message.role !== 'assistant') continue;
    const calls = Array.isArray(message['tool_calls']) && message['tool_calls'].length > 0;
    const reasoning = typeof message['reasoning_content'] === 'string' && message['reasoning_content'] !== '';
    if (calls && !reasoning) return `Missing \`reasoning_content\` field in the assistant message at message index ${index}`;
    if (!calls && message['reasoning_content'] !== undefined)
      return `The \`reasoning_content\` field is not allowed in an assistant message without tool calls (message index ${index})`;
  }
  return undefined;
}
