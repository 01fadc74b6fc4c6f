/**
 * The chat model and the sampling values of `promptreel.chat.*`, declared once: the settings read them, the chat
 * panel shows them as defaults, and conversations and editor streaming send them.
 */
export interface ChatSampling {
  model: string;
  temperature: number;
  topP: number;
  frequencyPenalty: number;
  presencePenalty: number;
  maxTokens: number | null;
}
