import { RECOVERY_ACTIONS, type RecoveryAction } from '../../connection/core/recoveryActions';
import * as z from 'zod/mini';
import { REASONING_EFFORTS } from '../../api/chat/reasoningEffort';

// The conversation data the host owns and persists. Plain data with zod schemas, because it enters from
// workspaceState (written by an older version, or edited by hand) and must be checked like any other input.
// No `vscode` and no API-client imports here: the webview bundle type-checks against these types too.

export const diagnosticSeveritySchema = z.enum(['error', 'warning', 'info', 'hint']);

export const contextDiagnosticSchema = z.object({
  severity: diagnosticSeveritySchema,
  message: z.string(),
  /** 1-based line. */
  line: z.int().check(z.gte(1)),
  source: z.optional(z.string()),
  code: z.optional(z.string()),
});

/** The code a user asked about: where it comes from and the problems VS Code reports in it. */
export const selectionContextSchema = z.object({
  fileName: z.string(),
  relativePath: z.string(),
  languageId: z.string(),
  /** 1-based, inclusive. */
  startLine: z.int().check(z.gte(1)),
  endLine: z.int().check(z.gte(1)),
  code: z.string(),
  diagnostics: z.array(contextDiagnosticSchema),
});

export const imageAttachmentSchema = z.object({
  name: z.string(),
  mimeType: z.string().check(z.regex(/^image\//)),
  /** Bytes of the file (before base64). */
  size: z.int().check(z.gte(0)),
  dataUrl: z.string().check(z.startsWith('data:image/')),
});

/** Per-conversation request options; an absent value falls back to the `promptreel.chat.*` settings. */
export const conversationOptionsSchema = z.object({
  model: z.optional(z.string()),
  systemPrompt: z.optional(z.string()),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  topP: z.optional(z.number().check(z.gte(0), z.lte(1))),
  frequencyPenalty: z.optional(z.number().check(z.gte(-2), z.lte(2))),
  presencePenalty: z.optional(z.number().check(z.gte(-2), z.lte(2))),
  maxTokens: z.optional(z.int().check(z.gte(1))),
  jsonMode: z.optional(z.boolean()),
  /** This chat's reasoning switches, over the model's settings. */
  reasoningEffort: z.optional(z.enum(REASONING_EFFORTS)),
  thinking: z.optional(z.boolean()),
  /** False: this chat offers the model no tools (absent: offered when the model takes tools). */
  tools: z.optional(z.boolean()),
});

export const usageSchema = z.object({
  promptTokens: z.number().check(z.gte(0)),
  completionTokens: z.number().check(z.gte(0)),
  totalTokens: z.number().check(z.gte(0)),
  /** Prompt tokens the service served from its cache (billed at its cache ratio). */
  cachedTokens: z.optional(z.number().check(z.gte(0))),
});

/** What a reply cost, fixed when it ended: prices change, an old chat keeps what it cost. */
export const costSchema = z.object({
  usd: z.number().check(z.gte(0)),
  /** From estimated token counts: the service reported no usage. */
  estimated: z.boolean(),
  /** What the service's log of the key says it really cost, and why it differs from `usd` when that can be told. */
  charged: z.optional(z.object({ usd: z.number().check(z.gte(0)), reason: z.optional(z.string()) })),
});

/** Where a tool call stands: asked for approval, running, answered, refused by the user, failed, or ended by Stop. */
export const toolCallStateSchema = z.enum(['pending', 'running', 'done', 'denied', 'failed', 'stopped']);

export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
  /** Absent in chats saved before tools were run (they were shown, not run). */
  state: z.optional(toolCallStateSchema),
  /** What went back to the model (the tool's output, or why there is none). */
  result: z.optional(z.string()),
  /** Reads only: may be allowed for the whole chat. */
  readOnly: z.optional(z.boolean()),
  /** Promptreel's own workspace tool, or one VS Code lists (an extension's, an MCP server's). */
  source: z.optional(z.enum(['promptreel', 'vscode'])),
});

/** The shared recovery actions; `selectModel` is what chats saved before version 0.3 say for `selectChatModel`. */
export const chatErrorActionSchema = z.pipe(
  z.enum([...RECOVERY_ACTIONS, 'selectModel']),
  z.transform((action): RecoveryAction => (action === 'selectModel' ? 'selectChatModel' : action)),
);

export const chatErrorInfoSchema = z.object({
  message: z.string(),
  actions: z.array(chatErrorActionSchema),
  /** The request parameter the service (or the local check) refused. */
  param: z.optional(z.string()),
  status: z.optional(z.int()),
  code: z.optional(z.string()),
});

/** What a mention brings into a message (`@file`, `#problems`, …). */
export const mentionKindSchema = z.enum([
  'file',
  'folder',
  'currentFile',
  'openEditor',
  'problems',
  'terminalSelection',
  'terminalOutput',
  'gitChanges',
  'symbol',
]);

/** A mention as sent: its text is read when the chip is added, so what the chip shows is what goes. */
export const mentionSchema = z.object({
  id: z.string(),
  kind: mentionKindSchema,
  /** `src/app.ts:10-40`, `Problems (workspace)`, `Git: staged changes`. */
  label: z.string(),
  /** `2.1 KB`, `3 errors`. */
  detail: z.optional(z.string()),
  /** What the model reads before the text, in English, when the label and detail are in the user's language. */
  heading: z.optional(z.string()),
  /** What a click on the chip opens. */
  uri: z.optional(z.string()),
  /** 1-based, inclusive. */
  startLine: z.optional(z.int().check(z.gte(1))),
  endLine: z.optional(z.int().check(z.gte(1))),
  content: z.string(),
  tokens: z.int().check(z.gte(0)),
  /** Cut to fit the model's context window: the tokens it had before. */
  trimmedFrom: z.optional(z.int().check(z.gte(0))),
});

export const userMessageSchema = z.object({
  id: z.string(),
  role: z.literal('user'),
  text: z.string(),
  createdAt: z.number(),
  context: z.optional(selectionContextSchema),
  images: z.optional(z.array(imageAttachmentSchema)),
  mentions: z.optional(z.array(mentionSchema)),
});

/** `streaming` while the reply arrives; `stopped` by the user; `cut-off` when the stream broke; `error` when it failed. */
export const assistantStatusSchema = z.enum(['streaming', 'done', 'stopped', 'cut-off', 'error']);

export const assistantMessageSchema = z.object({
  id: z.string(),
  role: z.literal('assistant'),
  model: z.string(),
  text: z.string(),
  reasoning: z.string(),
  toolCalls: z.array(toolCallSchema),
  status: assistantStatusSchema,
  createdAt: z.number(),
  finishReason: z.optional(z.string()),
  usage: z.optional(usageSchema),
  cost: z.optional(costSchema),
  /** The id the gateway gave the request (its log entry carries it too). */
  gatewayRequestId: z.optional(z.string()),
  /** When the reply ended (its charge is found in the service's log by it). */
  endedAt: z.optional(z.number()),
  error: z.optional(chatErrorInfoSchema),
  /** What the request changed because the model cannot take it (a lowered max_tokens, an image left out), in the user's words. */
  notes: z.optional(z.array(z.string())),
});

export const conversationMessageSchema = z.discriminatedUnion('role', [userMessageSchema, assistantMessageSchema]);

export const conversationSchema = z.object({
  id: z.string().check(z.minLength(1)),
  title: z.string(),
  /** True once the user renamed it: the first message no longer names it. */
  titleEdited: z.optional(z.boolean()),
  createdAt: z.number(),
  updatedAt: z.number(),
  options: conversationOptionsSchema,
  messages: z.array(conversationMessageSchema),
  /** Pinned chats stay at the top of the history. */
  pinned: z.optional(z.boolean()),
  /** Read-only tools the user allowed for this whole chat. */
  allowedTools: z.optional(z.array(z.string())),
});

export type DiagnosticSeverity = z.infer<typeof diagnosticSeveritySchema>;
export type ContextDiagnostic = z.infer<typeof contextDiagnosticSchema>;
export type SelectionContext = z.infer<typeof selectionContextSchema>;
export type ImageAttachment = z.infer<typeof imageAttachmentSchema>;
export type ConversationOptions = z.infer<typeof conversationOptionsSchema>;
export type UsageTotals = z.infer<typeof usageSchema>;
export type Cost = z.infer<typeof costSchema>;
export type ToolCallRecord = z.infer<typeof toolCallSchema>;
export type ToolCallState = z.infer<typeof toolCallStateSchema>;
export type MentionKind = z.infer<typeof mentionKindSchema>;
export type Mention = z.infer<typeof mentionSchema>;
export type ChatErrorAction = RecoveryAction;
export type ChatErrorInfo = z.infer<typeof chatErrorInfoSchema>;
export type UserMessage = z.infer<typeof userMessageSchema>;
export type AssistantStatus = z.infer<typeof assistantStatusSchema>;
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;
export type Conversation = z.infer<typeof conversationSchema>;

/** The quick actions offered with a selection. */
export const quickActionSchema = z.enum(['explain', 'findBugs', 'writeTests', 'document']);
export type QuickAction = z.infer<typeof quickActionSchema>;
