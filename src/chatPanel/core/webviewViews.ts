import type { ModelCapabilities } from '../../config/schema';
import { usageTotals } from './conversation';
import type { Conversation, ConversationOptions, ImageAttachment, SelectionContext } from './model';
import type { CapabilitiesView, ConversationView, DraftView, OptionsPatch } from './protocol';

/** What waits next to the prompt box until the next turn is sent: the selection asked about, images attached. */
export interface Draft {
  context?: SelectionContext;
  images: ImageAttachment[];
}

/** A conversation as the page sees it: images are named, never sent back to the page. */
export function conversationView(conversation: Conversation, busy: boolean): ConversationView {
  return {
    id: conversation.id,
    title: conversation.title,
    options: conversation.options,
    messages: conversation.messages.map((message) =>
      message.role === 'user' ? { ...message, images: (message.images ?? []).map(({ name, mimeType, size }) => ({ name, mimeType, size })) } : message,
    ),
    usage: usageTotals(conversation),
    busy,
  };
}

/** What the model can do, as the page's controls need it (declared in `promptreel.models.capabilities`). */
export function capabilitiesView(model: string, declared: ModelCapabilities, toolCount: number): CapabilitiesView {
  return {
    model,
    vision: declared.vision === true,
    tools: declared.tools === true,
    jsonMode: declared.jsonMode !== false,
    developerRole: declared.developerRole === true,
    sampling: declared.sampling !== false,
    ...(declared.maxOutputTokens ? { maxOutputTokens: declared.maxOutputTokens } : {}),
    toolCount,
  };
}

export function draftView(draft: Draft): DraftView {
  return {
    ...(draft.context ? { context: draft.context } : {}),
    images: draft.images.map(({ name, mimeType, size }) => ({ name, mimeType, size })),
  };
}

/** The options after the page's change: an empty value (null, '') goes back to the setting's default. */
export function patchOptions(options: ConversationOptions, patch: OptionsPatch): ConversationOptions {
  const patched: Record<string, unknown> = { ...options };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === '' || value === undefined) delete patched[key];
    else patched[key] = value;
  }
  return patched as ConversationOptions;
}
