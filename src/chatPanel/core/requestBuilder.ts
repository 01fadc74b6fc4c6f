import { validateChatRequest, type ChatMessage, type ChatRequest, type ChatTool, type ContentPart } from '../../api/chat/request';
import { ApiError } from '../../api/errors';
import { t } from '../../common/l10n';
import type { ModelCapabilities } from '../../config/schema';
import { userPromptText } from './contextPrompt';
import { ToolCallIds } from './conversation';
import type { AssistantMessage, Conversation, ToolCallRecord, UserMessage } from './model';
import { TOOL_RESULTS } from './toolRound';
import type { ChatSampling } from '../../config/chatSampling';
import { reasoningParameters } from '../../chatRequest/reasoning';

/** The `promptreel.chat.*` settings a conversation falls back to. */
export type ChatDefaults = ChatSampling;

export interface RequestInput {
  conversation: Conversation;
  defaults: ChatDefaults;
  /** What the user declared about the model (`promptreel.models.capabilities`); unknown when absent. */
  capabilities?: ModelCapabilities;
  /** The tools the chat offers (already limited to a model that takes tools). */
  tools?: readonly ChatTool[];
}

/** The service's own defaults: a value equal to them is left out, so a model that refuses sampling parameters is not sent any by default. */
const API_DEFAULTS = { temperature: 1, top_p: 1, frequency_penalty: 0, presence_penalty: 0 } as const;

/** The result sent for a call that has none (chats saved before tools ran, a reply stopped while it streamed). */
export const TOOL_NOT_RUN = 'This tool call was not run: no result.';

/** The model a conversation uses: its own choice, else the `promptreel.chat.model` setting. */
export function modelOf(conversation: Conversation, defaults: ChatDefaults): string {
  return conversation.options.model?.trim() || defaults.model.trim();
}

/**
 * Conversation + settings + capabilities → the chat request, checked against the documented bounds and the
 * model's declared capabilities before anything is sent. Throws an `ApiError` (kind `invalid-request`) whose
 * `param` names the offending parameter.
 */
export function buildChatRequest(input: RequestInput): ChatRequest {
  const { conversation, defaults } = input;
  const capabilities = input.capabilities ?? {};
  const options = conversation.options;
  const model = modelOf(conversation, defaults);
  if (!model) throw invalidRequest('model', t('No chat model is selected.'), t('Pick a model in the chat panel or with Promptreel: Select Chat Model.'));

  const messages: ChatMessage[] = [];
  const system = options.systemPrompt?.trim();
  if (system) messages.push({ role: capabilities.developerRole === true ? 'developer' : 'system', content: system });

  const history = conversation.messages.filter((message) => !(message.role === 'assistant' && message.status === 'streaming'));
  const lastUser = history.map((message) => message.role).lastIndexOf('user');
  const toolCallIds = new ToolCallIds();
  history.forEach((message, index) => {
    if (message.role === 'user') messages.push(userMessage(message, capabilities, index === lastUser, model));
    else messages.push(...assistantMessages(message, toolCallIds.of(message)));
  });

  const request: ChatRequest = {
    model,
    messages,
    ...reasoningParameters(capabilities, {
      ...(options.reasoningEffort ? { effort: options.reasoningEffort } : {}),
      ...(options.thinking !== undefined ? { thinking: options.thinking } : {}),
    }),
  };
  if (capabilities.sampling !== false) {
    addUnlessDefault(request, 'temperature', options.temperature ?? defaults.temperature);
    addUnlessDefault(request, 'top_p', options.topP ?? defaults.topP);
    addUnlessDefault(request, 'frequency_penalty', options.frequencyPenalty ?? defaults.frequencyPenalty);
    addUnlessDefault(request, 'presence_penalty', options.presencePenalty ?? defaults.presencePenalty);
  }

  const maxTokens = options.maxTokens ?? defaults.maxTokens ?? capabilities.maxOutputTokens;
  if (maxTokens !== undefined && maxTokens !== null) {
    if (capabilities.maxOutputTokens !== undefined && maxTokens > capabilities.maxOutputTokens) {
      throw invalidRequest(
        'max_tokens',
        t('max_tokens is {0}, above the {1} tokens {2} allows.', maxTokens, capabilities.maxOutputTokens, model),
        t('Lower max_tokens to at most {0}.', capabilities.maxOutputTokens),
      );
    }
    request.max_tokens = maxTokens;
  }

  if (options.jsonMode) {
    if (capabilities.jsonMode === false) {
      throw invalidRequest(
        'response_format',
        t('{0} does not support JSON mode (promptreel.models.capabilities).', model),
        t('Turn JSON mode off for this conversation, or pick another model.'),
      );
    }
    request.response_format = { type: 'json_object' };
  }

  if (input.tools && input.tools.length > 0 && capabilities.tools === true) request.tools = [...input.tools];

  validateChatRequest(request);
  return request;
}

function userMessage(message: UserMessage, capabilities: ModelCapabilities, isLast: boolean, model: string): ChatMessage {
  const text = userPromptText(message.text, message.context, message.mentions);
  const images = message.images ?? [];
  if (images.length === 0) return { role: 'user', content: text };
  if (capabilities.vision !== true) {
    if (isLast) {
      throw invalidRequest(
        'messages',
        images.length === 1
          ? t('{0} is not declared to accept images, and this message has an image.', model)
          : t('{0} is not declared to accept images, and this message has {1} images.', model, images.length),
        t('Remove the image, pick a model with "vision": true in promptreel.models.capabilities, or declare it there.'),
      );
    }
    return { role: 'user', content: `${text}\n\n[${images.length} image(s) left out: ${model} does not accept images]` };
  }
  const parts: ContentPart[] = [];
  if (text.trim()) parts.push({ type: 'text', text });
  for (const image of images) parts.push({ type: 'image_url', image_url: { url: image.dataUrl } });
  return { role: 'user', content: parts };
}

/**
 * An assistant turn, plus the result of each of its tool calls (the service refuses unanswered tool calls). `ids`: the
 * calls' ids, the ones they were shown and decided by (a chat saved by an older version may lack them, or repeat one).
 */
function assistantMessages(message: AssistantMessage, ids: readonly string[]): ChatMessage[] {
  const calls = message.toolCalls.filter((call) => call.name);
  if (!message.text && calls.length === 0) return [];
  if (calls.length === 0) return [{ role: 'assistant', content: message.text }];
  const withIds = calls.map((call, index) => ({ ...call, id: ids[index] }));
  return [
    {
      role: 'assistant',
      content: message.text || null,
      // Reasoning models of the DeepSeek kind refuse the next request without it (and a turn without tool calls with it).
      ...(message.reasoning ? { reasoning_content: message.reasoning } : {}),
      tool_calls: withIds.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })),
    },
    ...withIds.map((call) => ({ role: 'tool' as const, tool_call_id: call.id, content: toolResultOf(call) })),
  ];
}

/** What went back to the model; a call left waiting or running (the window closed meanwhile) was stopped. */
function toolResultOf(call: ToolCallRecord): string {
  if (call.state === 'pending' || call.state === 'running') return TOOL_RESULTS.stopped;
  return call.result ?? TOOL_NOT_RUN;
}

function addUnlessDefault(request: ChatRequest, key: keyof typeof API_DEFAULTS, value: number): void {
  if (value !== API_DEFAULTS[key]) request[key] = value;
}

function invalidRequest(param: string, message: string, hint: string): ApiError {
  return new ApiError({ kind: 'invalid-request', param, message, hint });
}
