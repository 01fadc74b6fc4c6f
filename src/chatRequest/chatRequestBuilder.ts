import type { ChatMessage, ChatRequest, ChatTool, ContentPart } from '../api/chat/request';
import type { ChatSampling } from '../config/chatSampling';
import { t } from '../api/l10n';
import type { ResolvedCapabilities } from './capabilities';
import { reasoningParameters, type ReasoningChoice } from './reasoning';
import { sanitizeToolSchema } from './toolSchema';

// How every surface (the chat panel, Complete at Cursor and Rewrite Selection, VS Code's model provider, the chat
// participant, the explainer) shapes a chat request: one policy, stated in CONTRIBUTING.md ("A chat request").
// A value the model cannot take is adjusted and said (an `Adjustment`), never refused: `max_tokens` above the model's
// limit is lowered to it, sampling values go for a model declared without them, images become a note for a model
// without image input, JSON mode goes for a model declared without it, tools beyond what it takes go.

/** What a request's caller chose over the `promptreel.chat.*` settings (a chat's options, VS Code's modelOptions). */
export interface ChatOverrides {
  temperature?: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  maxTokens?: number;
  reasoning?: ReasoningChoice;
  jsonMode?: boolean;
}

export interface ChatRequestInput {
  model: string;
  /** The instructions: sent as `developer` where the model takes that role, else as `system`. */
  instructions?: string;
  /** The conversation; a `system` message in it is treated as instructions too. */
  messages: readonly ChatMessage[];
  /** `promptreel.chat.*` (its model is not used: `model` is). */
  settings: ChatSampling;
  overrides?: ChatOverrides;
  tools?: readonly ChatTool[];
  toolChoice?: ChatRequest['tool_choice'];
}

/** What the request changed because the model cannot take it: each surface says so (the chat shows it, others log it). */
export type Adjustment =
  | { kind: 'max-tokens-lowered'; asked: number; limit: number }
  | { kind: 'sampling-left-out' }
  | { kind: 'images-left-out'; count: number }
  | { kind: 'json-mode-left-out' }
  | { kind: 'tools-left-out'; count: number; offered: number; why: 'not-taken' | 'too-many' };

export interface BuiltChatRequest {
  request: ChatRequest;
  adjustments: Adjustment[];
}

/** The service's own defaults: a value equal to them is not sent (the service applies it anyway, and a model that refuses sampling values is not bothered). */
const API_DEFAULTS = { temperature: 1, top_p: 1, frequency_penalty: 0, presence_penalty: 0 } as const;

/** Said in place of an image the model cannot take, so the model knows something was left out. */
export const IMAGE_LEFT_OUT = '[An image was attached here; this model does not accept images.]';

export function buildChatRequest(input: ChatRequestInput, capabilities: ResolvedCapabilities): BuiltChatRequest {
  const adjustments: Adjustment[] = [];
  const { settings, overrides = {} } = input;
  const instructionsRole = capabilities.developerRole ? 'developer' : 'system';
  const messages: ChatMessage[] = [];
  const instructions = input.instructions?.trim();
  if (instructions) messages.push({ role: instructionsRole, content: instructions });
  let imagesLeftOut = 0;
  for (const message of input.messages) {
    if (message.role === 'system' || message.role === 'developer') messages.push({ ...message, role: instructionsRole });
    else if (message.role === 'user' && Array.isArray(message.content) && !capabilities.vision) {
      const { content, images } = withoutImages(message.content);
      imagesLeftOut += images;
      messages.push({ ...message, content });
    } else messages.push(message);
  }
  if (imagesLeftOut) adjustments.push({ kind: 'images-left-out', count: imagesLeftOut });

  const request: ChatRequest = { model: input.model, messages, ...reasoningParameters(capabilities.reasoning, overrides.reasoning) };

  const sampling = {
    temperature: overrides.temperature ?? settings.temperature,
    top_p: overrides.topP ?? settings.topP,
    frequency_penalty: overrides.frequencyPenalty ?? settings.frequencyPenalty,
    presence_penalty: overrides.presencePenalty ?? settings.presencePenalty,
  };
  const chosen = (Object.keys(sampling) as (keyof typeof sampling)[]).filter((key) => sampling[key] !== API_DEFAULTS[key]);
  if (capabilities.sampling) for (const key of chosen) request[key] = sampling[key];
  else if (chosen.length) adjustments.push({ kind: 'sampling-left-out' });

  const maxTokens = overrides.maxTokens ?? settings.maxTokens ?? capabilities.outputLimit;
  if (maxTokens !== undefined && maxTokens !== null) {
    const limit = capabilities.outputLimit;
    if (limit !== undefined && maxTokens > limit) adjustments.push({ kind: 'max-tokens-lowered', asked: maxTokens, limit });
    request.max_tokens = limit === undefined ? maxTokens : Math.min(maxTokens, limit);
  }

  if (overrides.jsonMode) {
    if (capabilities.jsonMode) request.response_format = { type: 'json_object' };
    else adjustments.push({ kind: 'json-mode-left-out' });
  }

  const tools = input.tools ?? [];
  if (tools.length && !capabilities.tools) adjustments.push({ kind: 'tools-left-out', count: tools.length, offered: tools.length, why: 'not-taken' });
  else if (tools.length) {
    const limit = capabilities.maxTools ?? tools.length;
    if (tools.length > limit) adjustments.push({ kind: 'tools-left-out', count: tools.length - limit, offered: tools.length, why: 'too-many' });
    request.tools = tools.slice(0, limit).map((tool) => withSchema(tool, capabilities.strictToolSchemas));
    if (input.toolChoice) request.tool_choice = input.toolChoice;
  }
  return { request, adjustments };
}

/** One adjustment in the user's words. */
export function describeAdjustment(adjustment: Adjustment, model: string): string {
  switch (adjustment.kind) {
    case 'max-tokens-lowered':
      return t('max_tokens was lowered from {0} to {1}, the most {2} writes.', adjustment.asked, adjustment.limit, model);
    case 'sampling-left-out':
      return t('The sampling values (temperature, top_p, penalties) were left out: {0} is declared without them.', model);
    case 'images-left-out':
      return adjustment.count === 1
        ? t('1 image was left out: {0} is not declared to accept images.', model)
        : t('{0} images were left out: {1} is not declared to accept images.', adjustment.count, model);
    case 'json-mode-left-out':
      return t('JSON mode was left out: {0} is declared without it.', model);
    case 'tools-left-out':
      return adjustment.why === 'not-taken'
        ? t('{0} tools were left out: {1} is declared without tools.', adjustment.count, model)
        : t('{0} of {1} tools were left out: {2} takes at most {3}.', adjustment.count, adjustment.offered, model, adjustment.offered - adjustment.count);
  }
}

function withoutImages(content: readonly ContentPart[]): { content: string; images: number } {
  let images = 0;
  let text = '';
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else {
      images++;
      text += `\n${IMAGE_LEFT_OUT}\n`;
    }
  }
  return { content: text, images };
}

function withSchema(tool: ChatTool, strict: boolean): ChatTool {
  const parameters = tool.function.parameters;
  return parameters ? { ...tool, function: { ...tool.function, parameters: sanitizeToolSchema(parameters, strict) } } : tool;
}
