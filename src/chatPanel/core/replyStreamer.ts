import { withRateLimitRetry } from '../../api/chat/rateLimitRetry';
import type { ChatRequest } from '../../api/chat/request';
import type { ModelPrice } from '../../api/account/prices';
import type { Readiness } from '../../connection/connection';
import { BudgetDeclined, ServiceNotReady } from '../../connection/core/recovery';
import { describeError, type ComponentLogger } from '../../common/logger';
import type { Settings } from '../../config/settings';
import { applyStreamEvent, completeAssistantMessage, failAssistantMessage, randomId, settleToolCallIds, startAssistantMessage } from './conversation';
import type { ConversationStore } from './conversationStore';
import { describeReplyFailure } from './errorInfo';
import type { AssistantMessage, Conversation, ToolCallRecord } from './model';
import type { RateLimitView } from '../webview/protocol';
import { settledReplyCost } from './replyCost';
import { ReplyDeltas, type CoalescedDelta } from './replyDeltas';
import { ReplyRateLimit } from './replyRateLimit';
import { buildConversationRequest } from './requestBuilder';
import { describeAdjustment } from '../../chatRequest/chatRequestBuilder';
import type { ResolvedCapabilities } from '../../chatRequest/capabilities';
import type { ChatSampling } from '../../config/chatSampling';
import type { ToolSpec } from './toolbox';
import { toChatTools } from './tools';

/** The settings a chat reads (the `Settings` of the extension; a plain object in unit tests). */
export type ChatSettingsSource = Pick<Settings, 'chat' | 'capabilities' | 'get' | 'rateLimit'>;
/** Whether the service is ready, with its client (the Connection; a plain object in unit tests). */
export interface ChatService {
  readiness(): Promise<Readiness>;
  /** Before the request: false when a budget is spent and the user chose not to send. */
  allowChatCharge?(): Promise<boolean>;
}

/** Deltas are handed to the views at most this often; the webview then paints at its own frame rate. */
const DELTA_INTERVAL_MS = 16;
/** How long the end of a reply waits for the price list, at most. */
const PRICE_WAIT_MS = 1_000;

export interface ReplyIds {
  conversationId: string;
  messageId: string;
  requestId: string;
}

/** Where one reply streams to: the views (through the controller's events) and the turn that runs it. */
export interface ReplyListener {
  /** The reply was created; its ids and its 429 wait are the turn's now. */
  started(ids: ReplyIds, rateLimit: ReplyRateLimit): void;
  delta(ids: ReplyIds, delta: CoalescedDelta): void;
  toolCalls(ids: ReplyIds, calls: ToolCallRecord[]): void;
  rateLimit(ids: ReplyIds, wait: RateLimitView | undefined): void;
}

export interface ReplyRequest {
  conversation: Conversation;
  model: string;
  capabilities: ResolvedCapabilities;
  settings: ChatSampling;
  offered: readonly ToolSpec[];
  signal: AbortSignal;
}

/** Streams one reply from the service into a new assistant message of a conversation. Never throws. */
export class ReplyStreamer {
  constructor(
    private readonly store: ConversationStore,
    private readonly settings: ChatSettingsSource,
    private readonly service: ChatService,
    private readonly log: ComponentLogger,
    private readonly priceOf?: (model: string) => Promise<ModelPrice | undefined>,
  ) {}

  async stream({ conversation, model, capabilities, settings, offered, signal }: ReplyRequest, listener: ReplyListener): Promise<AssistantMessage> {
    const message = startAssistantMessage(conversation, model);
    const ids: ReplyIds = { conversationId: conversation.id, messageId: message.id, requestId: randomId() };
    const rateLimit = new ReplyRateLimit((wait) => listener.rateLimit(ids, wait));
    listener.started(ids, rateLimit);
    this.store.changed(conversation.id, { listChanged: true, persist: 'now' });
    const deltas = new ReplyDeltas(
      message,
      DELTA_INTERVAL_MS,
      (delta) => listener.delta(ids, delta),
      (calls) => listener.toolCalls(ids, calls),
    );

    let request: ChatRequest | undefined;
    // Asked now, while the reply streams: the price is there (or not) when the reply ends.
    const price = this.priceOf?.(model).catch(() => undefined);
    try {
      const readiness = await this.service.readiness();
      if (readiness.kind === 'missing') throw new ServiceNotReady(readiness);
      if (this.service.allowChatCharge && !(await this.service.allowChatCharge())) throw new BudgetDeclined();
      const { client } = readiness;
      const built = buildConversationRequest({ conversation, settings, capabilities, tools: toChatTools(offered) });
      const sent = built.request;
      request = sent;
      // What the model cannot take was adjusted: said under the reply, and in the log.
      const notes = built.adjustments.map((adjustment) => describeAdjustment(adjustment, model));
      if (notes.length) {
        message.notes = notes;
        this.log.info(`Request ${ids.requestId}: ${notes.join(' ')}`);
      }
      this.log.info(`Request ${ids.requestId}: ${model}, ${sent.messages.length} message(s)${sent.tools ? `, ${sent.tools.length} tool(s)` : ''}.`);
      const events = withRateLimitRetry(() => client.streamChatCompletion(sent, signal), {
        policy: this.settings.rateLimit,
        signal,
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
      const failure = waitedOut ? describeReplyFailure(waitedOut) : signal.aborted ? { status: 'stopped' as const } : describeReplyFailure(error);
      failAssistantMessage(message, failure.status, failure.error);
      if (failure.status === 'stopped') this.log.info(`Reply ${ids.requestId} stopped after ${message.text.length} characters.`);
      else this.log.warn(`Reply ${ids.requestId} ${failure.status}: ${describeError(error)}`);
    } finally {
      deltas.dispose();
      rateLimit.end();
      settleToolCallIds(conversation, message);
      if (request && message.status !== 'error') {
        const cost = await settledReplyCost(price, message, request, PRICE_WAIT_MS);
        if (cost) message.cost = cost;
      }
      this.store.changed(conversation.id, { persist: 'now' });
    }
    return message;
  }
}
