import type { PlainMessage, PlainPart } from './messages';

// The service publishes no tokenizer, and each model has its own. English text and code average about four
// characters a token with the common BPE tokenizers, so chars/4 (rounded up) is the estimate; each message adds a
// few tokens for its role and separators, as chat formats do. Over-counting a little is the safe side: VS Code uses
// the count to decide what fits in the context window.

export const CHARS_PER_TOKEN = 4;
export const MESSAGE_OVERHEAD = 4;
/** What a high-detail image costs with the common vision models (a tile grid of 85 + 170 per tile), rounded up. */
export const IMAGE_TOKENS = 765;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessageTokens(message: PlainMessage): number {
  return MESSAGE_OVERHEAD + message.parts.reduce((sum, part) => sum + estimatePartTokens(part), 0);
}

function estimatePartTokens(part: PlainPart): number {
  switch (part.kind) {
    case 'text':
      return estimateTextTokens(part.text);
    case 'tool-call':
      return estimateTextTokens(part.name + JSON.stringify(part.input ?? {})) + MESSAGE_OVERHEAD;
    case 'tool-result':
      return MESSAGE_OVERHEAD + part.parts.reduce((sum, inner) => sum + estimatePartTokens(inner), 0);
    case 'data':
      return /^image\//i.test(part.mimeType) ? IMAGE_TOKENS : Math.ceil(part.data.byteLength / CHARS_PER_TOKEN);
  }
}
