import * as z from 'zod/mini';

/** `{"error": {"message", "type", "param", "code"}}`: auth, model selection and chat routes. */
const openAiErrorBody = z.object({
  error: z.union([
    z.object({
      message: z.optional(z.string()),
      type: z.nullish(z.string()),
      param: z.nullish(z.string()),
      code: z.nullish(z.union([z.string(), z.number()])),
    }),
    z.string(),
  ]),
});

/** `{"code", "message", "data"}`: video task routes. */
const taskErrorBody = z.object({
  code: z.optional(z.union([z.string(), z.number()])),
  message: z.optional(z.string()),
  msg: z.optional(z.string()),
});

export interface ParsedErrorBody {
  message?: string;
  code?: string;
  type?: string;
  param?: string;
  isHtml: boolean;
}

export function parseErrorBody(text: string, contentType: string | undefined): ParsedErrorBody {
  const trimmed = text.trim();
  if (!trimmed) return { isHtml: false };
  if (looksLikeHtml(trimmed, contentType)) return { isHtml: true, message: htmlTitle(trimmed) };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { isHtml: false, message: trimmed.slice(0, 500) };
  }
  const openAi = openAiErrorBody.safeParse(json);
  if (openAi.success) {
    const error = openAi.data.error;
    if (typeof error === 'string') return { isHtml: false, message: error };
    return {
      isHtml: false,
      message: error.message,
      type: error.type ?? undefined,
      param: error.param ?? undefined,
      code: error.code === null || error.code === undefined ? undefined : String(error.code),
    };
  }
  const task = taskErrorBody.safeParse(json);
  if (task.success && (task.data.message !== undefined || task.data.msg !== undefined || task.data.code !== undefined)) {
    return { isHtml: false, message: task.data.message ?? task.data.msg, code: task.data.code === undefined ? undefined : String(task.data.code) };
  }
  return { isHtml: false, message: trimmed.slice(0, 500) };
}

function looksLikeHtml(text: string, contentType: string | undefined): boolean {
  return (contentType ?? '').includes('text/html') || /^<(!doctype|html|head|body)\b/i.test(text);
}

function htmlTitle(html: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  return title || undefined;
}

const REQUEST_ID = /\(request id:\s*([^)]+)\)/i;

export function extractRequestId(message: string | undefined): string | undefined {
  return message ? REQUEST_ID.exec(message)?.[1]?.trim() : undefined;
}
