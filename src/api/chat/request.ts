import * as z from 'zod/mini';
import { invalidRequest } from '../invalidRequest';
import { REASONING_EFFORTS } from './reasoningEffort';
import { t } from '../l10n';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const imagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().check(z.minLength(1)), detail: z.optional(z.enum(['auto', 'low', 'high'])) }),
});
export const contentPartSchema = z.union([textPart, imagePart]);

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string(), name: z.optional(z.string()) }),
  z.object({ role: z.literal('developer'), content: z.string(), name: z.optional(z.string()) }),
  z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(contentPartSchema).check(z.minLength(1))]), name: z.optional(z.string()) }),
  z.object({
    role: z.literal('assistant'),
    content: z.nullable(z.string()),
    name: z.optional(z.string()),
    tool_calls: z.optional(z.array(toolCallSchema)),
    /** DeepSeek-style reasoning models want the reasoning of a turn that made tool calls back (and only of those). */
    reasoning_content: z.optional(z.string()),
  }),
  z.object({ role: z.literal('tool'), content: z.string(), tool_call_id: z.string() }),
]);

const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, { error: () => t('a tool name uses letters, digits, _ and - (at most 64)') })),
    description: z.optional(z.string()),
    parameters: z.optional(z.record(z.string(), z.unknown())),
  }),
});

const between = (min: number, max: number) => z.number().check(z.gte(min), z.lte(max));

/** The documented request, with the documented bounds checked before anything is sent. */
export const chatRequestSchema = z.object({
  model: z.string().check(z.trim(), z.minLength(1, { error: () => t('a model is required') })),
  messages: z.array(chatMessageSchema).check(z.minLength(1, { error: () => t('at least one message is required') })),
  temperature: z.optional(between(0, 2)),
  top_p: z.optional(between(0, 1)),
  frequency_penalty: z.optional(between(-2, 2)),
  presence_penalty: z.optional(between(-2, 2)),
  max_tokens: z.optional(z.int().check(z.positive())),
  response_format: z.optional(
    z.union([
      z.object({ type: z.literal('text') }),
      z.object({ type: z.literal('json_object') }),
      z.object({ type: z.literal('json_schema'), json_schema: z.record(z.string(), z.unknown()) }),
    ]),
  ),
  tools: z.optional(z.array(toolSchema)),
  tool_choice: z.optional(z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) })])),
  user: z.optional(z.string()),
  /** Reasoning switches, each as the models that take it expect (OpenAI and most gateways; Qwen; GLM and others). */
  reasoning_effort: z.optional(z.enum(REASONING_EFFORTS)),
  enable_thinking: z.optional(z.boolean()),
  thinking: z.optional(z.object({ type: z.enum(['enabled', 'disabled']) })),
  seed: z.optional(z.int()),
  stop: z.optional(z.union([z.string(), z.array(z.string()).check(z.maxLength(4))])),
});

export type ChatRequest = z.input<typeof chatRequestSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ContentPart = z.infer<typeof contentPartSchema>;
export type ChatTool = z.infer<typeof toolSchema>;

/** Validates a request; the ApiError names the first offending parameter. */
export function validateChatRequest(request: ChatRequest): z.infer<typeof chatRequestSchema> {
  const result = chatRequestSchema.safeParse(request);
  if (result.success) return result.data;
  throw invalidRequest(t('chat request'), result.error.issues, (param) =>
    param ? t('Fix the value of "{0}" ({1}).', param, boundsHint(param)) : t('Fix the request.'),
  );
}

function boundsHint(param: string): string {
  switch (param.split('.')[0]) {
    case 'temperature':
      return t('between {0} and {1}', 0, 2);
    case 'top_p':
      return t('between {0} and {1}', 0, 1);
    case 'frequency_penalty':
    case 'presence_penalty':
      return t('between {0} and {1}', -2, 2);
    case 'max_tokens':
      return t('a positive whole number');
    default:
      return t('see the documentation');
  }
}
