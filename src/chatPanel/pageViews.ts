import type { ChatServices } from './chatServices';
import type { Conversation } from './core/model';
import type { CapabilitiesView, ConversationSummaryView, ConversationView, DefaultsView } from './core/protocol';
import { capabilitiesView, conversationView } from './core/webviewViews';

// What every chat page is told about the shared state, built from the services.

export function pageConversation({ controller }: ChatServices, conversation: Conversation): ConversationView {
  return conversationView(conversation, controller.isBusy(conversation.id));
}

export function pageCapabilities({ controller }: ChatServices, conversation: Conversation): CapabilitiesView {
  return capabilitiesView(
    controller.modelOf(conversation),
    controller.capabilitiesOf(conversation),
    controller.toolsFor(conversation, { evenIfOff: true }).map((tool) => tool.name),
  );
}

export function pageDefaults({ controller }: ChatServices): DefaultsView {
  return { ...controller.defaults() };
}

export function pageSummaries({ controller }: ChatServices): ConversationSummaryView[] {
  return controller.store.list().map((summary) => ({ ...summary, busy: controller.isBusy(summary.id) }));
}
