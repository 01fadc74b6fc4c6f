import type { ConversationView, HostToWebview, ReplyEnd, SetupView, Snapshot, WebviewToHost } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { Composer } from './composer';
import { button, byId } from '../../../webviewPage/dom';
import { FrameScheduler } from './frameScheduler';
import { Header } from './header';
import type { ChatChannel } from './chatChannel';
import { HIGHLIGHTER_READY, useHighlighter, type Highlighter } from './highlight';
import { buildLayout } from './layout';
import { loadLaterScript } from '../../../webviewPage/laterScript';
import { highlightRendered } from './markdown';
import { warmUpMarkdown } from './markdownStream';
import { MessageListView } from './messageListView';
import { actionLabel, AssistantMessageView } from './messageViews';

const REPLY_INTENTS = new Set<WebviewToHost['type']>(['send', 'quickAction', 'regenerate', 'retry', 'editMessage']);

/** The chat page: renders what the host sends, and turns clicks and keys into intents for the host. */
export class ChatApp {
  private readonly announcer: HTMLElement;
  private readonly noKey: HTMLElement;
  private readonly header: Header;
  private readonly composer: Composer;
  private readonly list: MessageListView;
  private conversation: ConversationView | undefined;
  private readonly scheduler = new FrameScheduler();

  constructor(
    root: HTMLElement,
    private readonly channel: ChatChannel,
  ) {
    buildLayout(root);
    root.removeAttribute('aria-busy');
    this.announcer = byId('announcer');
    this.noKey = byId('no-key');
    const conversationId = () => this.conversation?.id ?? '';
    this.header = new Header({ post: (message) => this.post(message), conversationId });
    this.composer = new Composer(
      { post: (message) => this.post(message), conversationId, saveDraft: (text) => channel.save({ draft: text }) },
      channel.saved.draft ?? '',
    );
    this.list = new MessageListView(
      byId('messages'),
      this.scheduler,
      {
        post: (intent) => this.post(intent),
        conversationId,
        focusModelPicker: () => this.header.focusModelPicker(),
        saveAnchor: (scrollAnchor) => channel.save({ scrollAnchor }),
      },
      channel.saved.scrollAnchor,
    );

    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.composer.requestStop()) event.preventDefault();
    });
    channel.onMessage((message) => this.receive(message));
    const savedId = channel.saved.conversationId;
    channel.post({ type: 'ready', ...(savedId ? { conversationId: savedId } : {}) });
    // The snapshot the host put in the page, shown while `ready` travels; unless it is of another conversation than
    // the one this page showed (the host switches to that one on `ready`: showing this first would flash).
    const first = channel.takeFirstMessage((message) => message.type === 'snapshot' && (!savedId || savedId === message.snapshot.conversation.id));
    if (first) this.receive(first);
    // While the snapshot travels.
    setTimeout(warmUpMarkdown, 0);
  }

  /** Sends an intent; one that starts a reply brings the list back to the bottom to follow it. */
  private post(message: WebviewToHost): void {
    if (REPLY_INTENTS.has(message.type)) this.list.follow();
    this.channel.post(message);
  }

  private receive(message: HostToWebview): void {
    switch (message.type) {
      case 'snapshot':
        this.applySnapshot(message.snapshot);
        this.loadHighlighter();
        return;
      case 'conversations':
        if (this.conversation) this.header.setConversations(message.conversations, this.conversation.id);
        return;
      case 'conversation':
        this.showConversation(message.conversation);
        this.composer.setCapabilities(message.capabilities);
        return;
      case 'delta': {
        const view = this.list.view(message.messageId);
        if (message.conversationId === this.conversation?.id && view instanceof AssistantMessageView) {
          view.appendDelta(message.text, message.textOffset, message.reasoning, message.reasoningOffset);
        }
        return;
      }
      case 'toolCalls': {
        const view = this.list.view(message.messageId);
        if (view instanceof AssistantMessageView) view.setToolCalls(message.calls);
        return;
      }
      case 'rateLimit': {
        const view = this.list.view(message.messageId);
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

  private highlighterRequested = false;

  /**
   * Loads the highlighter after the frame that shows the first screen, which it would delay (a third of the page's
   * code); the code blocks shown meanwhile are highlighted when it has run. If it cannot load, code stays plain text.
   */
  private loadHighlighter(): void {
    if (this.highlighterRequested) return;
    this.highlighterRequested = true;
    document.addEventListener(HIGHLIGHTER_READY, (event) => {
      if (event instanceof CustomEvent && typeof event.detail === 'function') useHighlighter(event.detail as Highlighter);
    });
    requestAnimationFrame(() =>
      setTimeout(() => {
        void loadLaterScript().then((loaded) => {
          if (!loaded) useHighlighter(() => undefined);
          highlightRendered();
        });
      }, 0),
    );
  }

  private applySnapshot(snapshot: Snapshot): void {
    this.showSetup(snapshot.setup);
    this.header.setModels(snapshot.models, snapshot.capabilities, snapshot.defaults);
    this.composer.setCapabilities(snapshot.capabilities);
    this.composer.setDraft(snapshot.draft);
    this.composer.setBudget(snapshot.budget);
    this.showConversation(snapshot.conversation);
    this.header.setConversations(snapshot.conversations, snapshot.conversation.id);
  }

  private showConversation(conversation: ConversationView): void {
    if (this.conversation?.id !== conversation.id) this.channel.save({ conversationId: conversation.id });
    this.conversation = conversation;
    this.header.setConversation(conversation);
    this.composer.setBusy(conversation.busy);
    this.composer.setToolsOn(conversation.options.tools !== false);
    this.list.show(conversation);
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
}
