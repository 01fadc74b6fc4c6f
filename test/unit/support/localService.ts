import { startLocalService, type LocalService, type StartOptions } from '../../service';
import { PromptreelClient, type ClientOptions } from '../../../src/api/client';
import { createDispatcher } from '../../../src/api/dispatcher';
import type { ApiLogger } from '../../../src/api/apiLogger';
import type { Dispatcher } from 'undici';

const dispatchers = new Set<Dispatcher>();

/** A dispatcher closed after the test, so pooled keep-alive sockets never leak into the next test's socket counts. */
export function testDispatcher(options: Parameters<typeof createDispatcher>[0]): Dispatcher {
  const dispatcher = createDispatcher({ env: {}, ...options });
  dispatchers.add(dispatcher);
  return dispatcher;
}

/** A logger that keeps lines so tests can assert on what was (not) logged. */
export class MemoryLogger implements ApiLogger {
  readonly lines: string[] = [];
  debug(message: string): void {
    this.lines.push(`debug ${message}`);
  }
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
}

/**
 * The unit tier's fixture: the local service for a `describe` block, started with `options` (TLS, a scenario…);
 * `reset()` between tests keeps tests independent.
 */
export function useLocalService(options: StartOptions = {}): { readonly service: LocalService } {
  const holder: { service?: LocalService } = {};
  before(async () => {
    holder.service = await startLocalService(options);
  });
  afterEach(async () => {
    holder.service?.reset();
    await Promise.all([...dispatchers].map((dispatcher) => dispatcher.destroy()));
    dispatchers.clear();
  });
  after(async () => {
    await holder.service?.stop();
  });
  return {
    get service(): LocalService {
      if (!holder.service) throw new Error('the local service is not started');
      return holder.service;
    },
  };
}

export function clientFor(service: LocalService, options: Partial<ClientOptions> = {}): PromptreelClient {
  return new PromptreelClient({
    baseUrl: service.baseUrl,
    apiKey: () => service.demoKey,
    dispatcher: testDispatcher({ service: options.baseUrl ?? service.baseUrl }),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

export function v1Requests(service: LocalService, method: string, pathPrefix: string) {
  return service.requests.filter((request) => request.method === method && request.path.startsWith(pathPrefix));
}

export async function waitUntil(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
