import type { ChatRequest, PromptreelClient } from '../../api';

// Generate Explainer Video from Selection: the chat model turns code into a prompt for the video model.

/** Code longer than this is cut: the prompt only needs the gist, and the chat model has a context limit. */
export const MAX_CODE_CHARS = 12_000;
const MAX_PROMPT_CHARS = 2_000;

const INSTRUCTIONS = [
  'You write prompts for a text-to-video model.',
  'Given a piece of source code, write one prompt for a short explainer video that shows, visually and without',
  'on-screen code, what the code does: concrete objects, motion, camera, style. Use at most 90 words.',
  'Reply with the prompt only: no title, no quotes, no markdown.',
].join(' ');

export function explainerRequest(model: string, code: string, languageId: string, fileName: string): ChatRequest {
  const cut = code.length > MAX_CODE_CHARS ? `${code.slice(0, MAX_CODE_CHARS)}\n… (cut)` : code;
  return {
    model,
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: `File: ${fileName} (${languageId})\n\n${cut}` },
    ],
    max_tokens: 400,
  };
}

/** The reply as a prompt: fences, a leading "Prompt:" and wrapping quotes removed, whitespace folded. */
export function cleanPrompt(reply: string): string {
  let text = reply.trim();
  text = text.replace(/^```[^\n]*\n?/, '').replace(/\n?```$/, '');
  text = text.replace(/^\s*(video\s+)?prompt\s*:\s*/i, '');
  text = text.replace(/^["“'](.*)["”']$/s, '$1');
  text = text.replace(/\s+/g, ' ').trim();
  return text.slice(0, MAX_PROMPT_CHARS);
}

export async function writeExplainerPrompt(
  client: Pick<PromptreelClient, 'createChatCompletion'>,
  model: string,
  code: string,
  languageId: string,
  fileName: string,
  signal?: AbortSignal,
): Promise<string> {
  const completion = await client.createChatCompletion(explainerRequest(model, code, languageId, fileName), signal);
  return cleanPrompt(completion.text);
}
