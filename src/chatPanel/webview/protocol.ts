import * as z from 'zod/mini';
import type { ChatSampling } from '../../config/chatSampling';
import { REASONING_EFFORTS } from '../../api/chat/reasoningEffort';
import {
  conversationOptionsSchema,
  quickActionSchema,
  type AssistantMessage,
  type ConversationOptions,
  type Cost,
  type Mention,
  type MentionKind,
  type SelectionContext,
  type ToolCallRecord,
  type UsageTotals,
  type UserMessage,
} from '../core/model';

// The messages between the chat page and its host (ChatSession). The page imports only the types (so zod stays out
// of its bundle); the host parses every incoming message with the schemas below.
// The host owns the conversations; the webview renders them and sends intents. It never sees the API key.

/** An image as the webview sees it: its name, never its bytes. */
export interface ImageView {
  name: string;
  mimeType: string;
  size: number;
}

/** A mention as the page sees it: what it is and its size, not its text (a click opens the source). */
export type MentionView = Omit<Mention, 'content' | 'heading'>;

export type UserMessageView = Omit<UserMessage, 'images' | 'mentions'> & { images: ImageView[]; mentions: MentionView[] };

/** A cost with its words (`$0.0044`, `≈ $0.0040 (estimated)`): the page formats no money itself. */
export type CostView = Cost & { text: string };

/**
 * Token counts with their figures written by the host in VS Code's language (`12,345`, `12.345`): the page formats no
 * numbers, as a webview's first Intl formatter stalls it (and the workbench that shares its renderer) for 30–60 ms.
 */
export type TokenUsageView = UsageTotals & { figures: { prompt: string; completion: string; total: string } };

export type AssistantMessageView = Omit<AssistantMessage, 'cost' | 'usage'> & { cost?: CostView; usage?: TokenUsageView };
export type MessageView = UserMessageView | AssistantMessageView;

export interface ConversationView {
  id: string;
  title: string;
  options: ConversationOptions;
  messages: MessageView[];
  usage: TokenUsageView;
  /** What the chat's replies cost so far, those whose model's price was known. */
  cost?: CostView;
  busy: boolean;
}

export interface ConversationSummaryView {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
  busy: boolean;
  pinned: boolean;
}

/** A saved chat that matches a history search, with the words around the first match. */
export interface ConversationSearchResultView {
  id: string;
  title: string;
  updatedAt: number;
  pinned: boolean;
  /** Where the query was found first: the title, or a message (then `snippet` shows it in its surroundings). */
  matchIn: 'title' | 'text';
  snippet?: string;
  /** `[start, end)` offsets of the query's words in `title` and in `snippet` (drawn highlighted). */
  titleMatches: [number, number][];
  snippetMatches: [number, number][];
}

/** One entry of the mention popup. `key` names it for the host (the page never interprets it). */
export interface MentionSuggestionView {
  key: string;
  kind: MentionKind;
  label: string;
  /** The folder of a file, the container of a symbol, a count of problems. */
  description?: string;
  /** Indexes into `label` of the characters the query matched (drawn in bold). */
  matches?: number[];
}

/** How much of the model's context window the chat and the draft would use, and what would be cut to fit. */
export interface ContextBudgetView {
  model: string;
  contextWindow: number;
  /** Kept free for the reply (the max output tokens). */
  reservedForReply: number;
  /** System prompt and the turns before. */
  historyTokens: number;
  /** What is typed, the selection, the mentions and the images. */
  draftTokens: number;
  /** Mentions that would be cut, largest first, with the tokens each keeps. */
  trims: { id: string; label: string; fromTokens: number; toTokens: number }[];
  /** Tokens still over the window after every trim (the history alone is too long). */
  overflowTokens: number;
}

export interface ModelsView {
  ids: string[];
  /** Each model's price in words (`$3.00 in / $12.00 out per 1M tokens`), where known. */
  prices: Record<string, string>;
  loading: boolean;
  /** Out of date (the key or the address changed): the webview asks for it when the user opens the picker. */
  stale: boolean;
  /** Why the list could not be loaded (the setting's model is offered instead). */
  error?: string;
}

/** What the conversation's model is declared to accept (`promptreel.models.capabilities`). */
export interface CapabilitiesView {
  model: string;
  vision: boolean;
  tools: boolean;
  /** False only when declared unsupported. */
  jsonMode: boolean;
  developerRole: boolean;
  sampling: boolean;
  maxOutputTokens?: number;
  /** The tools the chat offers the model when its tools are on (the chat's switch aside). */
  toolCount: number;
  toolNames: string[];
}

/** A wait after HTTP 429: retry `attempt` of `retries` goes in `delayMs` (from when the page was told). */
export interface RateLimitView {
  attempt: number;
  retries: number;
  delayMs: number;
  /** The service said how long (`Retry-After`); else it is Promptreel's back-off. */
  fromService: boolean;
}

/** The `promptreel.chat.*` values an unset option falls back to, as the page reads them. */
export type { ChatSampling };

export interface DraftView {
  context?: SelectionContext;
  images: ImageView[];
  mentions: MentionView[];
  /** Something to tell the user about the draft (an image the model is not declared to read, a file too large). */
  notice?: string;
  /** Text to put back in the composer (a message the user decided not to send). */
  text?: string;
}

/** What is missing before the chat can send (the service's address, its confirmation, the key), and the way out. */
export interface SetupView {
  message: string;
  actions: HostCommand[];
}

export interface Snapshot {
  /** Undefined when the service is ready. */
  setup?: SetupView;
  conversations: ConversationSummaryView[];
  conversation: ConversationView;
  models: ModelsView;
  capabilities: CapabilitiesView;
  defaults: ChatSampling;
  draft: DraftView;
  budget?: ContextBudgetView;
}

/**
 * How a turn left the chat, told once when its reply ends: the page renders it as it renders any update of the chat,
 * and says how the reply ended. The host sends no other update for that change.
 */
export interface ReplyEnd {
  requestId: string;
  /** The reply that ended, one of `conversation.messages`. */
  messageId: string;
  conversation: ConversationView;
  capabilities: CapabilitiesView;
  /** The list of chats, this one no longer answering. */
  conversations: ConversationSummaryView[];
  budget: ContextBudgetView;
}

export type HostToWebview =
  | { type: 'snapshot'; snapshot: Snapshot }
  | { type: 'conversations'; conversations: ConversationSummaryView[] }
  | { type: 'conversation'; conversation: ConversationView; capabilities: CapabilitiesView }
  /** Offsets say where the delta starts in the message, so the webview can skip what a full update already carried. */
  | {
      type: 'delta';
      requestId: string;
      conversationId: string;
      messageId: string;
      text: string;
      textOffset: number;
      reasoning: string;
      reasoningOffset: number;
    }
  | { type: 'toolCalls'; requestId: string; conversationId: string; messageId: string; calls: ToolCallRecord[] }
  /** A 429 is waited out before the request goes again (the page counts down from `delayMs`); no `wait`: it ended. */
  | { type: 'rateLimit'; requestId: string; conversationId: string; messageId: string; wait?: RateLimitView }
  | ({ type: 'done' } & ReplyEnd)
  | ({ type: 'error' } & ReplyEnd)
  | { type: 'setup'; setup?: SetupView }
  | { type: 'models'; models: ModelsView; capabilities: CapabilitiesView; defaults: ChatSampling }
  | { type: 'draft'; draft: DraftView; focus: boolean }
  | { type: 'focusComposer' }
  /** Answers `mentionQuery`; a later answer with the same `requestId` adds entries that took longer (symbols). */
  | { type: 'mentionResults'; requestId: number; items: MentionSuggestionView[] }
  | { type: 'budget'; budget: ContextBudgetView }
  | { type: 'searchResults'; requestId: number; results: ConversationSearchResultView[] }
  /** A chat this page asked for was made (an import): the page shows it (it answers with `selectConversation`). */
  | { type: 'openConversation'; conversationId: string }
  /** Show the History view (Promptreel: Show Chat History). */
  | { type: 'openHistory' };

/** Recovery actions the webview may ask the host to run (buttons of the setup banner and of failed replies); Retry is the page's own. */
export const HOST_COMMANDS = [
  'setApiKey',
  'useThisService',
  'openSettings',
  'selectChatModel',
  'chooseVideoModel',
  'testConnection',
  'showLogs',
  'trackVideoTask',
] as const;

const id = z.string().check(z.minLength(1), z.maxLength(200));
const text = z.string().check(z.maxLength(200_000));
const requestNumber = z.int().check(z.gte(0));

/** Option changes from the options form; `null` clears a value (the setting applies again). Bounds are the documented ones. */
export const optionsPatchSchema = z.strictObject({
  model: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  systemPrompt: z.optional(z.nullable(z.string().check(z.maxLength(50_000)))),
  temperature: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(2)))),
  topP: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(1)))),
  frequencyPenalty: z.optional(z.nullable(z.number().check(z.gte(-2), z.lte(2)))),
  presencePenalty: z.optional(z.nullable(z.number().check(z.gte(-2), z.lte(2)))),
  maxTokens: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(10_000_000)))),
  jsonMode: z.optional(z.nullable(z.boolean())),
  reasoningEffort: z.optional(z.nullable(z.enum(REASONING_EFFORTS))),
  thinking: z.optional(z.nullable(z.boolean())),
  tools: z.optional(z.nullable(z.boolean())),
});
export type OptionsPatch = z.infer<typeof optionsPatchSchema>;

export const webviewToHostSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready'), conversationId: z.optional(id) }),
  z.strictObject({ type: z.literal('send'), conversationId: id, text }),
  z.strictObject({ type: z.literal('stop'), conversationId: id }),
  z.strictObject({ type: z.literal('retryNow'), conversationId: id }),
  z.strictObject({ type: z.literal('newConversation') }),
  z.strictObject({ type: z.literal('selectConversation'), conversationId: id }),
  z.strictObject({ type: z.literal('renameConversation'), conversationId: id }),
  z.strictObject({ type: z.literal('deleteConversation'), conversationId: id }),
  z.strictObject({ type: z.literal('exportConversation'), conversationId: id, format: z.optional(z.enum(['markdown', 'json'])) }),
  z.strictObject({ type: z.literal('importConversation') }),
  z.strictObject({ type: z.literal('pinConversation'), conversationId: id, pinned: z.boolean() }),
  z.strictObject({ type: z.literal('deleteConversations'), conversationIds: z.array(id).check(z.minLength(1), z.maxLength(1000)) }),
  z.strictObject({ type: z.literal('searchConversations'), requestId: requestNumber, query: z.string().check(z.maxLength(500)) }),
  z.strictObject({ type: z.literal('mentionQuery'), requestId: requestNumber, query: z.string().check(z.maxLength(500)) }),
  z.strictObject({ type: z.literal('addMention'), key: z.string().check(z.minLength(1), z.maxLength(4_000)) }),
  z.strictObject({ type: z.literal('removeMention'), id }),
  /** A chip of the draft, or of a sent message (`messageId`). */
  z.strictObject({ type: z.literal('openMention'), id, conversationId: z.optional(id), messageId: z.optional(id) }),
  /** Files dropped on the composer (from the explorer, or images from the system). */
  z.strictObject({ type: z.literal('dropUris'), uris: z.array(z.string().check(z.maxLength(4_000))).check(z.minLength(1), z.maxLength(100)) }),
  /** An image pasted or dropped from outside VS Code. */
  z.strictObject({
    type: z.literal('addImageData'),
    name: z.string().check(z.maxLength(300)),
    mimeType: z.string().check(z.regex(/^image\/[\w.+-]+$/)),
    dataUrl: z.string().check(z.startsWith('data:image/'), z.maxLength(30_000_000)),
  }),
  z.strictObject({ type: z.literal('toolApproval'), conversationId: id, callId: id, decision: z.enum(['allow', 'allowForChat', 'deny']) }),
  z.strictObject({ type: z.literal('regenerate'), conversationId: id }),
  z.strictObject({ type: z.literal('retry'), conversationId: id }),
  z.strictObject({
    type: z.literal('editMessage'),
    conversationId: id,
    messageId: id,
    text: text.check(z.refine((value) => value.trim().length > 0, 'empty')),
  }),
  z.strictObject({ type: z.literal('setOptions'), conversationId: id, options: optionsPatchSchema }),
  z.strictObject({ type: z.literal('refreshModels') }),
  z.strictObject({ type: z.literal('loadModels') }),
  z.strictObject({ type: z.literal('attachImage') }),
  z.strictObject({ type: z.literal('removeImage'), index: z.int().check(z.gte(0)) }),
  z.strictObject({ type: z.literal('clearContext') }),
  z.strictObject({ type: z.literal('quickAction'), conversationId: id, action: quickActionSchema, text: z.string().check(z.maxLength(50_000)) }),
  /** An explainer film of the selection the composer holds (`text`: what was typed, the film's focus). */
  z.strictObject({ type: z.literal('makeFilm'), text: z.string().check(z.maxLength(50_000)) }),
  z.strictObject({
    type: z.literal('codeAction'),
    action: z.enum(['copy', 'insert', 'replace', 'newFile']),
    code: text,
    language: z.optional(z.string().check(z.maxLength(100))),
  }),
  z.strictObject({ type: z.literal('runCommand'), command: z.enum(HOST_COMMANDS) }),
]);

export type WebviewToHost = z.infer<typeof webviewToHostSchema>;
export type HostCommand = (typeof HOST_COMMANDS)[number];
export type CodeActionKind = Extract<WebviewToHost, { type: 'codeAction' }>['action'];
export type ToolDecision = Extract<WebviewToHost, { type: 'toolApproval' }>['decision'];

/** Where the message list was: the first message in view, and how many pixels of it were above the view. */
export const scrollAnchorSchema = z.object({ messageId: z.string(), offset: z.number() });
export type ScrollAnchor = z.infer<typeof scrollAnchorSchema>;

/**
 * What the webview keeps in `setState` (and what a restored panel hands back): never conversation content. No
 * `scrollAnchor`: the list was at its bottom (a pixel offset would need every message above it rendered to mean anything).
 */
export const webviewStateSchema = z.object({
  conversationId: z.optional(z.string()),
  draft: z.optional(z.string()),
  scrollAnchor: z.optional(scrollAnchorSchema),
});
export type WebviewState = z.infer<typeof webviewStateSchema>;

export { conversationOptionsSchema };
