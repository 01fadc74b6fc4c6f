import { ApiError } from '../../api/errors';
import type { ChatMessage, ChatTool, ContentPart } from '../../api/chat/request';
import { t } from '../../api/l10n';
import type { ChatSampling } from '../../config/chatSampling';
import type { ResolvedCapabilities } from '../../chatRequest/capabilities';
import { buildChatRequest, type BuiltChatRequest } from '../../chatRequest/chatRequestBuilder';
import { userPromptText } from './contextPrompt';
import type { AssistantMessage, Conversation, ToolCallRecord, UserMessage } from './model';
import { ToolCallIds } from './conversation';
import { TOOL_RESULTS } from './toolRound';

export interface RequestInput {
  conversation: Conversation;
  /** `promptreel.chat.*`: what a chat's own options fall back to. */
  settings: ChatSampling;
  /** What the chat's model can take (the model catalog's one answer). */
  capabilities: ResolvedCapabilities;
  /** The tools the chat offers (already limited to a model that takes tools). */
  tools?: readonly ChatTool[];
}

/** The result sent for a call that has none (chats saved before tools ran, a reply stopped while it streamed). */
export const TOOL_NOT_RUN = 'This tool call was not run: no result.';

/** The model a conversation uses: its own choice, else the `promptreel.chat.model` setting. */
export function modelOf(conversation: Conversation, settings: ChatSampling): string {
  return conversation.options.model?.trim() || settings.model.trim();
}

/**
 * A conversation as a chat request: its messages (the context of each user turn, its images, the tool calls and
 * their results), its options over the settings, shaped by the chat-request layer like every other chat (what the
 * model cannot take is adjusted and reported). Throws an `ApiError` (`invalid-request`) without a model.
 */
export function buildConversationRequest(input: RequestInput): BuiltChatRequest {
  const { conversation, settings } = input;
  const options = conversation.options;
  const model = modelOf(conversation, settings);
  if (!model) throw invalidRequest('model', t('No chat model is selected.'), t('Pick a model in the chat panel or with Promptreel: Select Chat Model.'));
  const history = conversation.messages.filter((message) => !(message.role === 'assistant' && message.status === 'streaming'));
  const ids = new ToolCallIds();
  const messages: ChatMessage[] = [];
  for (const message of history) {
    if (message.role === 'user') messages.push(userMessage(message));
    else messages.push(...assistantMessages(message, ids.of(message)));
  }
  return buildChatRequest(
    {
      model,
      ...(options.systemPrompt ? { instructions: options.systemPrompt } : {}),
      messages,
      settings,
      overrides: {
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.topP !== undefined ? { topP: options.topP } : {}),
        ...(options.frequencyPenalty !== undefined ? { frequencyPenalty: options.frequencyPenalty } : {}),
        ...(options.presencePenalty !== undefined ? { presencePenalty: options.presencePenalty } : {}),
        ...(options.maxTokens !== undefined && options.maxTokens !== null ? { maxTokens: options.maxTokens } : {}),
        reasoning: {
          ...(options.reasoningEffort ? { effort: options.reasoningEffort } : {}),
          ...(options.thinking !== undefined ? { thinking: options.thinking } : {}),
        },
        ...(options.jsonMode ? { jsonMode: true } : {}),
      },
      ...(input.tools?.length ? { tools: input.tools } : {}),
    },
    input.capabilities,
  );
}

/** A user turn with its context; its images as image parts (a model that takes none gets a note instead). */
function userMessage(message: UserMessage): ChatMessage {
  const text = userPromptText(message.text, message.context, message.mentions);
  const images = message.images ?? [];
  if (images.length === 0) return { role: 'user', content: text };
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

function invalidRequest(param: string, message: string, hint: string): ApiError {
  return new ApiError({ kind: 'invalid-request', param, message, hint });
}
