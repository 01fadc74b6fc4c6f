import type { ChatStreamEvent } from '../../api/chat/events';
import { t } from '../../api/l10n';
import type {
  AssistantMessage,
  ChatErrorInfo,
  Conversation,
  ConversationOptions,
  ImageAttachment,
  Mention,
  SelectionContext,
  UsageTotals,
  UserMessage,
} from './model';

// Operations on one conversation. They change the conversation in place (the store owns it and persists it);
// a reply that streams thousands of chunks must not copy the whole conversation per chunk.

/** The title of a chat that no message names yet. */
export function untitled(): string {
  return t('New chat');
}

const TITLE_LENGTH = 60;

export type IdFactory = () => string;

export const randomId: IdFactory = () => globalThis.crypto.randomUUID();

export function createConversation(options: ConversationOptions = {}, now = Date.now(), newId: IdFactory = randomId): Conversation {
  return { id: newId(), title: untitled(), createdAt: now, updatedAt: now, options: { ...options }, messages: [] };
}

/** A title from the first line of the first message, shortened on a word boundary. */
export function titleFrom(text: string, context?: SelectionContext, mention?: string): string {
  const line =
    text
      .split('\n')
      .map((part) => part.trim())
      .find((part) => part.length > 0) ?? '';
  const base =
    line || (context ? t('About {0}:{1}-{2}', context.fileName, context.startLine, context.endLine) : mention ? t('About {0}', mention) : untitled());
  if (base.length <= TITLE_LENGTH) return base;
  const cut = base.slice(0, TITLE_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface UserInput {
  text: string;
  context?: SelectionContext;
  images?: ImageAttachment[];
  mentions?: Mention[];
}

export function addUserMessage(conversation: Conversation, input: UserInput, now = Date.now(), newId: IdFactory = randomId): UserMessage {
  const message: UserMessage = {
    id: newId(),
    role: 'user',
    text: input.text,
    createdAt: now,
    ...(input.context ? { context: input.context } : {}),
    ...(input.images && input.images.length > 0 ? { images: [...input.images] } : {}),
    ...(input.mentions && input.mentions.length > 0 ? { mentions: [...input.mentions] } : {}),
  };
  conversation.messages.push(message);
  if (!conversation.titleEdited && conversation.messages.filter((m) => m.role === 'user').length === 1) {
    conversation.title = titleFrom(input.text, input.context, input.mentions?.[0]?.label);
  }
  conversation.updatedAt = now;
  return message;
}

export function startAssistantMessage(conversation: Conversation, model: string, now = Date.now(), newId: IdFactory = randomId): AssistantMessage {
  const message: AssistantMessage = { id: newId(), role: 'assistant', model, text: '', reasoning: '', toolCalls: [], status: 'streaming', createdAt: now };
  conversation.messages.push(message);
  conversation.updatedAt = now;
  return message;
}

/** What one stream event added to the message, for the views (text and reasoning deltas). */
export interface AppliedDelta {
  text: string;
  reasoning: string;
  toolCallsChanged: boolean;
}

/** Folds one stream event into the reply. */
export function applyStreamEvent(message: AssistantMessage, event: ChatStreamEvent): AppliedDelta {
  const delta: AppliedDelta = { text: '', reasoning: '', toolCallsChanged: false };
  switch (event.type) {
    case 'text':
      message.text += event.text;
      delta.text = event.text;
      break;
    case 'reasoning':
      message.reasoning += event.text;
      delta.reasoning = event.text;
      break;
    case 'tool-call': {
      // Fragments arrive by index: the first carries id and name, the rest pieces of the arguments.
      while (message.toolCalls.length <= event.index) message.toolCalls.push({ id: '', name: '', arguments: '' });
      const call = message.toolCalls[event.index];
      if (event.id) call.id = event.id;
      if (event.name) call.name += event.name;
      call.arguments += event.argumentsDelta;
      delta.toolCallsChanged = true;
      break;
    }
    case 'tool-calls':
      message.toolCalls = event.calls.map((call) => ({ ...call }));
      delta.toolCallsChanged = true;
      break;
    case 'usage':
      message.usage = { ...event.usage };
      break;
    case 'finish':
      message.finishReason = event.reason;
      break;
    case 'request-id':
      message.gatewayRequestId = event.requestId;
      break;
    case 'role':
      break;
  }
  return delta;
}

/**
 * The ids the tool calls of a conversation go by, reply after reply: the model's own, unless it is empty or an earlier
 * call of the conversation has it already (a model or gateway may repeat one: `call_0` in every reply, or twice in
 * one); then one made from it. Each approval wait, each card and each `tool_call_id` sent back names one call.
 */
export class ToolCallIds {
  private readonly taken = new Set<string>();

  /** The ids of the reply's calls that have a name (the others are never shown, run or sent), in order. */
  of(message: AssistantMessage): string[] {
    return message.toolCalls
      .filter((call) => call.name)
      .map((call, index) => {
        const base = call.id || `call_${message.id}_${index}`;
        let id = base;
        for (let n = 2; this.taken.has(id); n++) id = `${base}_${n}`;
        this.taken.add(id);
        return id;
      });
  }
}

/** Gives the calls of a reply that just ended their distinct ids (see `ToolCallIds`), before anything waits on them. */
export function settleToolCallIds(conversation: Conversation, message: AssistantMessage): void {
  const ids = new ToolCallIds();
  for (const earlier of conversation.messages) {
    if (earlier === message) break;
    if (earlier.role === 'assistant') ids.of(earlier);
  }
  const settled = ids.of(message);
  message.toolCalls.filter((call) => call.name).forEach((call, index) => (call.id = settled[index]));
}

export function completeAssistantMessage(message: AssistantMessage): void {
  message.status = 'done';
  message.endedAt = Date.now();
  delete message.error;
}

/** Ends a reply that did not complete; whatever text arrived is kept. */
export function failAssistantMessage(message: AssistantMessage, status: 'stopped' | 'cut-off' | 'error', error?: ChatErrorInfo): void {
  message.status = status;
  message.endedAt = Date.now();
  if (error) message.error = error;
  else delete message.error;
}

/** Removes the message with this id and every message after it; false when there is no such message. */
export function truncateFrom(conversation: Conversation, messageId: string): boolean {
  const index = conversation.messages.findIndex((message) => message.id === messageId);
  if (index < 0) return false;
  conversation.messages.splice(index);
  return true;
}

/**
 * Replaces the text of a user message and drops every later turn, so the next request sends the edited text
 * as the last user message. Returns the message, or undefined when it is not a user message of this conversation.
 */
export function editUserMessage(conversation: Conversation, messageId: string, text: string, now = Date.now()): UserMessage | undefined {
  const index = conversation.messages.findIndex((message) => message.id === messageId);
  const message = conversation.messages[index];
  if (!message || message.role !== 'user') return undefined;
  message.text = text;
  conversation.messages.splice(index + 1);
  if (!conversation.titleEdited && conversation.messages.filter((m) => m.role === 'user').length === 1) {
    conversation.title = titleFrom(text, message.context);
  }
  conversation.updatedAt = now;
  return message;
}

/**
 * Gets the conversation ready to answer its last user message again: drops every message after it (the old
 * reply, or a failed one). False when there is no user message to answer.
 */
export function dropRepliesAfterLastUser(conversation: Conversation): boolean {
  const last = lastUserIndex(conversation);
  if (last < 0) return false;
  conversation.messages.splice(last + 1);
  return true;
}

export function lastUserIndex(conversation: Conversation): number {
  for (let i = conversation.messages.length - 1; i >= 0; i--) if (conversation.messages[i].role === 'user') return i;
  return -1;
}

export function usageTotals(conversation: Conversation): UsageTotals {
  const total: UsageTotals = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  for (const message of conversation.messages) {
    if (message.role !== 'assistant' || !message.usage) continue;
    total.promptTokens += message.usage.promptTokens;
    total.completionTokens += message.usage.completionTokens;
    total.totalTokens += message.usage.totalTokens;
  }
  return total;
}

export function rename(conversation: Conversation, title: string, now = Date.now()): void {
  conversation.title = title.trim() || untitled();
  conversation.titleEdited = true;
  conversation.updatedAt = now;
}

/** Replaces the options; `undefined` values are removed so the settings apply again. */
export function setOptions(conversation: Conversation, options: ConversationOptions, now = Date.now()): void {
  conversation.options = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined && value !== '')) as ConversationOptions;
  conversation.updatedAt = now;
}

export function isStreaming(conversation: Conversation): boolean {
  return conversation.messages.some((message) => message.role === 'assistant' && message.status === 'streaming');
}
