import type { Usage } from './chat/events';

/**
 * A request the service charged for, as this client saw it end: a chat completion (with the tokens the service
 * counted, when it said) or a created video task. What the gateway's log says it cost is matched to these.
 */
export type ChargedRequestRecord =
  | { kind: 'chat'; model: string; at: number; requestId?: string; usage?: Usage; stream: boolean }
  /** `seconds`: the duration asked for (a video priced per second costs it times the price). */
  | { kind: 'video'; model: string; at: number; requestId?: string; taskId: string; seconds?: string };
