import { CommandIds } from '../common/contributions';
import type * as vscode from 'vscode';
import { t } from '../api/l10n';
import { showMessage } from '../workbench/showMessage';
import { Emitter } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import { describeError } from '../common/logger';
import { chatHtml, chatWebviewOptions } from './chatHtml';
import { quickActionPrompt } from './core/contextPrompt';
import { confirmCharge } from '../workbench/confirmCharge';
import type { Conversation, ConversationOptions, ImageAttachment, SelectionContext } from './core/model';
import type { ChatServices } from './chatServices';
import { forwardReplies } from './replyForwarding';
import { runServiceIntent } from './serviceIntents';
import { patchOptions, type Draft } from './core/webviewViews';
import { pageCapabilities, pageConversation, pageDefaults, pageSummaries } from './pageViews';
import { ComposerDraft } from './core/composerDraft';
import { ComposerIntents } from './composerIntents';
import { webviewToHostSchema, type HostCommand, type HostToWebview, type OptionsPatch, type SetupView, type WebviewToHost } from './core/protocol';
import { recoveryForMissing } from '../connection/core/recovery';

/**
 * Binds one chat webview (the side bar view or an editor panel) to the controller: answers `ready` with a
 * snapshot, forwards the active conversation's stream, and turns validated intents into actions.
 */
export class ChatWebviewHost extends Disposable {
  private activeId: string | undefined;
  private readonly draft = new ComposerDraft(
    (message) => this.post(message),
    () => this.isReady,
    () => this.composer.postBudget(),
  );
  private readonly composer: ComposerIntents;
  private lastTitle: string | undefined;
  private readonly titleChanged = this._register(new Emitter<string>());
  /** The title of the conversation shown changed (panels show it in their tab). */
  readonly onDidChangeTitle = this.titleChanged.event;
  private isReady = false;
  private readonly posted = this._register(new Emitter<HostToWebview>());
  /** Every message sent to the webview (tests and the benchmark read what the webview was told). */
  readonly onDidPost = this.posted.event;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly services: ChatServices,
    initialConversationId?: string,
  ) {
    super();
    const { controller, models, connection, settings } = services;
    this.composer = new ComposerIntents(
      this.draft,
      {
        post: (message) => this.post(message),
        ready: () => this.isReady,
        conversation: () => this.activeConversation(),
        capabilities: (conversation) => pageCapabilities(this.services, conversation),
      },
      services,
    );
    if (initialConversationId && controller.store.get(initialConversationId)) this.activeId = initialConversationId;
    webview.options = chatWebviewOptions(services.extensionUri);
    webview.html = chatHtml(webview, services.extensionUri);

    this._register(webview.onDidReceiveMessage((raw: unknown) => void this.handleMessage(raw)));
    this._register(controller.store.onDidChange((change) => this.onStoreChange(change.conversationId, change.listChanged)));
    this._register(
      forwardReplies(
        controller,
        () => this.activeId,
        (message) => this.post(message),
      ),
    );
    this._register(controller.onDidChangeBusy(() => this.postConversations()));
    this._register(connection.keyStore.onDidChange(() => void this.postSetup()));
    this._register(models.onDidChange(() => this.postModels()));
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('chat') || change.affects('models')) {
          this.postModels();
          this.postConversation();
        }
      }),
    );
  }

  /** The conversation this webview shows (one is created when there is none). */
  get conversationId(): string {
    return this.activeConversation().id;
  }

  get ready(): boolean {
    return this.isReady;
  }

  /** What waits next to the prompt box (the selection, mentions, images) until the next message is sent. */
  get composerDraft(): Readonly<Draft> {
    return this.draft.current;
  }

  showConversation(conversationId: string): boolean {
    if (!this.services.controller.store.get(conversationId)) return false;
    this.activeId = conversationId;
    void this.postSnapshot();
    return true;
  }

  /** Shows an empty conversation (an existing empty one is reused rather than piling up "New chat" entries). */
  newConversation(): string {
    const store = this.services.controller.store;
    const empty = store.list().find((summary) => summary.messageCount === 0);
    this.activeId = (empty ? store.get(empty.id) : undefined)?.id ?? store.create(this.inheritedOptions()).id;
    void this.postSnapshot();
    this.post({ type: 'focusComposer' });
    return this.activeId;
  }

  /** Puts a selection next to the prompt box ("Ask About Selection"); the user then types or picks a quick action. */
  setContext(context: SelectionContext, { focus = true }: { focus?: boolean } = {}): void {
    this.draft.setContext(context, focus);
  }

  addImage(image: ImageAttachment): void {
    this.draft.addImage(image);
  }

  /** Validates and handles one message from the webview; invalid ones are logged and dropped. */
  async handleMessage(raw: unknown): Promise<void> {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.services.log.warn(
        `Dropped an invalid message from the chat webview: ${parsed.error.issues[0]?.message ?? 'unknown'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`,
      );
      return;
    }
    try {
      await this.handle(parsed.data);
    } catch (error) {
      this.services.log.error(`Handling "${parsed.data.type}" from the chat webview failed: ${describeError(error)}`);
      showMessage('error', t('Promptreel chat: {0}', describeError(error)), [{ title: t('Show Logs'), command: CommandIds.showLogs }]);
    }
  }

  private async handle(message: WebviewToHost): Promise<unknown> {
    const { controller, models } = this.services;
    switch (message.type) {
      case 'ready':
        // The page's saved conversation counts when this host starts (a window reload); after that the page reloads
        // only because it was hidden, and the host knows better (it may have shown another conversation meanwhile).
        if (!this.isReady && message.conversationId && controller.store.get(message.conversationId)) this.activeId = message.conversationId;
        this.isReady = true;
        models.ensureLoaded();
        await this.postSnapshot();
        this.draft.onPageReady();
        return;
      case 'send':
        return this.sendTurn(message.conversationId, message.text);
      case 'quickAction': {
        const prompt = quickActionPrompt(message.action, this.draft.context);
        return this.sendTurn(message.conversationId, message.text.trim() ? `${prompt}\n\n${message.text.trim()}` : prompt, message.text);
      }
      case 'newConversation':
        return this.newConversation();
      case 'selectConversation':
        return this.showConversation(message.conversationId);
      case 'setOptions':
        return this.applyOptions(message.conversationId, message.options);
      case 'attachImage':
      case 'removeImage':
      case 'clearContext':
      case 'mentionQuery':
      case 'addMention':
      case 'removeMention':
      case 'openMention':
      case 'dropUris':
      case 'addImageData':
        return this.composer.handle(message);
      default:
        return runServiceIntent(message, this.services, (reply) => this.post(reply));
    }
  }

  /** `typed`: what the composer held (given back when the user decides not to send after all). */
  private async sendTurn(conversationId: string, text: string, typed = text): Promise<void> {
    const { controller, connection } = this.services;
    if (!controller.store.get(conversationId) || controller.isBusy(conversationId)) return;
    const trimmed = text.trim();
    if (!trimmed && this.draft.isEmpty) return;
    if (!(await confirmCharge(connection.keyHealth.state, connection.clock.now(), t('This message')))) {
      this.draft.giveBack(typed);
      return;
    }
    const mentions = this.composer.mentionsToSend(controller.store.get(conversationId)!);
    const { context, images } = this.draft.take();
    this.activeId = conversationId;
    void controller.send(conversationId, { text: trimmed, ...(context ? { context } : {}), ...(images.length ? { images } : {}), mentions });
  }

  private applyOptions(conversationId: string, patch: OptionsPatch): void {
    const conversation = this.services.controller.store.get(conversationId);
    if (!conversation) return;
    conversation.options = patchOptions(conversation.options, patch);
    this.services.controller.store.changed(conversationId, { persist: 'now' });
  }

  private onStoreChange(conversationId: string | undefined, listChanged: boolean): void {
    const store = this.services.controller.store;
    if (this.activeId && !store.get(this.activeId)) {
      // The conversation shown was deleted: show the newest one left, or a new one.
      this.activeId = store.mostRecent()?.id;
      void this.postSnapshot();
      return;
    }
    if (listChanged) this.postConversations();
    if (conversationId && conversationId === this.activeId) this.postConversation();
  }

  private activeConversation(): Conversation {
    const store = this.services.controller.store;
    const current = this.activeId ? store.get(this.activeId) : undefined;
    if (current) return current;
    const conversation = store.mostRecent() ?? store.create(this.inheritedOptions());
    this.activeId = conversation.id;
    return conversation;
  }

  /** A new conversation keeps the model picked in the one shown (other options start from the settings). */
  private inheritedOptions(): ConversationOptions {
    const model = this.activeId ? this.services.controller.store.get(this.activeId)?.options.model : undefined;
    return model ? { model } : {};
  }

  private async postSnapshot(): Promise<void> {
    const conversation = this.activeConversation();
    this.updateTitle(conversation.title);
    if (!this.isReady) return;
    const setup = await this.setupView();
    this.post({
      type: 'snapshot',
      snapshot: {
        ...(setup ? { setup } : {}),
        conversations: pageSummaries(this.services),
        conversation: pageConversation(this.services, conversation),
        models: this.services.models.view,
        capabilities: pageCapabilities(this.services, conversation),
        defaults: pageDefaults(this.services),
        draft: this.draft.view(),
        budget: this.composer.budget(conversation),
      },
    });
    const waiting = this.services.controller.rateLimitOf(conversation.id);
    if (waiting) this.post({ type: 'rateLimit', ...waiting });
  }

  private postConversation(): void {
    if (!this.isReady) return;
    const conversation = this.activeConversation();
    this.post({
      type: 'conversation',
      conversation: pageConversation(this.services, conversation),
      capabilities: pageCapabilities(this.services, conversation),
    });
    this.composer.postBudget();
    this.updateTitle(conversation.title);
  }

  private postConversations(): void {
    if (this.isReady) this.post({ type: 'conversations', conversations: pageSummaries(this.services) });
  }

  private postModels(): void {
    if (!this.isReady) return;
    this.post({
      type: 'models',
      models: this.services.models.view,
      capabilities: pageCapabilities(this.services, this.activeConversation()),
      defaults: pageDefaults(this.services),
    });
    this.composer.postBudget();
  }

  private async postSetup(): Promise<void> {
    const setup = await this.setupView();
    if (this.isReady) this.post({ type: 'setup', ...(setup ? { setup } : {}) });
  }

  /** What the chat needs before it can send, as the page's banner shows it; undefined when the service is ready. */
  private async setupView(): Promise<SetupView | undefined> {
    const readiness = await this.services.connection.readiness();
    if (readiness.kind === 'ready') return undefined;
    const { message, actions } = recoveryForMissing(readiness, t('The chat'));
    return { message, actions: actions.filter((action): action is HostCommand => action !== 'retry') };
  }

  private updateTitle(title: string): void {
    if (title === this.lastTitle) return;
    this.lastTitle = title;
    this.titleChanged.fire(title);
  }

  /** Tells the page something (what it is told is typed by the protocol); lost when the page is not ready. */
  post(message: HostToWebview): void {
    this.posted.fire(message);
    void this.webview
      .postMessage(message)
      .then(undefined, (error: unknown) => this.services.log.debug(`Could not post to the chat webview: ${describeError(error)}`));
  }
}
