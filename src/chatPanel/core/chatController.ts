import { Emitter } from '../../common/emitter';
import { ApiError, withRateLimitRetry, type ChatRequest, type ChatTool } from '../../api';
import type { ModelPrice } from '../../api/account/prices';
import type { ClientProvider } from '../../connection/clientProvider';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { describeError, type ComponentLogger } from '../../common/logger';
import type { ModelCapabilities } from '../../config/schema';
import type { Settings } from '../../config/settings';
import {
  addUserMessage,
  applyStreamEvent,
  completeAssistantMessage,
  dropRepliesAfterLastUser,
  editUserMessage,
  failAssistantMessage,
  randomId,
  startAssistantMessage,
  type UserInput,
} from './conversation';
import type { ConversationStore } from './conversationStore';
import { describeReplyFailure } from './errorInfo';
import type { AssistantMessage, Conversation, ToolCallRecord } from './model';
import type { RateLimitView } from './protocol';
import { buildChatRequest, modelOf, type ChatDefaults } from './requestBuilder';
import { toChatTools } from './tools';
import { settledReplyCost } from './replyCost';
import { ReplyDeltas } from './replyDeltas';
import { ReplyRateLimit } from './replyRateLimit';

export interface StreamDelta {
  conversationId: string;
  messageId: string;
  requestId: string;
  text: string;
  /** Where `text` starts in the message's text. */
  textOffset: number;
  reasoning: string;
  reasoningOffset: number;
}

export interface ToolCallsUpdate {
  conversationId: string;
  messageId: string;
  requestId: string;
  calls: ToolCallRecord[];
}

export interface ReplyFinished {
  conversationId: string;
  requestId: string;
  message: AssistantMessage;
}

/** A 429 is being waited out before the request is sent again; `delayMs` counts from when this was fired. */
export interface RateLimitUpdate {
  conversationId: string;
  messageId: string;
  requestId: string;
  /** Absent: the wait ended (the request went again, or the reply ended). */
  wait?: RateLimitView;
}

interface Running {
  requestId: string;
  messageId: string;
  abort: AbortController;
  rateLimit: ReplyRateLimit;
}

export interface ChatControllerOptions {
  /** The model to use when neither the chat nor the settings name one (the first the service lists). */
  firstListedModel?: () => Promise<string | undefined>;
  /** A model's price (never throws); the cost of each reply is kept with it. */
  priceOf?: (model: string) => Promise<ModelPrice | undefined>;
}

/** Deltas are handed to the views at most this often; the webview then paints at its own frame rate. */
const DELTA_INTERVAL_MS = 16;
/** How long the end of a reply waits for the price list, at most. */
const PRICE_WAIT_MS = 1_000;

/**
 * Runs the chat: adds turns to conversations, streams replies from the service into them, and tells the views
 * what arrived. One request at a time per conversation; Stop aborts it (the socket closes).
 */
export class ChatController extends Disposable {
  private readonly running = new Map<string, Running>();
  /** Conversations whose reply waits for the model list (no model chosen yet): busy too. */
  private readonly choosingModel = new Set<string>();
  private readonly streamed = this._register(new Emitter<StreamDelta>());
  /** Text and reasoning that arrived, coalesced (about one event per frame and request). */
  readonly onDidStream = this.streamed.event;
  private readonly toolCallsChanged = this._register(new Emitter<ToolCallsUpdate>());
  readonly onDidChangeToolCalls = this.toolCallsChanged.event;
  private readonly finished = this._register(new Emitter<ReplyFinished>());
  /** A reply ended (completed, stopped, cut off or failed); the message carries the outcome. */
  readonly onDidFinish = this.finished.event;
  private readonly rateLimited = this._register(new Emitter<RateLimitUpdate>());
  /** A 429 is waited out (with a countdown), or the wait ended. */
  readonly onDidChangeRateLimit = this.rateLimited.event;
  private readonly busyChanged = this._register(new Emitter<string>());
  readonly onDidChangeBusy = this.busyChanged.event;

  constructor(
    readonly store: ConversationStore,
    private readonly settings: Settings,
    private readonly clients: ClientProvider,
    private readonly log: ComponentLogger,
    private readonly options: ChatControllerOptions = {},
  ) {
    super();
    this._register(toDisposable(() => this.stopAll()));
  }

  defaults(): ChatDefaults {
    return this.settings.chat;
  }

  modelOf(conversation: Conversation): string {
    return modelOf(conversation, this.defaults());
  }

  capabilitiesOf(conversation: Conversation): ModelCapabilities {
    return this.settings.capabilities(this.modelOf(conversation)) ?? {};
  }

  tools(): ChatTool[] {
    return toChatTools(this.settings.get('chat.tools'));
  }

  isBusy(conversationId: string): boolean {
    return this.running.has(conversationId) || this.choosingModel.has(conversationId);
  }

  /** Adds the user's turn and streams the reply. Resolves with the reply once it ended (undefined when busy or unknown). */
  async send(conversationId: string, input: UserInput): Promise<AssistantMessage | undefined> {
    const conversation = this.store.get(conversationId);
    if (!conversation || this.isBusy(conversationId)) return undefined;
    addUserMessage(conversation, input);
    return this.reply(conversation);
  }

  /** Answers the last user message again (regenerate, or retry after a failure). */
  async regenerate(conversationId: string): Promise<AssistantMessage | undefined> {
    const conversation = this.store.get(conversationId);
    if (!conversation || this.isBusy(conversationId) || !dropRepliesAfterLastUser(conversation)) return undefined;
    return this.reply(conversation);
  }

  /** Replaces a user message, drops the turns after it, and sends again: the model sees the edited text. */
  async editAndResend(conversationId: string, messageId: string, text: string): Promise<AssistantMessage | undefined> {
    const conversation = this.store.get(conversationId);
    if (!conversation || this.isBusy(conversationId) || !editUserMessage(conversation, messageId, text)) return undefined;
    return this.reply(conversation);
  }

  /** Stops the reply in progress; what arrived is kept. */
  stop(conversationId: string): boolean {
    const running = this.running.get(conversationId);
    if (!running) return false;
    this.log.info(`Stopping the reply ${running.requestId}.`);
    running.abort.abort();
    return true;
  }

  /** The 429 wait of the conversation's reply, with the time left now; undefined when it is not waiting. */
  rateLimitOf(conversationId: string): RateLimitUpdate | undefined {
    const running = this.running.get(conversationId);
    const wait = running?.rateLimit.view();
    return running && wait ? { conversationId, messageId: running.messageId, requestId: running.requestId, wait } : undefined;
  }

  /** Ends a 429 wait at once: the request is sent again now. False when the chat is not waiting. */
  retryNow(conversationId: string): boolean {
    const wait = this.running.get(conversationId)?.rateLimit.retryNow();
    if (wait) this.log.info(`Retrying now, before the wait after HTTP 429 ended (attempt ${wait.attempt} of ${wait.retries}).`);
    return wait !== undefined;
  }

  stopAll(): void {
    for (const id of [...this.running.keys()]) this.stop(id);
  }

  /** No model chosen in the chat or the settings: the chat takes the first one the service lists, and keeps it. */
  private async chooseFirstListedModel(conversation: Conversation): Promise<void> {
    this.choosingModel.add(conversation.id);
    this.busyChanged.fire(conversation.id);
    try {
      const first = await (this.options.firstListedModel?.() ?? Promise.resolve(undefined)).catch(() => undefined);
      if (!first || this.modelOf(conversation)) return;
      conversation.options.model = first;
      this.log.info(`No chat model was chosen: this chat uses ${first}, the first one the service lists.`);
    } finally {
      this.choosingModel.delete(conversation.id);
    }
  }

  /** Streams the answer to the conversation's last user message (the caller changed the conversation just before). */
  private async reply(conversation: Conversation): Promise<AssistantMessage> {
    if (!this.modelOf(conversation)) await this.chooseFirstListedModel(conversation);
    const model = this.modelOf(conversation);
    const message = startAssistantMessage(conversation, model);
    const ids = { conversationId: conversation.id, messageId: message.id, requestId: randomId() };
    const rateLimit = new ReplyRateLimit((wait) => this.rateLimited.fire({ ...ids, ...(wait ? { wait } : {}) }));
    const running: Running = { requestId: ids.requestId, messageId: message.id, abort: new AbortController(), rateLimit };
    this.running.set(conversation.id, running);
    this.busyChanged.fire(conversation.id);
    this.store.changed(conversation.id, { listChanged: true, persist: 'now' });
    const deltas = new ReplyDeltas(
      message,
      DELTA_INTERVAL_MS,
      (delta) => this.streamed.fire({ ...ids, ...delta }),
      (calls) => this.toolCallsChanged.fire({ ...ids, calls }),
    );

    let request: ChatRequest | undefined;
    // Asked now, while the reply streams: the price is there (or not) when the reply ends.
    const price = this.options.priceOf?.(model).catch(() => undefined);
    try {
      const client = this.clients.get();
      if (!client) {
        throw new ApiError({
          kind: 'no-key',
          message: 'The address of the service is not set.',
          hint: 'Set promptreel.baseUrl (Promptreel: Set API Key asks for it).',
        });
      }
      const sent = buildChatRequest({ conversation, defaults: this.defaults(), capabilities: this.capabilitiesOf(conversation), tools: this.tools() });
      request = sent;
      this.log.info(`Request ${ids.requestId}: ${model}, ${sent.messages.length} message(s)${sent.tools ? `, ${sent.tools.length} tool(s)` : ''}.`);
      const events = withRateLimitRetry(() => client.streamChatCompletion(sent, running.abort.signal), {
        policy: this.settings.rateLimit,
        signal: running.abort.signal,
        onWait: (wait) => {
          this.log.warn(`Request ${ids.requestId}: rate limited (HTTP 429); retry ${wait.attempt} of ${wait.retries} in ${Math.ceil(wait.delayMs / 1000)} s.`);
          rateLimit.start(wait);
        },
        onRetry: () => rateLimit.end(),
      });
      for await (const event of events) {
        deltas.push(applyStreamEvent(message, event));
        this.store.persistSoon();
      }
      deltas.flush();
      completeAssistantMessage(message);
      const usage = message.usage ? `, ${message.usage.totalTokens} tokens` : '';
      this.log.info(`Reply ${ids.requestId} complete: ${message.text.length} characters, finish reason ${message.finishReason ?? 'none'}${usage}.`);
    } catch (error) {
      deltas.flush();
      // A stop that raced with another failure is still a stop; a stop during a 429 wait leaves the 429 to retry.
      const waitedOut = rateLimit.waitedOut;
      const failure = waitedOut ? describeReplyFailure(waitedOut) : running.abort.signal.aborted ? { status: 'stopped' as const } : describeReplyFailure(error);
      failAssistantMessage(message, failure.status, failure.error);
      if (failure.status === 'stopped') this.log.info(`Reply ${ids.requestId} stopped after ${message.text.length} characters.`);
      else this.log.warn(`Reply ${ids.requestId} ${failure.status}: ${describeError(error)}`);
    } finally {
      deltas.dispose();
      rateLimit.end();
      if (request && message.status !== 'error') {
        const cost = await settledReplyCost(price, message, request, PRICE_WAIT_MS);
        if (cost) message.cost = cost;
      }
      this.running.delete(conversation.id);
      conversation.updatedAt = Date.now();
      this.store.changed(conversation.id, { listChanged: true, persist: 'now' });
      this.finished.fire({ conversationId: conversation.id, requestId: ids.requestId, message });
      this.busyChanged.fire(conversation.id);
    }
    return message;
  }
}
