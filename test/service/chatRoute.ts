import { validateChatRequest } from './chatRequest';
import { planReply } from './chatReply';
import { streamBulk, streamReply } from './chatStream';
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
  if (chat.refuseStream && request.stream === true) {
    sendOpenAiError(response, 400, {
      message: 'Streaming is not supported by this model',
      type: 'invalid_request_error',
      param: 'stream',
      code: 'invalid_value',
    });
    return;
  }
  const plan = planReply(request, chat);
  const target = { response, signal, chat, id: newChatCompletionId(), created: unixSeconds(), model: request.model };
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
}
