import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { describeError } from '../../common/logger';
import { ComposerDraft } from '../core/composerDraft';
import { type imageFromDataUrl, imageMimeType } from '../core/images';
import type { Conversation, ImageAttachment, Mention } from '../core/model';
import { readImage } from '../imagePicker';
import { contextBudget, type BudgetLimits } from '../mentions/core/contextBudget';
import { MentionError } from '../mentions/mentionError';
import { SYMBOL_PAUSE_MS } from '../mentions/mentionSuggestions';
import type { ChatServices } from './chatServices';
import type { CapabilitiesView, ContextBudgetView, HostToWebview } from './protocol';

/** What the composer needs of the chat page it belongs to. */
export interface ComposerHost {
  readonly services: ChatServices;
  isReady(): boolean;
  post(message: HostToWebview): void;
  activeConversation(): Conversation;
  capabilities(conversation: Conversation): CapabilitiesView;
  /** The page took the focus it was asked for. */
  focused(): void;
}

/**
 * What waits beside one chat page's prompt box until the next message: the draft (the selection, mentions, images)
 * and how things enter it (the @ popup, dropped files, pasted images), with the context-window meter that follows it.
 */
export class ComposerIntake {
  readonly draft = new ComposerDraft();
  private latestMentionQuery = -1;

  constructor(private readonly host: ComposerHost) {}

  add(image: ImageAttachment): void {
    this.draft.addImage(image);
    this.changed();
  }

  /** The draft changed: the meter follows it, and the page shows it (taking the focus when asked). */
  changed(focus = false): void {
    this.postBudget();
    if (!this.host.isReady()) return;
    this.host.post({ type: 'draft', draft: this.draft.view(), focus });
    if (focus) this.host.focused();
  }

  /** The meter's figures for a conversation and the draft. */
  budget(conversation: Conversation): ContextBudgetView {
    return contextBudget(this.budgetLimits(conversation), conversation, this.draft.current);
  }

  postBudget(): void {
    if (this.host.isReady()) this.host.post({ type: 'budget', budget: this.budget(this.host.activeConversation()) });
  }

  private budgetLimits(conversation: Conversation): BudgetLimits {
    const { controller, settings } = this.host.services;
    const model = controller.modelOf(conversation);
    const resolved = controller.capabilitiesOf(conversation);
    const maxOutput = conversation.options.maxTokens ?? settings.chat.maxTokens ?? resolved.maxOutputTokens;
    // As VS Code is told (modelInformation): the reply's share never takes more than three quarters of the window.
    const reservedForReply = Math.min(maxOutput, Math.floor((resolved.contextWindow * 3) / 4));
    return { model, contextWindow: resolved.contextWindow, reservedForReply };
  }

  async suggestMentions(requestId: number, query: string): Promise<void> {
    this.latestMentionQuery = requestId;
    const { now, later } = await this.host.services.mentions.suggest(query);
    if (requestId !== this.latestMentionQuery) return;
    this.host.post({ type: 'mentionResults', requestId, items: now });
    if (!later) return;
    await new Promise((resolve) => setTimeout(resolve, SYMBOL_PAUSE_MS));
    if (requestId !== this.latestMentionQuery) return;
    const symbols = await later();
    if (symbols.length && requestId === this.latestMentionQuery) this.host.post({ type: 'mentionResults', requestId, items: [...now, ...symbols] });
  }

  async addMention(resolve: () => Promise<Mention>): Promise<void> {
    try {
      this.draft.addMention(await resolve());
    } catch (error) {
      if (!(error instanceof MentionError)) this.host.services.log.warn(`Could not add a mention: ${describeError(error)}`);
      this.draft.setNotice(error instanceof MentionError ? error.message : t('Could not add it: {0}', describeError(error)));
    }
    this.changed();
  }

  /** Adds an image when the chat's model is declared to see images; else the draft says why it was not added. */
  async addImageIfSeen(read: () => ReturnType<typeof imageFromDataUrl> | Promise<ReturnType<typeof imageFromDataUrl> | undefined>): Promise<void> {
    const capabilities = this.host.capabilities(this.host.activeConversation());
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
      return this.changed();
    }
    const image = await read();
    if (typeof image === 'string') {
      this.draft.setNotice(image);
      this.changed();
    } else if (image) {
      this.add(image);
    }
  }

  async drop(uris: readonly string[]): Promise<void> {
    for (const raw of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(raw, true);
      } catch {
        continue;
      }
      if (imageMimeType(uri.path)) await this.addImageIfSeen(() => readImage(uri));
      else await this.addMention(() => this.host.services.mentions.resolveUri(uri));
    }
  }

  async openMention(id: string, conversationId?: string, messageId?: string): Promise<void> {
    const sent =
      conversationId && messageId ? this.host.services.controller.store.get(conversationId)?.messages.find((message) => message.id === messageId) : undefined;
    const mentions = sent?.role === 'user' ? (sent.mentions ?? []) : this.draft.mentions;
    const mention = mentions.find((candidate) => candidate.id === id);
    if (!mention) return;
    try {
      await this.host.services.mentions.open(mention);
    } catch (error) {
      this.draft.setNotice(t('Could not open {0}: {1}', mention.label, describeError(error)));
      this.changed();
    }
  }
}
