/** How hard a reasoning model thinks (`reasoning_effort`): the values OpenAI and most gateways take. */
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
