import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { describeError } from '../common/logger';
import type { ChatServices } from './chatServices';
import type { ComposerDraft } from './core/composerDraft';
import { imageFromDataUrl, imageMimeType } from './core/images';
import type { Conversation, Mention } from './core/model';
import type { CapabilitiesView, ContextBudgetView, HostToWebview, WebviewToHost } from './core/protocol';
import { pickImageFor, readImage } from './imagePicker';
import { applyTrims, contextBudget, type BudgetLimits } from './mentions/core/contextBudget';
import { parseMentionKey } from './mentions/core/mentionTarget';
import { MentionError } from './mentions/mentionError';
import { SYMBOL_PAUSE_MS } from './mentions/mentionSuggestions';

/** The page's intents about the draft it composes: mentions, dropped files, pasted images. */
export type ComposerIntent = Extract<
  WebviewToHost,
  { type: 'mentionQuery' | 'addMention' | 'removeMention' | 'openMention' | 'dropUris' | 'addImageData' | 'attachImage' | 'removeImage' | 'clearContext' }
>;

export interface ComposerPage {
  post(message: HostToWebview): void;
  ready(): boolean;
  conversation(): Conversation;
  capabilities(conversation: Conversation): CapabilitiesView;
}

/**
 * One page's composer on the host side: answers the mention popup, turns picked entries, dropped files and pasted
 * images into the draft, and keeps the page's context-window meter current.
 */
export class ComposerIntents {
  private latestQuery = -1;

  constructor(
    private readonly draft: ComposerDraft,
    private readonly page: ComposerPage,
    private readonly services: ChatServices,
  ) {}

  async handle(message: ComposerIntent): Promise<void> {
    switch (message.type) {
      case 'mentionQuery':
        return this.suggest(message.requestId, message.query);
      case 'addMention': {
        const target = parseMentionKey(message.key);
        if (!target) return this.services.log.warn('Dropped a mention the host did not offer.');
        return this.addMention(() => this.services.mentions.resolve(target));
      }
      case 'removeMention':
        return this.draft.removeMention(message.id);
      case 'openMention':
        return this.openMention(message.id, message.conversationId, message.messageId);
      case 'dropUris':
        return this.drop(message.uris);
      case 'attachImage': {
        const image = await pickImageFor(this.page.capabilities(this.page.conversation()));
        if (image) this.draft.addImage(image);
        return;
      }
      case 'removeImage':
        return this.draft.removeImage(message.index);
      case 'clearContext':
        return this.draft.clearContext();
      case 'addImageData':
        return this.addImage(() => imageFromDataUrl(message.name, message.mimeType, message.dataUrl));
    }
  }

  /** The meter's figures for the conversation shown and the draft. */
  budget(conversation = this.page.conversation()): ContextBudgetView {
    return contextBudget(this.limits(conversation), conversation, this.draft.current);
  }

  postBudget(): void {
    if (this.page.ready()) this.page.post({ type: 'budget', budget: this.budget() });
  }

  /** The draft's mentions as they go with the message: cut to fit the context window as the meter said. */
  mentionsToSend(conversation: Conversation): Mention[] {
    return applyTrims(this.draft.mentions, this.budget(conversation));
  }

  private limits(conversation: Conversation): BudgetLimits {
    const { controller, settings } = this.services;
    const model = controller.modelOf(conversation);
    const resolved = controller.capabilitiesOf(conversation);
    const maxOutput = conversation.options.maxTokens ?? settings.chat.maxTokens ?? resolved.maxOutputTokens;
    // As VS Code is told (modelInformation): the reply's share never takes more than three quarters of the window.
    const reservedForReply = Math.min(maxOutput, Math.floor((resolved.contextWindow * 3) / 4));
    return { model, contextWindow: resolved.contextWindow, reservedForReply };
  }

  private async suggest(requestId: number, query: string): Promise<void> {
    this.latestQuery = requestId;
    const { now, later } = await this.services.mentions.suggest(query);
    if (requestId !== this.latestQuery) return;
    this.page.post({ type: 'mentionResults', requestId, items: now });
    if (!later) return;
    await new Promise((resolve) => setTimeout(resolve, SYMBOL_PAUSE_MS));
    if (requestId !== this.latestQuery) return;
    const symbols = await later();
    if (symbols.length && requestId === this.latestQuery) this.page.post({ type: 'mentionResults', requestId, items: [...now, ...symbols] });
  }

  private async addMention(resolve: () => Promise<Mention>): Promise<void> {
    try {
      this.draft.addMention(await resolve());
    } catch (error) {
      if (!(error instanceof MentionError)) this.services.log.warn(`Could not add a mention: ${describeError(error)}`);
      this.draft.setNotice(error instanceof MentionError ? error.message : t('Could not add it: {0}', describeError(error)));
    }
  }

  private async addImage(read: () => ReturnType<typeof imageFromDataUrl> | Promise<ReturnType<typeof imageFromDataUrl> | undefined>): Promise<void> {
    const capabilities = this.page.capabilities(this.page.conversation());
    if (!capabilities.vision) {
      this.draft.setNotice(
        capabilities.model
          ? t(
              '{0} is not declared to accept images, so the image was not added. Pick a vision model, or set "vision": true for it in promptreel.models.capabilities.',
              capabilities.model,
            )
          : t(
              'This model is not declared to accept images, so the image was not added. Pick a vision model, or set "vision": true for it in promptreel.models.capabilities.',
            ),
      );
      return;
    }
    const image = await read();
    if (typeof image === 'string') this.draft.setNotice(image);
    else if (image) this.draft.addImage(image);
  }

  private async drop(uris: readonly string[]): Promise<void> {
    for (const raw of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(raw, true);
      } catch {
        continue;
      }
      if (imageMimeType(uri.path)) await this.addImage(() => readImage(uri));
      else await this.addMention(() => this.services.mentions.resolveUri(uri));
    }
  }

  private async openMention(id: string, conversationId?: string, messageId?: string): Promise<void> {
    const sent =
      conversationId && messageId ? this.services.controller.store.get(conversationId)?.messages.find((message) => message.id === messageId) : undefined;
    const mentions = sent?.role === 'user' ? (sent.mentions ?? []) : this.draft.mentions;
    const mention = mentions.find((candidate) => candidate.id === id);
    if (!mention) return;
    try {
      await this.services.mentions.open(mention);
    } catch (error) {
      this.draft.setNotice(t('Could not open {0}: {1}', mention.label, describeError(error)));
    }
  }
}
