import { z } from 'zod';
import { ApiError } from '../errors';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const imagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
export const contentPartSchema = z.union([textPart, imagePart]);

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string(), name: z.string().optional() }),
  z.object({ role: z.literal('developer'), content: z.string(), name: z.string().optional() }),
  z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(contentPartSchema).min(1)]), name: z.string().optional() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.object({ role: z.literal('tool'), content: z.string(), tool_call_id: z.string() }),
]);

const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a tool name uses letters, digits, _ and - (at most 64)'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** The documented request, with the documented bounds checked before anything is sent. */
export const chatRequestSchema = z.object({
  model: z.string().trim().min(1, 'a model is required'),
  messages: z.array(chatMessageSchema).min(1, 'at least one message is required'),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  response_format: z
    .union([
      z.object({ type: z.literal('text') }),
      z.object({ type: z.literal('json_object') }),
      z.object({ type: z.literal('json_schema'), json_schema: z.record(z.string(), z.unknown()) }),
    ])
    .optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: z
    .union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) })])
    .optional(),
  user: z.string().optional(),
  seed: z.number().int().optional(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
});

export type ChatRequest = z.input<typeof chatRequestSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ContentPart = z.infer<typeof contentPartSchema>;
export type ChatTool = z.infer<typeof toolSchema>;

/** Validates a request; the ApiError names the first offending parameter. */
export function validateChatRequest(request: ChatRequest): z.infer<typeof chatRequestSchema> {
  const result = chatRequestSchema.safeParse(request);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue?.path.map(String).join('.') || undefined;
  const detail = issue ? `${param ?? 'request'}: ${issue.message}` : 'invalid request';
  throw new ApiError({
    kind: 'invalid-request',
    param,
    message: `Invalid chat request — ${detail}.`,
    hint: param ? `Fix the value of "${param}" (${boundsHint(param)}).` : 'Fix the request.',
  });
}

function boundsHint(param: string): string {
  switch (param.split('.')[0]) {
    case 'temperature':
      return 'between 0 and 2';
    case 'top_p':
      return 'between 0 and 1';
    case 'frequency_penalty':
    case 'presence_penalty':
      return 'between -2 and 2';
    case 'max_tokens':
      return 'a positive whole number';
    default:
      return 'see the documentation';
  }
}
