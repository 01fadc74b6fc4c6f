import type { AccountReader } from './account/accountReader';
import type { PromptreelClient } from './client';

/** What a client's `account` answers: the key's quota and expiry, the display unit, the prices, the key's log. */
export type AccountApi = Pick<AccountReader, 'tokenUsage' | 'keyHealth' | 'billing' | 'status' | 'pricing' | 'keyLog'>;

/**
 * The calls of a PromptreelClient, without its private state: what the extension holds, so that a client whose code
 * loads on its first call (connection/lazyClient.ts) and the client itself are interchangeable.
 */
export type ServiceClient = Pick<
  PromptreelClient,
  'baseUrl' | 'listModels' | 'createChatCompletion' | 'streamChatCompletion' | 'createVideoTask' | 'getVideoTask' | 'downloadVideo'
> & { readonly account: AccountApi };
