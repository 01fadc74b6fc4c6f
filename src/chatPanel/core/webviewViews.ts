import type { ResolvedCapabilities } from '../../chatRequest/capabilities';
import { usageTotals } from './conversation';
import { conversationCost, formatCost } from './replyCost';
import type { AssistantMessage, Conversation, ConversationOptions, Cost, ImageAttachment, Mention, SelectionContext, UsageTotals } from './model';
import type {
  AssistantMessageView,
  CapabilitiesView,
  ConversationView,
  CostView,
  DraftView,
  MentionView,
  OptionsPatch,
  TokenUsageView,
} from '../webview/protocol';

/** What waits next to the prompt box until the next turn is sent: the selection asked about, images attached. */
export interface Draft {
  context?: SelectionContext;
  images: ImageAttachment[];
  mentions: Mention[];
  notice?: string;
}

/**
 * A conversation as the page sees it: images are named, never sent back to the page; token counts come with their
 * figures in `locale` (VS Code's language, as the page's `<html lang>`).
 */
export function conversationView(conversation: Conversation, busy: boolean, locale: string): ConversationView {
  return {
    id: conversation.id,
    title: conversation.title,
    options: conversation.options,
    messages: conversation.messages.map((message) =>
      message.role === 'user'
        ? {
            ...message,
            images: (message.images ?? []).map(({ name, mimeType, size }) => ({ name, mimeType, size })),
            mentions: (message.mentions ?? []).map(mentionView),
          }
        : assistantView(message, locale),
    ),
    usage: tokenUsageView(usageTotals(conversation), locale),
    ...chatCostField(conversation),
    busy,
  };
}

/** What the model can do, as the page's controls need it (declared in `promptreel.models.capabilities`). */
export function capabilitiesView(model: string, capabilities: ResolvedCapabilities, toolNames: readonly string[]): CapabilitiesView {
  return {
    model,
    vision: capabilities.vision,
    // The page's Tools switch is for the tools this chat offers: only to a model known to take them.
    tools: capabilities.tools && capabilities.toolsKnown,
    jsonMode: capabilities.jsonMode,
    developerRole: capabilities.developerRole,
    sampling: capabilities.sampling,
    ...(capabilities.outputLimit ? { maxOutputTokens: capabilities.outputLimit } : {}),
    toolCount: toolNames.length,
    toolNames: [...toolNames],
  };
}

export function draftView(draft: Draft): DraftView {
  return {
    ...(draft.context ? { context: draft.context } : {}),
    images: draft.images.map(({ name, mimeType, size }) => ({ name, mimeType, size })),
    mentions: draft.mentions.map(mentionView),
    ...(draft.notice ? { notice: draft.notice } : {}),
  };
}

/** A mention without its text (the page shows what it is and its size; the host holds the text and the model's heading). */
export function mentionView(mention: Mention): MentionView {
  const { content: _content, heading: _heading, ...view } = mention;
  return view;
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

/** A reply as the page sees it: its cost and token counts come with their words (the page formats no figures). */
export function assistantView(message: AssistantMessage, locale: string): AssistantMessageView {
  const { cost, usage, ...rest } = message;
  return { ...rest, ...(usage ? { usage: tokenUsageView(usage, locale) } : {}), ...(cost ? { cost: costView(cost) } : {}) };
}

function tokenUsageView(usage: UsageTotals, locale: string): TokenUsageView {
  const format = countFormat(locale);
  return {
    ...usage,
    figures: { prompt: format.format(usage.promptTokens), completion: format.format(usage.completionTokens), total: format.format(usage.totalTokens) },
  };
}

const countFormats = new Map<string, Intl.NumberFormat>();

/** One formatter per language: making one costs a hundred times more than using it. */
function countFormat(locale: string): Intl.NumberFormat {
  let format = countFormats.get(locale);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale);
    } catch {
      format = new Intl.NumberFormat('en-US');
    }
    countFormats.set(locale, format);
  }
  return format;
}

/** `{ cost }` when the chat has a known cost, else nothing (optional fields are left out, not undefined). */
export function chatCostField(conversation: Conversation): { cost?: CostView } {
  const cost = conversationCost(conversation);
  return cost ? { cost: costView(cost) } : {};
}

function costView(cost: Cost): CostView {
  return { ...cost, text: formatCost(cost) };
}
