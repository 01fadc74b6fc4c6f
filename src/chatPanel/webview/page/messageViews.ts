import type { ChatErrorAction, ToolCallRecord } from '../../core/model';
import type { AssistantMessageView as AssistantMessageData, WebviewToHost } from '../protocol';
import { fillNodes, t } from '../../../webviewPage/l10n';
import { button, el } from '../../../webviewPage/dom';
import { costElement } from './figures';
import type { FrameScheduler } from './frameScheduler';
import { MarkdownStream } from './markdownStream';
import { RateLimitBanner } from './rateLimitBanner';
import { renderToolCalls } from './toolCallViews';
import type { RateLimitView } from '../protocol';

export interface MessageHost {
  post(message: WebviewToHost): void;
  conversationId(): string;
  /** Something grew: keep the list scrolled to the bottom if it was there. */
  rendered(): void;
  focusModelPicker(): void;
  /** Where rendering work is queued (one per page). */
  readonly scheduler: FrameScheduler;
}

export interface MessagePlace {
  /** The last reply of the conversation (it gets Regenerate). */
  isLast: boolean;
  /** A reply is streaming in this conversation (actions are disabled meanwhile). */
  busy: boolean;
}

/** What the header says of a reply; a finished one says nothing, unless it stopped at max_tokens. */
function statusLabel(message: AssistantMessageData): string {
  switch (message.status) {
    case 'streaming':
      return t('Answering…');
    case 'done':
      return message.finishReason === 'length' ? t('Stopped at max_tokens') : '';
    case 'stopped':
      return t('Stopped');
    case 'cut-off':
      return t('Cut off');
    case 'error':
      return t('Failed');
  }
}

export function actionLabel(action: ChatErrorAction): string {
  switch (action) {
    case 'setApiKey':
      return t('Set API Key');
    case 'useThisService':
      return t('Use This Service');
    case 'openSettings':
      return t('Open Settings');
    case 'retry':
      return t('Retry');
    case 'showLogs':
      return t('Show Logs');
    case 'selectChatModel':
      return t('Choose Model');
    case 'chooseVideoModel':
      return t('Set Video Model');
    case 'testConnection':
      return t('Test Connection');
    case 'trackVideoTask':
      return t('Track Video Task by ID');
  }
}

/** One reply: reasoning (collapsed), the markdown answer (streamed), tool calls, the outcome, usage and actions. */
export class AssistantMessageView {
  readonly element: HTMLElement;
  private readonly markdown: MarkdownStream;
  private readonly reasoning: HTMLDetailsElement;
  private readonly reasoningText: HTMLElement;
  private readonly toolCalls: HTMLElement;
  private readonly status: HTMLElement;
  private readonly failure: HTMLElement;
  private readonly usage: HTMLElement;
  private readonly notes: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly rateLimit: RateLimitBanner;
  private reasoningLength = 0;
  private current: AssistantMessageData;
  private place: MessagePlace = { isLast: false, busy: false };
  private toolCallsKey = '';
  private toolCallList: ToolCallRecord[] = [];
  private outcomeKey = '';
  private actionsKey = '';

  constructor(
    message: AssistantMessageData,
    private readonly host: MessageHost,
  ) {
    this.current = { ...message, text: '', reasoning: '' };
    const body = el('div', { className: 'message-body markdown' });
    this.markdown = new MarkdownStream(body, host.scheduler, () => host.rendered());
    this.reasoningText = el('div', { className: 'reasoning-text' });
    this.reasoning = el('details', { className: 'reasoning', hidden: true }, [el('summary', { text: t('Reasoning') }), this.reasoningText]);
    this.toolCalls = el('div', { className: 'tool-calls', hidden: true, attrs: { role: 'group', 'aria-label': t('Tool calls') } });
    this.status = el('span', { className: 'message-status' });
    this.failure = el('div', { className: 'message-error', hidden: true, attrs: { role: 'alert' } });
    this.usage = el('div', { className: 'message-usage', hidden: true });
    this.notes = el('ul', { className: 'message-notes', hidden: true, attrs: { 'aria-label': t('How the request was adjusted for the model') } });
    this.actions = el('div', { className: 'message-actions' });
    this.rateLimit = new RateLimitBanner({
      retryNow: () => host.post({ type: 'retryNow', conversationId: host.conversationId() }),
      cancel: () => host.post({ type: 'stop', conversationId: host.conversationId() }),
    });
    const header = el('header', { className: 'message-header' }, [
      el('span', { className: 'message-role', text: t('Assistant') }),
      el('span', { className: 'message-model', text: message.model }),
      this.status,
    ]);
    this.element = el('article', { className: 'message assistant', dataset: { messageId: message.id }, attrs: { 'aria-label': t('Assistant reply') } }, [
      header,
      this.notes,
      this.reasoning,
      body,
      this.rateLimit.element,
      this.toolCalls,
      this.failure,
      this.usage,
      this.actions,
    ]);
  }

  get messageId(): string {
    return this.current.id;
  }

  /** Brings the view in line with the host's copy of the message (the authority on the text). */
  update(message: AssistantMessageData, place: MessagePlace): void {
    this.setReasoning(message.reasoning);
    this.markdown.set(message.text);
    if (message.status !== 'streaming') this.markdown.flush();
    this.current = { ...message };
    this.place = place;
    this.setToolCalls(message.toolCalls);
    if (message.status !== 'streaming') this.rateLimit.set(undefined);
    this.renderOutcome();
    this.renderActions();
  }

  /** A streamed delta; offsets make it idempotent when a full update already carried part of it. */
  appendDelta(text: string, textOffset: number, reasoning: string, reasoningOffset: number): void {
    if (text) this.markdown.append(text.slice(Math.max(0, this.markdown.text.length - textOffset)));
    if (reasoning) this.appendReasoning(reasoning.slice(Math.max(0, this.reasoningLength - reasoningOffset)));
  }

  setToolCalls(calls: ToolCallRecord[]): void {
    this.toolCallList = calls;
    this.renderToolCalls();
  }

  private renderToolCalls(): void {
    const calls = this.toolCallList;
    // A call that waits is live only while the chat's turn runs (one left by a closed window shows as not run).
    const live = this.place.busy || this.current.status === 'streaming';
    const key = JSON.stringify([calls, live]);
    if (key === this.toolCallsKey) return;
    this.toolCallsKey = key;
    this.toolCalls.hidden = calls.length === 0;
    this.toolCalls.replaceChildren(
      ...renderToolCalls(calls, live, {
        decide: (callId, decision) => this.host.post({ type: 'toolApproval', conversationId: this.host.conversationId(), callId, decision }),
      }),
    );
    this.host.rendered();
  }

  /** A wait after HTTP 429 before the request goes again (a countdown), or none. */
  setRateLimit(wait: RateLimitView | undefined): void {
    this.rateLimit.set(wait);
    this.host.rendered();
  }

  dispose(): void {
    this.markdown.dispose();
    this.rateLimit.dispose();
  }

  private setReasoning(reasoning: string): void {
    if (reasoning.length === this.reasoningLength) return;
    if (reasoning.length > this.reasoningLength && this.reasoningText.textContent === reasoning.slice(0, this.reasoningLength)) {
      this.appendReasoning(reasoning.slice(this.reasoningLength));
      return;
    }
    this.reasoningText.textContent = reasoning;
    this.reasoningLength = reasoning.length;
    this.reasoning.hidden = reasoning.length === 0;
  }

  private appendReasoning(text: string): void {
    if (!text) return;
    this.reasoningText.append(text);
    this.reasoningLength += text.length;
    this.reasoning.hidden = false;
  }

  /** The status, the error (with its buttons) and the usage: redone only when the message's outcome changed. */
  private renderOutcome(): void {
    const message = this.current;
    const key = JSON.stringify([message.status, message.error, message.usage, message.cost, message.finishReason, message.notes]);
    if (key === this.outcomeKey) return;
    this.outcomeKey = key;
    this.actionsKey = '';
    this.element.dataset.status = message.status;
    this.element.setAttribute('aria-busy', String(message.status === 'streaming'));
    this.status.textContent = statusLabel(message);

    // What the request builder changed so the model could take the request (a lowered max_tokens, images left out).
    const notes = message.notes ?? [];
    this.notes.hidden = notes.length === 0;
    this.notes.replaceChildren(...notes.map((note) => el('li', { text: note })));

    this.failure.hidden = !message.error;
    this.failure.replaceChildren();
    if (message.error) {
      this.failure.append(el('p', { className: 'message-error-text', text: message.error.message }));
      const buttons = el('div', { className: 'message-error-actions' });
      for (const action of message.error.actions) {
        const control = button(actionLabel(action), {
          className: action === message.error.actions[0] ? 'primary' : 'secondary',
          dataset: { errorAction: action },
        });
        control.addEventListener('click', () => this.runErrorAction(action));
        buttons.append(control);
      }
      this.failure.append(buttons);
    }

    const usage = message.usage;
    const tokens = usage ? t('Tokens: {0} prompt · {1} completion · {2} total', usage.figures.prompt, usage.figures.completion, usage.figures.total) : '';
    this.usage.hidden = !tokens && !message.cost;
    this.usage.replaceChildren(tokens);
    if (message.cost) {
      const cost = costElement(message.cost, t('The service reported no token counts for this reply: its cost is estimated from the length of the text.'));
      this.usage.append(...(tokens ? [' · ', cost] : fillNodes(t('Cost: {0}'), cost)));
    }
    this.host.rendered();
  }

  /**
   * What depends on the message's place: Regenerate on the last reply, Retry disabled while a reply streams. A reply
   * starting elsewhere in the conversation changes nothing here for the others.
   */
  private renderActions(): void {
    const message = this.current;
    const regenerate = this.place.isLast && message.status !== 'streaming' && !this.place.busy;
    const key = `${regenerate}:${this.place.busy}`;
    if (key === this.actionsKey) return;
    this.actionsKey = key;
    for (const control of this.failure.querySelectorAll<HTMLButtonElement>('[data-error-action="retry"]')) control.disabled = this.place.busy;
    if (regenerate === this.actions.childElementCount > 0) return;
    this.actions.replaceChildren();
    if (regenerate) {
      const control = button(t('Regenerate'), { ariaLabel: t('Regenerate the last reply'), dataset: { messageAction: 'regenerate' } });
      control.addEventListener('click', () => this.host.post({ type: 'regenerate', conversationId: this.host.conversationId() }));
      this.actions.append(control);
    }
    this.host.rendered();
  }

  private runErrorAction(action: ChatErrorAction): void {
    switch (action) {
      case 'retry':
        this.host.post({ type: 'retry', conversationId: this.host.conversationId() });
        return;
      case 'selectChatModel':
        this.host.focusModelPicker();
        return;
      default:
        this.host.post({ type: 'runCommand', command: action });
    }
  }
}
