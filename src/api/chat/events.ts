export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Of the prompt tokens, those served from the gateway's cache (`prompt_tokens_details.cached_tokens`), when more than 0. */
  cachedTokens?: number;
}

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text as the model produced it (not parsed: it may be invalid). */
  arguments: string;
}

export type ChatStreamEvent =
  | { type: 'role'; role: string }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'tool-calls'; calls: ToolCall[] }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: string }
  /** The gateway's id of the request (`X-Oneapi-Request-Id`), first, when it sends one: its key log entry carries it. */
  | { type: 'request-id'; requestId: string };

export interface ChatCompletion {
  id?: string;
  model?: string;
  text: string;
  reasoning?: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage?: Usage;
  /** The gateway's id of the request (`X-Oneapi-Request-Id`), when it sends one. */
  requestId?: string;
}
