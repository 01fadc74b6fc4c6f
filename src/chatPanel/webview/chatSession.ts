import * as vscode from 'vscode';
import { CommandIds } from '../../common/contributions';
import { Emitter } from '../../common/emitter';
import { t } from '../../api/l10n';
import { MutableDisposable, toDisposable } from '../../common/lifecycle';
import { describeError } from '../../common/logger';
import { confirmCharge } from '../../workbench/confirmCharge';
import { recoveryCommand } from '../../workbench/recoveryActions';
import { showMessage } from '../../workbench/showMessage';
import { escapeHtml } from '../../workbench/webview/core/webviewHtml';
import { WebviewHost } from '../../workbench/webview/webviewHost';
import type { ReplyFinished } from '../core/chatController';
import { ComposerIntake } from './composerIntake';
import { quickActionPrompt } from '../core/contextPrompt';
import { imageFromDataUrl } from '../core/images';
import type { Conversation, ConversationOptions, ImageAttachment, SelectionContext } from '../core/model';
import { patchOptions, type Draft } from '../core/webviewViews';
import { pickImageFor } from '../imagePicker';
import { applyTrims } from '../mentions/core/contextBudget';
import { parseMentionKey } from '../mentions/core/mentionTarget';
import { ChatPageViews } from './chatPageViews';
import type { ChatServices } from './chatServices';
import { webviewToHostSchema, type HostToWebview, type OptionsPatch, type WebviewToHost } from './protocol';

/** How long the page waits for its first snapshot before it shows without it. */
const SNAPSHOT_WAIT_MS = 300;

/**
 * One chat page (the side-bar view or an editor panel) on the host side: it shows one conversation of the controller,
 * answers `ready` with a snapshot, forwards the stream of the conversation shown, tells the page once when a reply
 * ends, and turns the page's intents (one switch over the protocol) into actions: turns, the draft beside the prompt
 * box (mentions, dropped files, images) and its context-window meter, the history's actions, code blocks, commands.
 */
export class ChatSession extends WebviewHost<WebviewToHost, HostToWebview> {
  private activeId: string | undefined;
  private readonly composer: ComposerIntake;
  /** The focus was asked for (Ask About Selection) before the page could take it: it goes there once it says ready. */
  private focusWhenReady = false;
  private lastTitle: string | undefined;
  private readonly titleChanged = this._register(new Emitter<string>());
  /** The title of the conversation shown changed (panels show it in their tab). */
  readonly onDidChangeTitle = this.titleChanged.event;
  private readonly views: ChatPageViews;
  /** An update of the conversation shown, held back while its turn may be ending (see `onStoreChange`). */
  private readonly heldUpdate = this._register(new MutableDisposable());
  private heldList = false;

  constructor(
    webview: vscode.Webview,
    private readonly services: ChatServices,
    initialConversationId?: string,
  ) {
    super(
      webview,
      { name: 'chat webview', extensionUri: services.extensionUri, log: services.log, schema: webviewToHostSchema },
      {
        title: t('Promptreel Chat'),
        script: 'chat.js',
        laterScript: 'chat-highlight.js',
        showsWithFirstMessage: true,
        style: 'chat.css',
        allow: { fonts: true },
        body: `<main id="app" aria-busy="true"><p class="loading">${escapeHtml(t('Loading the chat…'))}</p></main>`,
      },
    );
    this.views = new ChatPageViews(services);
    this.composer = new ComposerIntake({
      services,
      isReady: () => this.ready,
      post: (message) => void this.post(message),
      activeConversation: () => this.activeConversation(),
      capabilities: (conversation) => this.views.capabilities(conversation),
      focused: () => (this.focusWhenReady = false),
    });
    const { controller, models, connection, settings } = services;
    if (initialConversationId && controller.store.get(initialConversationId)) this.activeId = initialConversationId;

    this._register(controller.store.onDidChange((change) => this.onStoreChange(change.conversationId, change.listChanged)));
    // The stream of the conversation shown: text, tool calls, the waits after HTTP 429; its end is `onReplyEnd`.
    this._register(
      controller.onDidStream((delta) => {
        if (delta.conversationId === this.activeId) void this.post({ type: 'delta', ...delta });
      }),
    );
    this._register(
      controller.onDidChangeToolCalls((update) => {
        if (update.conversationId === this.activeId) void this.post({ type: 'toolCalls', ...update });
      }),
    );
    this._register(
      controller.onDidChangeRateLimit((update) => {
        if (update.conversationId === this.activeId) void this.post({ type: 'rateLimit', ...update });
      }),
    );
    this._register(controller.onDidFinish((finished) => this.onReplyEnd(finished)));
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
    void this.showWithSnapshot();
  }

  /**
   * Shows the page with the snapshot in it: its first screen needs no round trip (it still says `ready`, answered).
   * A snapshot that takes long (the key's store waiting for the system keyring) is not waited for: the page shows
   * "Loading the chat…" and gets it as the answer to `ready`.
   */
  private async showWithSnapshot(): Promise<void> {
    const files = this.pageFiles();
    let snapshot: HostToWebview | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), SNAPSHOT_WAIT_MS)));
      snapshot = await Promise.race([this.views.snapshot(() => this.activeConversation(), this.composer), late]);
    } catch (error) {
      this.services.log.warn(`The chat page shows without its first snapshot, which it asks for: ${describeError(error)}`);
    } finally {
      clearTimeout(timer);
    }
    // Its script and stylesheets written in too: the first screen waits for no request to the webview's loader.
    const inline = await files;
    if (!this.isDisposed) this.showPage(snapshot, inline);
  }

  /** The conversation this page shows (one is created when there is none). */
  get conversationId(): string {
    return this.activeConversation().id;
  }

  /** What waits next to the prompt box (the selection, mentions, images) until the next message is sent. */
  get composerDraft(): Readonly<Draft> {
    return this.composer.draft.current;
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
    void this.post({ type: 'focusComposer' });
    return this.activeId;
  }

  /** Puts a selection next to the prompt box ("Ask About Selection"); the user then types or picks a quick action. */
  setContext(context: SelectionContext, { focus = true }: { focus?: boolean } = {}): void {
    this.composer.draft.setContext(context);
    this.focusWhenReady = focus;
    this.composer.changed(focus);
  }

  addImage(image: ImageAttachment): void {
    this.composer.add(image);
  }

  protected async onReady(message: Extract<WebviewToHost, { type: 'ready' }>, first: boolean): Promise<void> {
    const { controller, models } = this.services;
    // The page's saved conversation counts when this host starts (a window reload); after that the page reloads only
    // because it was hidden, and the host knows better (it may have shown another conversation meanwhile).
    if (first && message.conversationId && controller.store.get(message.conversationId)) this.activeId = message.conversationId;
    models.ensureLoaded();
    await this.postSnapshot();
    if (this.focusWhenReady) this.composer.changed(true);
  }

  /**
   * An explainer film of the selection the panel holds, through Generate Explainer Film from Selection (the video
   * feature's command) with that code and what was typed as the film's focus.
   */
  private async makeFilm(typed: string): Promise<unknown> {
    const context = this.composer.draft.context;
    if (!context) return vscode.commands.executeCommand(CommandIds.video.generateExplainerFilm);
    const { code, languageId, relativePath, startLine, endLine } = context;
    return vscode.commands.executeCommand(CommandIds.video.generateExplainerFilm, {
      code,
      languageId,
      fileName: relativePath,
      startLine,
      endLine,
      ...(typed.trim() ? { request: typed.trim() } : {}),
    });
  }

  protected async onMessage(message: Exclude<WebviewToHost, { type: 'ready' }>): Promise<unknown> {
    const { controller, conversations, codeBlocks, models } = this.services;
    switch (message.type) {
      case 'send':
        return this.sendTurn(message.conversationId, message.text);
      case 'quickAction': {
        const prompt = quickActionPrompt(message.action, this.composer.draft.context);
        return this.sendTurn(message.conversationId, message.text.trim() ? `${prompt}\n\n${message.text.trim()}` : prompt, message.text);
      }
      case 'makeFilm':
        return this.makeFilm(message.text);
      case 'stop':
        return controller.stop(message.conversationId);
      case 'retryNow':
        return controller.retryNow(message.conversationId);
      case 'toolApproval':
        return controller.decideTool(message.conversationId, message.callId, message.decision);
      case 'regenerate':
      case 'retry':
        void controller.regenerate(message.conversationId);
        return;
      case 'editMessage':
        void controller.editAndResend(message.conversationId, message.messageId, message.text);
        return;
      case 'newConversation':
        return this.newConversation();
      case 'selectConversation':
        return this.showConversation(message.conversationId);
      case 'setOptions':
        return this.applyOptions(message.conversationId, message.options);
      case 'renameConversation':
        return conversations.rename(message.conversationId);
      case 'deleteConversation':
        return conversations.delete(message.conversationId);
      case 'deleteConversations':
        return conversations.deleteMany(message.conversationIds);
      case 'pinConversation':
        return controller.store.setPinned(message.conversationId, message.pinned);
      case 'exportConversation':
        return conversations.export(message.conversationId, message.format);
      case 'importConversation':
        return conversations.importFromFile((conversationId) => void this.post({ type: 'openConversation', conversationId }));
      case 'searchConversations':
        return this.post({ type: 'searchResults', requestId: message.requestId, results: controller.store.search(message.query) });
      case 'mentionQuery':
        return this.composer.suggestMentions(message.requestId, message.query);
      case 'addMention': {
        const target = parseMentionKey(message.key);
        if (!target) return this.services.log.warn('Dropped a mention the host did not offer.');
        return this.composer.addMention(() => this.services.mentions.resolve(target));
      }
      case 'removeMention':
        this.composer.draft.removeMention(message.id);
        return this.composer.changed();
      case 'openMention':
        return this.composer.openMention(message.id, message.conversationId, message.messageId);
      case 'dropUris':
        return this.composer.drop(message.uris);
      case 'addImageData':
        return this.composer.addImageIfSeen(() => imageFromDataUrl(message.name, message.mimeType, message.dataUrl));
      case 'attachImage': {
        const image = await pickImageFor(this.views.capabilities(this.activeConversation()));
        if (image) this.addImage(image);
        return;
      }
      case 'removeImage':
        this.composer.draft.removeImage(message.index);
        return this.composer.changed();
      case 'clearContext':
        this.composer.draft.clearContext();
        return this.composer.changed();
      case 'refreshModels':
        return models.refresh();
      case 'loadModels':
        return models.ensureLoaded();
      case 'codeAction':
        if (message.action === 'copy') return codeBlocks.copy(message.code);
        if (message.action === 'insert') return codeBlocks.insertAtCursor(message.code);
        if (message.action === 'replace') return codeBlocks.replaceSelection(message.code);
        return codeBlocks.newFile(message.code, message.language);
      case 'runCommand': {
        const command = recoveryCommand(message.command);
        if (command) await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
        return;
      }
    }
  }

  protected override failed(message: WebviewToHost, error: unknown): void {
    super.failed(message, error);
    showMessage('error', t('Promptreel chat: {0}', describeError(error)), [{ title: t('Show Logs'), command: CommandIds.showLogs }]);
  }

  // Turns.

  /** `typed`: what the composer held (given back when the user decides not to send after all). */
  private async sendTurn(conversationId: string, text: string, typed = text): Promise<void> {
    const { controller, connection } = this.services;
    if (!controller.store.get(conversationId) || controller.isBusy(conversationId)) return;
    const trimmed = text.trim();
    if (!trimmed && this.composer.draft.isEmpty) return;
    if (!(await confirmCharge(connection.keyHealth.state, connection.clock.now(), t('This message')))) {
      void this.post({ type: 'draft', draft: { ...this.composer.draft.view(), text: typed }, focus: true });
      return;
    }
    const mentions = applyTrims(this.composer.draft.mentions, this.composer.budget(controller.store.get(conversationId)!));
    const { context, images } = this.composer.draft.take();
    this.composer.changed();
    this.activeId = conversationId;
    void controller.send(conversationId, { text: trimmed, ...(context ? { context } : {}), ...(images.length ? { images } : {}), mentions });
  }

  private applyOptions(conversationId: string, patch: OptionsPatch): void {
    const conversation = this.services.controller.store.get(conversationId);
    if (!conversation) return;
    conversation.options = patchOptions(conversation.options, patch);
    this.services.controller.store.changed(conversationId, { persist: 'now' });
  }

  // What the page is told of the conversations.

  /**
   * A conversation changed in the store. While the page follows a turn of the chat it shows (it was told the chat is
   * answering, and knows each of its messages), the change is held back until the events being handled now are over
   * (`setImmediate`): the end of a reply changes the store twice just before the controller says the turn ended, and
   * then its `done`/`error` carries it all (the page learns the end once); when the turn goes on instead (tool calls
   * run), one update says what changed.
   */
  private onStoreChange(conversationId: string | undefined, listChanged: boolean): void {
    const store = this.services.controller.store;
    if (this.activeId && !store.get(this.activeId)) {
      // The conversation shown was deleted: show the newest one left, or a new one.
      this.activeId = store.mostRecent()?.id;
      void this.postSnapshot();
      return;
    }
    const shown = conversationId !== undefined && conversationId === this.activeId ? store.get(conversationId) : undefined;
    if (shown && this.views.followsTurn(shown)) return this.holdUpdate(listChanged);
    if (listChanged) this.postConversations();
    if (shown) this.postConversation();
  }

  private holdUpdate(listChanged: boolean): void {
    this.heldList ||= listChanged;
    if (this.heldUpdate.value) return;
    const handle = setImmediate(() => {
      this.heldUpdate.clear();
      if (this.heldList) this.postConversations();
      this.heldList = false;
      this.postConversation();
    });
    this.heldUpdate.value = toDisposable(() => clearImmediate(handle));
  }

  private dropHeldUpdate(): void {
    this.heldUpdate.clear();
    this.heldList = false;
  }

  /** A turn ended in the conversation shown: the page is told once, with the chat as the turn left it. */
  private onReplyEnd({ conversationId, requestId, message }: ReplyFinished): void {
    const conversation = this.services.controller.store.get(conversationId);
    if (conversationId !== this.activeId || !conversation || !this.ready) return;
    this.dropHeldUpdate();
    const end = {
      requestId,
      messageId: message.id,
      conversation: this.views.conversation(conversation),
      capabilities: this.views.capabilities(conversation),
      conversations: this.views.summaries(),
      budget: this.composer.budget(conversation),
    };
    this.views.listTold(end.conversations);
    void this.post(message.status === 'done' ? { type: 'done', ...end } : { type: 'error', ...end });
    this.updateTitle(conversation.title);
  }

  private async postSnapshot(): Promise<void> {
    const conversation = this.activeConversation();
    this.updateTitle(conversation.title);
    if (!this.ready) return;
    const snapshot = await this.views.snapshot(() => this.activeConversation(), this.composer);
    this.dropHeldUpdate();
    this.views.listTold(snapshot.snapshot.conversations);
    void this.post(snapshot);
    const waiting = this.services.controller.rateLimitOf(conversation.id);
    if (waiting) void this.post({ type: 'rateLimit', ...waiting });
  }

  private postConversation(): void {
    if (!this.ready) return;
    const conversation = this.activeConversation();
    void this.post({ type: 'conversation', conversation: this.views.conversation(conversation), capabilities: this.views.capabilities(conversation) });
    this.composer.postBudget();
    this.updateTitle(conversation.title);
  }

  /** The list of chats, when it changed since the page was told it. */
  private postConversations(): void {
    if (!this.ready) return;
    const conversations = this.views.changedList();
    if (conversations) void this.post({ type: 'conversations', conversations });
  }

  private postModels(): void {
    if (!this.ready) return;
    void this.post({
      type: 'models',
      models: this.services.models.view,
      capabilities: this.views.capabilities(this.activeConversation()),
      defaults: { ...this.services.controller.defaults() },
    });
    this.composer.postBudget();
  }

  private async postSetup(): Promise<void> {
    const setup = await this.views.setup();
    void this.post({ type: 'setup', ...(setup ? { setup } : {}) });
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

  private updateTitle(title: string): void {
    if (title === this.lastTitle) return;
    this.lastTitle = title;
    this.titleChanged.fire(title);
  }

  // The draft beside the prompt box, and the context-window meter that follows it.
}
