import type { ConversationView, HostToWebview, MessageView, ReplyEnd, SetupView, Snapshot, WebviewToHost } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { Composer } from './composer';
import { button, byId } from '../../../webviewPage/dom';
import { FrameScheduler } from './frameScheduler';
import { Header } from './header';
import type { ChatChannel } from './chatChannel';
import { buildLayout } from './layout';
import { emptyState, onMessageListClick } from './messageList';
import { actionLabel, AssistantMessageView, type MessageHost } from './messageViews';
import { UserMessageView } from './userMessageView';

type MessageViewInstance = AssistantMessageView | UserMessageView;

const REPLY_INTENTS = new Set<WebviewToHost['type']>(['send', 'quickAction', 'regenerate', 'retry', 'editMessage']);

/** Pixels from the bottom within which the list follows a streaming reply. */
const FOLLOW_THRESHOLD = 48;

/**
 * Messages shown for the first time are rendered at once only this close to the bottom (more than a screenful);
 * those further up render in the frames after, newest first, within the frame budget.
 */
const EAGER_MESSAGES = 24;

/** The chat page: renders what the host sends, and turns clicks and keys into intents for the host. */
export class ChatApp {
  private readonly messages: HTMLElement;
  private readonly announcer: HTMLElement;
  private readonly noKey: HTMLElement;
  private readonly header: Header;
  private readonly composer: Composer;
  private readonly views = new Map<string, MessageViewInstance>();
  private conversation: ConversationView | undefined;
  private following = true;
  private restoreScroll: number | undefined;
  private readonly scheduler = new FrameScheduler();
  private readonly scrollJob = () => {
    if (this.following) this.scrollToBottom();
  };
  private readonly scrolledJob = () => {
    this.following = this.messages.scrollHeight - this.messages.scrollTop - this.messages.clientHeight < FOLLOW_THRESHOLD;
    this.channel.save({ scrollTop: this.messages.scrollTop });
  };

  constructor(
    root: HTMLElement,
    private readonly channel: ChatChannel,
  ) {
    buildLayout(root);
    root.removeAttribute('aria-busy');
    this.messages = byId('messages');
    this.announcer = byId('announcer');
    this.noKey = byId('no-key');
    const conversationId = () => this.conversation?.id ?? '';
    this.header = new Header({ post: (message) => this.post(message), conversationId });
    this.composer = new Composer(
      { post: (message) => this.post(message), conversationId, saveDraft: (text) => channel.save({ draft: text }) },
      channel.saved.draft ?? '',
    );
    this.restoreScroll = channel.saved.scrollTop;

    // Reading the scroll position lays the page out: done in the next frame, after its rendering, not per event.
    this.messages.addEventListener('scroll', () => this.scheduler.schedule(this.scrolledJob, this.scrolledJob), { passive: true });
    this.messages.addEventListener('click', (event) => onMessageListClick(event, (intent) => this.channel.post(intent)));
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.composer.requestStop()) event.preventDefault();
    });
    channel.onMessage((message) => this.receive(message));
    channel.post({ type: 'ready', ...(channel.saved.conversationId ? { conversationId: channel.saved.conversationId } : {}) });
  }

  /** Sends an intent; one that starts a reply brings the list back to the bottom to follow it. */
  private post(message: WebviewToHost): void {
    if (REPLY_INTENTS.has(message.type)) {
      this.following = true;
      this.rendered();
    }
    this.channel.post(message);
  }

  private receive(message: HostToWebview): void {
    switch (message.type) {
      case 'snapshot':
        this.applySnapshot(message.snapshot);
        return;
      case 'conversations':
        if (this.conversation) this.header.setConversations(message.conversations, this.conversation.id);
        return;
      case 'conversation':
        this.showConversation(message.conversation);
        this.composer.setCapabilities(message.capabilities);
        return;
      case 'delta': {
        const view = this.views.get(message.messageId);
        if (message.conversationId === this.conversation?.id && view instanceof AssistantMessageView) {
          view.appendDelta(message.text, message.textOffset, message.reasoning, message.reasoningOffset);
        }
        return;
      }
      case 'toolCalls': {
        const view = this.views.get(message.messageId);
        if (view instanceof AssistantMessageView) view.setToolCalls(message.calls);
        return;
      }
      case 'rateLimit': {
        const view = this.views.get(message.messageId);
        if (message.conversationId === this.conversation?.id && view instanceof AssistantMessageView) view.setRateLimit(message.wait);
        return;
      }
      case 'done':
      case 'error':
        this.finishReply(message);
        return;
      case 'setup':
        this.showSetup(message.setup);
        return;
      case 'models':
        this.header.setModels(message.models, message.capabilities, message.defaults);
        this.composer.setCapabilities(message.capabilities);
        return;
      case 'draft':
        this.composer.setDraft(message.draft);
        if (message.focus) this.composer.focus();
        return;
      case 'focusComposer':
        this.composer.focus();
        return;
      case 'mentionResults':
        this.composer.showMentionResults(message.requestId, message.items);
        return;
      case 'budget':
        this.composer.setBudget(message.budget);
        return;
    }
  }

  /** The banner that says what the chat needs before it can send (the address, the service's confirmation, the key). */
  private showSetup(setup: SetupView | undefined): void {
    this.noKey.hidden = !setup;
    if (!setup) return;
    byId('no-key-message').textContent = setup.message;
    byId('no-key-actions').replaceChildren(
      ...setup.actions.map((action, index) => {
        const control = button(actionLabel(action), index === 0 ? { className: 'primary' } : {});
        control.addEventListener('click', () => this.channel.post({ type: 'runCommand', command: action }));
        return control;
      }),
    );
  }

  private applySnapshot(snapshot: Snapshot): void {
    this.showSetup(snapshot.setup);
    this.header.setModels(snapshot.models, snapshot.capabilities, snapshot.defaults);
    this.composer.setCapabilities(snapshot.capabilities);
    this.composer.setDraft(snapshot.draft);
    this.composer.setBudget(snapshot.budget);
    const switched = this.conversation?.id !== snapshot.conversation.id;
    this.showConversation(snapshot.conversation);
    this.header.setConversations(snapshot.conversations, snapshot.conversation.id);
    if (switched && this.restoreScroll !== undefined) {
      this.messages.scrollTop = this.restoreScroll;
      this.restoreScroll = undefined;
    } else if (switched) {
      this.scrollToBottom();
    }
  }

  private showConversation(conversation: ConversationView): void {
    if (this.conversation?.id !== conversation.id) {
      for (const view of this.views.values()) view.dispose();
      this.views.clear();
      this.following = true;
      this.channel.save({ conversationId: conversation.id });
    }
    this.conversation = conversation;
    this.header.setConversation(conversation);
    this.composer.setBusy(conversation.busy);
    this.composer.setToolsOn(conversation.options.tools !== false);
    this.renderMessages();
  }

  private renderMessages(): void {
    const conversation = this.conversation;
    if (!conversation) return;
    const lastAssistant = [...conversation.messages].reverse().find((message) => message.role === 'assistant');
    const seen = new Set<string>();
    const elements: HTMLElement[] = [];
    // A scroll position to restore needs the heights of everything above it: then all renders at once.
    const eagerFrom = this.restoreScroll === undefined ? conversation.messages.length - EAGER_MESSAGES : 0;
    // Newest first, so the messages at the bottom (those in view) are queued, and rendered, before older ones.
    for (let index = conversation.messages.length - 1; index >= 0; index--) {
      const message = conversation.messages[index];
      seen.add(message.id);
      const view = this.viewFor(message);
      const place = { isLast: message.id === lastAssistant?.id, busy: conversation.busy, priority: index >= eagerFrom ? ('now' as const) : ('later' as const) };
      if (view instanceof AssistantMessageView && message.role === 'assistant') view.update(message, place);
      else if (view instanceof UserMessageView && message.role === 'user') view.update(message, place);
      elements.push(view.element);
    }
    elements.reverse();
    for (const [id, view] of this.views) {
      if (seen.has(id)) continue;
      view.dispose();
      this.views.delete(id);
    }
    if (elements.length === 0) elements.push(emptyState());
    this.placeChildren(elements);
    this.rendered();
  }

  /**
   * Puts the message elements in order, moving only those out of place: a turn added to a long conversation inserts
   * two elements instead of re-inserting all of them (which would lay the whole list out again).
   */
  private placeChildren(elements: HTMLElement[]): void {
    let next = this.messages.firstElementChild;
    for (const element of elements) {
      if (element === next) {
        next = next.nextElementSibling;
        continue;
      }
      this.messages.insertBefore(element, next);
    }
    while (next) {
      const stale = next;
      next = next.nextElementSibling;
      stale.remove();
    }
  }

  private viewFor(message: MessageView): MessageViewInstance {
    const existing = this.views.get(message.id);
    if (existing && existing instanceof AssistantMessageView === (message.role === 'assistant')) return existing;
    const host: MessageHost = {
      post: (intent) => this.post(intent),
      conversationId: () => this.conversation?.id ?? '',
      rendered: () => this.rendered(),
      focusModelPicker: () => this.header.focusModelPicker(),
      scheduler: this.scheduler,
    };
    const view = message.role === 'assistant' ? new AssistantMessageView(message, host) : new UserMessageView(message, host);
    this.views.set(message.id, view);
    return view;
  }

  /** A reply ended: the chat as the turn left it (the only update the host sends for it), and the announcement. */
  private finishReply(end: ReplyEnd): void {
    if (end.conversation.id !== this.conversation?.id) return;
    this.showConversation(end.conversation);
    this.composer.setCapabilities(end.capabilities);
    this.composer.setBudget(end.budget);
    this.header.setConversations(end.conversations, end.conversation.id);
    const message = end.conversation.messages.find((candidate) => candidate.id === end.messageId);
    if (message?.role !== 'assistant') return;
    const error = message.error?.message ?? '';
    this.announce(
      message.status === 'done'
        ? t('Reply complete.')
        : message.status === 'stopped'
          ? t('Reply stopped.')
          : message.status === 'cut-off'
            ? t('Reply cut off: {0}', error)
            : t('Reply failed: {0}', error),
    );
  }

  private announce(text: string): void {
    this.announcer.textContent = text;
  }

  /** Follows the bottom while the user has not scrolled up; once per frame, after the frame's rendering. */
  private rendered(): void {
    if (this.following) this.scheduler.schedule(this, this.scrollJob);
  }

  private scrollToBottom(): void {
    this.messages.scrollTop = this.messages.scrollHeight;
  }
}
