import type { ServiceClient } from '../../api/serviceClient';
import type { ResolvedCapabilities } from '../../chatRequest/capabilities';
import { buildChatRequest, type ChatRequestInput } from '../../chatRequest/chatRequestBuilder';
import type { ChatSampling } from '../../config/chatSampling';

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

/** What the chat model is asked: shaped into a request by the chat-request layer, like every chat. */
export function explainerPrompt(code: string, languageId: string, fileName: string): Pick<ChatRequestInput, 'instructions' | 'messages'> {
  const cut = code.length > MAX_CODE_CHARS ? `${code.slice(0, MAX_CODE_CHARS)}\n… (cut)` : code;
  return { instructions: INSTRUCTIONS, messages: [{ role: 'user', content: `File: ${fileName} (${languageId})\n\n${cut}` }] };
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

export interface ExplainerModel {
  model: string;
  settings: ChatSampling;
  capabilities: ResolvedCapabilities;
}

export async function writeExplainerPrompt(
  client: Pick<ServiceClient, 'createChatCompletion'>,
  { model, settings, capabilities }: ExplainerModel,
  code: string,
  languageId: string,
  fileName: string,
  signal?: AbortSignal,
): Promise<string> {
  const { request } = buildChatRequest({ model, ...explainerPrompt(code, languageId, fileName), settings }, capabilities);
  const completion = await client.createChatCompletion(request, signal);
  return cleanPrompt(completion.text);
}
