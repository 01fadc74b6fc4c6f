// Pinned by `npm run bench -- --only startup`: the JS loaded at activation.
import { normalizeBaseUrl } from '../api/baseUrl';
import type { ClientOptions, PromptreelClient } from '../api/client';
import type { AccountApi, ServiceClient } from '../api/serviceClient';

/**
 * A PromptreelClient whose code (requests, answers' schemas, zod, the SSE decoder) loads on its first call, from a
 * chunk of its own: activation, and a window that never asks the service, load none of it. Every call is already
 * asynchronous, so waiting for the load changes no caller.
 */
export class LazyClient implements ServiceClient {
  readonly baseUrl: string;
  readonly account: AccountApi;
  private loading: Promise<PromptreelClient> | undefined;

  constructor(private readonly options: ClientOptions) {
    // Checked now, as the client itself does: an address that cannot be used gives no client at all.
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.account = {
      tokenUsage: async (...args) => (await this.client()).account.tokenUsage(...args),
      keyHealth: async (...args) => (await this.client()).account.keyHealth(...args),
      billing: async (...args) => (await this.client()).account.billing(...args),
      status: async (...args) => (await this.client()).account.status(...args),
      pricing: async (...args) => (await this.client()).account.pricing(...args),
      keyLog: async (...args) => (await this.client()).account.keyLog(...args),
    };
  }

  async listModels(...args: Parameters<PromptreelClient['listModels']>): ReturnType<PromptreelClient['listModels']> {
    return (await this.client()).listModels(...args);
  }

  async createChatCompletion(...args: Parameters<PromptreelClient['createChatCompletion']>): ReturnType<PromptreelClient['createChatCompletion']> {
    return (await this.client()).createChatCompletion(...args);
  }

  async *streamChatCompletion(...args: Parameters<PromptreelClient['streamChatCompletion']>): ReturnType<PromptreelClient['streamChatCompletion']> {
    yield* (await this.client()).streamChatCompletion(...args);
  }

  async createVideoTask(...args: Parameters<PromptreelClient['createVideoTask']>): ReturnType<PromptreelClient['createVideoTask']> {
    return (await this.client()).createVideoTask(...args);
  }

  async getVideoTask(...args: Parameters<PromptreelClient['getVideoTask']>): ReturnType<PromptreelClient['getVideoTask']> {
    return (await this.client()).getVideoTask(...args);
  }

  async downloadVideo(...args: Parameters<PromptreelClient['downloadVideo']>): ReturnType<PromptreelClient['downloadVideo']> {
    return (await this.client()).downloadVideo(...args);
  }

  private client(): Promise<PromptreelClient> {
    const loading = (this.loading ??= import('../api/client').then(({ PromptreelClient }) => new PromptreelClient(this.options)));
    // A chunk that failed to load (a VSIX being replaced) is loaded again on the next call.
    loading.catch(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    return loading;
  }
}
