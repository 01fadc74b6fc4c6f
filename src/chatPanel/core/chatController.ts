import { Emitter } from '../../common/emitter';
import { t } from '../../api/l10n';
import type { ModelPrice } from '../../api/account/prices';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ComponentLogger } from '../../common/logger';
import { addUserMessage, dropRepliesAfterLastUser, editUserMessage, failAssistantMessage, type UserInput } from './conversation';
import type { ConversationStore } from './conversationStore';
import type { AssistantMessage, Conversation, ToolCallRecord } from './model';
import type { RateLimitView, ToolDecision } from '../webview/protocol';
import { modelOf } from './requestBuilder';
import { resolveCapabilities, type ResolvedCapabilities } from '../../chatRequest/capabilities';
import type { ChatSampling } from '../../config/chatSampling';
import type { ReplyRateLimit } from './replyRateLimit';
import { ReplyStreamer, type ChatService, type ChatSettingsSource, type ReplyIds, type ReplyListener } from './replyStreamer';
import { ToolApprovals } from './toolApprovals';
import type { ToolSpec, Toolbox } from './toolbox';
import { runToolRound } from './toolRound';

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

/** A turn in progress: the replies and tool rounds that answer one user message. */
interface Running {
  /** The reply streaming now (a turn with tool calls has several, one after another). */
  requestId: string;
  messageId: string;
  abort: AbortController;
  rateLimit: ReplyRateLimit | undefined;
}

export interface ChatControllerOptions {
  /** The model to use when neither the chat nor the settings name one (the first the service lists); Stop aborts the signal. */
  firstListedModel?: (signal: AbortSignal) => Promise<string | undefined>;
  /** A model's price (never throws); the cost of each reply is kept with it. */
  priceOf?: (model: string) => Promise<ModelPrice | undefined>;
  /** What a model can take (the model catalog's one answer: the settings over the service's model list). */
  capabilitiesOf?: (model: string) => ResolvedCapabilities;
  /** The tools the chat may offer a model that takes tools, and runs when it calls them. */
  toolbox?: Toolbox;
}

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
  private readonly approvals = new ToolApprovals();
  private readonly streamer: ReplyStreamer;

  constructor(
    readonly store: ConversationStore,
    private readonly settings: ChatSettingsSource,
    service: ChatService,
    private readonly log: ComponentLogger,
    private readonly options: ChatControllerOptions = {},
  ) {
    super();
    this.streamer = new ReplyStreamer(store, settings, service, log, options.priceOf);
    this._register(toDisposable(() => this.stopAll()));
  }

  /** `promptreel.chat.*`: what a chat's own options fall back to. */
  defaults(): ChatSampling {
    return this.settings.chat;
  }

  modelOf(conversation: Conversation): string {
    return modelOf(conversation, this.defaults());
  }

  /** What the chat's model can take. */
  capabilitiesOf(conversation: Conversation): ResolvedCapabilities {
    const model = this.modelOf(conversation);
    return this.options.capabilitiesOf?.(model) ?? resolveCapabilities(this.settings.capabilities(model));
  }

  /** The tools this chat offers its model: none unless the model takes tools and the chat has not turned them off. */
  toolsFor(conversation: Conversation, { evenIfOff = false }: { evenIfOff?: boolean } = {}): ToolSpec[] {
    const capabilities = this.capabilitiesOf(conversation);
    // Its own tools are offered only to a model known to take tools (the settings or the model list say so).
    if (!capabilities.tools || !capabilities.toolsKnown || (conversation.options.tools === false && !evenIfOff) || !this.options.toolbox) return [];
    const tools = this.options.toolbox.list();
    return capabilities.maxTools ? tools.slice(0, capabilities.maxTools) : tools;
  }

  /** The user's Allow or Deny for a tool call that waits; false when it no longer waits. */
  decideTool(conversationId: string, callId: string, decision: ToolDecision): boolean {
    const taken = this.approvals.decide(conversationId, callId, decision);
    const conversation = this.store.get(conversationId);
    if (taken?.allowedForChat && conversation && !conversation.allowedTools?.includes(taken.allowedForChat)) {
      conversation.allowedTools = [...(conversation.allowedTools ?? []), taken.allowedForChat];
      this.log.info(`Tool ${taken.allowedForChat} allowed for the rest of this chat.`);
      this.store.changed(conversationId, { persist: 'now' });
    }
    return taken !== undefined;
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
    const wait = running?.rateLimit?.view();
    return running && wait ? { conversationId, messageId: running.messageId, requestId: running.requestId, wait } : undefined;
  }

  /** Ends a 429 wait at once: the request is sent again now. False when the chat is not waiting. */
  retryNow(conversationId: string): boolean {
    const wait = this.running.get(conversationId)?.rateLimit?.retryNow();
    if (wait) this.log.info(`Retrying now, before the wait after HTTP 429 ended (attempt ${wait.attempt} of ${wait.retries}).`);
    return wait !== undefined;
  }

  stopAll(): void {
    for (const id of [...this.running.keys()]) this.stop(id);
  }

  /** No model chosen in the chat or the settings: the chat takes the first one the service lists, and keeps it. */
  private async chooseFirstListedModel(conversation: Conversation, signal: AbortSignal): Promise<void> {
    this.choosingModel.add(conversation.id);
    this.busyChanged.fire(conversation.id);
    try {
      const first = await (this.options.firstListedModel?.(signal) ?? Promise.resolve(undefined)).catch(() => undefined);
      if (!first || this.modelOf(conversation)) return;
      conversation.options.model = first;
      this.log.info(`No chat model was chosen: this chat uses ${first}, the first one the service lists.`);
    } finally {
      this.choosingModel.delete(conversation.id);
    }
  }

  /**
   * Answers the conversation's last user message (the caller changed the conversation just before): streams a reply,
   * runs the tools it calls (with the user's approval) and streams the next reply with their results, until the model
   * answers without calling a tool, Stop, a failure, or the round limit. Resolves with the last reply.
   */
  private async reply(conversation: Conversation): Promise<AssistantMessage> {
    const running: Running = { requestId: '', messageId: '', abort: new AbortController(), rateLimit: undefined };
    this.running.set(conversation.id, running);
    this.busyChanged.fire(conversation.id);
    let message: AssistantMessage | undefined;
    try {
      if (!this.modelOf(conversation)) await this.chooseFirstListedModel(conversation, running.abort.signal);
      const maxRounds = this.settings.get('chat.maxToolRounds');
      for (let round = 0; ; round++) {
        const offered = this.toolsFor(conversation);
        const request = { conversation, model: this.modelOf(conversation), capabilities: this.capabilitiesOf(conversation), settings: this.defaults() };
        message = await this.streamer.stream({ ...request, offered, signal: running.abort.signal }, this.listenerFor(running));
        if (message.status !== 'done' || offered.length === 0 || !message.toolCalls.some((call) => call.name)) break;
        if (round >= maxRounds) {
          this.log.warn(`Request ${running.requestId}: the model still calls tools after ${maxRounds} rounds; stopping here.`);
          failAssistantMessage(message, 'stopped', {
            message: t('Stopped after {0} rounds of tool calls (promptreel.chat.maxToolRounds). Send a message to let the model go on.', maxRounds),
            actions: ['openSettings'],
          });
          break;
        }
        if ((await this.runTools(conversation, message, offered, running)) === 'stopped') break;
      }
    } finally {
      this.running.delete(conversation.id);
      conversation.updatedAt = Date.now();
      this.store.changed(conversation.id, { listChanged: true, persist: 'now' });
      if (message) this.finished.fire({ conversationId: conversation.id, requestId: running.requestId, message });
      this.busyChanged.fire(conversation.id);
    }
    return message;
  }

  private async runTools(
    conversation: Conversation,
    message: AssistantMessage,
    offered: readonly ToolSpec[],
    running: Running,
  ): Promise<'answered' | 'stopped'> {
    const ids = { conversationId: conversation.id, messageId: message.id, requestId: running.requestId };
    const outcome = await runToolRound({
      conversation,
      message,
      offered,
      toolbox: this.options.toolbox!,
      approvals: this.approvals,
      signal: running.abort.signal,
      changed: () => {
        this.toolCallsChanged.fire({ ...ids, calls: message.toolCalls.map((call) => ({ ...call })) });
        this.store.changed(conversation.id, { persist: 'later' });
      },
      log: (line) => this.log.info(`Request ${running.requestId}: ${line}`),
    });
    if (outcome === 'stopped') {
      failAssistantMessage(message, 'stopped');
      this.log.info(`Reply ${running.requestId} stopped while its tool calls ran.`);
    }
    return outcome;
  }

  /** Where a reply of the turn streams: the turn follows its ids and its 429 wait, the views get what arrives. */
  private listenerFor(running: Running): ReplyListener {
    return {
      started: (ids: ReplyIds, rateLimit: ReplyRateLimit) => Object.assign(running, { requestId: ids.requestId, messageId: ids.messageId, rateLimit }),
      delta: (ids, delta) => this.streamed.fire({ ...ids, ...delta }),
      toolCalls: (ids, calls) => this.toolCallsChanged.fire({ ...ids, calls }),
      rateLimit: (ids, wait) => this.rateLimited.fire({ ...ids, ...(wait ? { wait } : {}) }),
    };
  }
}
