import { t } from '../../api/l10n';
import { recoveryForMissing } from '../../connection/core/recovery';
import type { Conversation } from '../core/model';
import { capabilitiesView, conversationView } from '../core/webviewViews';
import type { ChatServices } from './chatServices';
import type { ComposerIntake } from './composerIntake';
import type { CapabilitiesView, ConversationSummaryView, ConversationView, HostCommand, HostToWebview, SetupView } from './protocol';

/** What the page was last told of the chat it shows (to know when a change is the end of a turn it follows). */
interface Told {
  conversationId: string;
  busy: boolean;
  messageIds: string;
}

export type SnapshotMessage = Extract<HostToWebview, { type: 'snapshot' }>;

/**
 * What one chat page is told, as views of the controller's state: the snapshot, the conversation shown and what its
 * model can do, the list of chats, the banner of what the chat needs before it can send. It remembers what the page
 * was last told, so that an unchanged list is not sent again and a change of the chat shown can be recognised as the
 * end of a turn the page follows (ChatSession holds such a change back).
 */
export class ChatPageViews {
  private told: Told | undefined;
  /** The list of chats as the page was last told it (JSON). */
  private toldList = '';

  constructor(private readonly services: ChatServices) {}

  /** Everything the page shows; `shown` is asked once the setup is known, as the chat shown may change meanwhile. */
  async snapshot(shown: () => Conversation, composer: Pick<ComposerIntake, 'draft' | 'budget'>): Promise<SnapshotMessage> {
    const setup = await this.setup();
    const conversation = shown();
    return {
      type: 'snapshot',
      snapshot: {
        ...(setup ? { setup } : {}),
        conversations: this.summaries(),
        conversation: this.conversation(conversation),
        models: this.services.models.view,
        capabilities: this.capabilities(conversation),
        defaults: { ...this.services.controller.defaults() },
        draft: composer.draft.view(),
        budget: composer.budget(conversation),
      },
    };
  }

  /** The conversation as the page sees it; that the page was told it is kept (see `followsTurn`). */
  conversation(conversation: Conversation): ConversationView {
    const busy = this.services.controller.isBusy(conversation.id);
    this.told = { conversationId: conversation.id, busy, messageIds: messageIds(conversation) };
    return conversationView(conversation, busy, this.services.locale);
  }

  /** Whether the page follows a turn of this chat: it was told the chat is answering, and knows each of its messages. */
  followsTurn(conversation: Conversation): boolean {
    return this.told?.conversationId === conversation.id && this.told.busy && this.told.messageIds === messageIds(conversation);
  }

  capabilities(conversation: Conversation): CapabilitiesView {
    const { controller } = this.services;
    return capabilitiesView(
      controller.modelOf(conversation),
      controller.capabilitiesOf(conversation),
      controller.toolsFor(conversation, { evenIfOff: true }).map((tool) => tool.name),
    );
  }

  summaries(): ConversationSummaryView[] {
    const { controller } = this.services;
    return controller.store.list().map((summary) => ({ ...summary, busy: controller.isBusy(summary.id) }));
  }

  /** The list of chats when it changed since the page was told it (it is then taken as told); else undefined. */
  changedList(): ConversationSummaryView[] | undefined {
    const conversations = this.summaries();
    const json = JSON.stringify(conversations);
    if (json === this.toldList) return undefined;
    this.toldList = json;
    return conversations;
  }

  /** The page was told this list with something else (a snapshot, the end of a turn). */
  listTold(conversations: ConversationSummaryView[]): void {
    this.toldList = JSON.stringify(conversations);
  }

  /** What the chat needs before it can send, as the page's banner shows it; undefined when the service is ready. */
  async setup(): Promise<SetupView | undefined> {
    const readiness = await this.services.connection.readiness();
    if (readiness.kind === 'ready') return undefined;
    const { message, actions } = recoveryForMissing(readiness, t('The chat'));
    return { message, actions: actions.filter((action): action is HostCommand => action !== 'retry') };
  }
}

function messageIds(conversation: Conversation): string {
  return conversation.messages.map((message) => message.id).join('\n');
}
