import { z } from 'zod';

/** The parts of a chat-completions request the service looks at; everything else passes through. */

const messageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  name: z.string().optional(),
});

const toolSchema = z.looseObject({
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), parameters: z.unknown().optional() }),
});

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  stream: z.boolean().optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  frequency_penalty: z.number().optional(),
  presence_penalty: z.number().optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  response_format: z.looseObject({ type: z.string() }).optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: z.unknown().optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatMessage = z.infer<typeof messageSchema>;
export type ChatTool = z.infer<typeof toolSchema>;

export interface ValidationError {
  message: string;
  param: string;
  code: string;
}

const ranges: { param: 'temperature' | 'top_p' | 'frequency_penalty' | 'presence_penalty'; min: number; max: number }[] = [
  { param: 'temperature', min: 0, max: 2 },
  { param: 'top_p', min: 0, max: 1 },
  { param: 'frequency_penalty', min: -2, max: 2 },
  { param: 'presence_penalty', min: -2, max: 2 },
];

/** Like a real gateway: a missing or wrong field, or a sampling value out of range, is a 400. */
export function validateChatRequest(body: unknown): { request: ChatRequest } | { error: ValidationError } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { error: { message: 'The request body must be a JSON object.', param: 'body', code: 'invalid_request_error' } };
  }
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue?.path.map(String).join('.') || 'body';
    const missing = issue?.code === 'invalid_type' && !(String(issue.path[0]) in body);
    return missing
      ? { error: { message: `Missing required parameter: '${param}'.`, param, code: 'missing_required_parameter' } }
      : { error: { message: `Invalid value for '${param}': ${issue?.message ?? 'invalid'}.`, param, code: 'invalid_value' } };
  }
  for (const { param, min, max } of ranges) {
    const value = parsed.data[param];
    if (value !== undefined && (value < min || value > max)) {
      return {
        error: {
          message: `Invalid '${param}': decimal above maximum value or below minimum value. Expected a value between ${min} and ${max}, but got ${value} instead.`,
          param,
          code: 'invalid_value',
        },
      };
    }
  }
  return { request: parsed.data };
}
