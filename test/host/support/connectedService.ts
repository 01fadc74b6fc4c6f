import type { PromptreelTestApi } from '../../../src/extension';
import { setSetting, testApi } from '../shell/shellTestSupport';
import { startLocalService, type LocalService } from '../../service';

/**
 * Points Promptreel at `service` with its demo key (stored for that base URL) and sets `promptreel.*` settings:
 * what every feature's `connect…` starts with.
 */
export async function connectService(service: LocalService, settings: Record<string, unknown> = {}): Promise<PromptreelTestApi> {
  const api = await testApi();
  await setSetting('baseUrl', service.baseUrl);
  await api.keyStore.store(service.demoKey);
  for (const [key, value] of Object.entries(settings)) await setSetting(key, value);
  return api;
}

/** Removes the key of the base URL set now, then the base URL and the given settings. */
export async function disconnectService(settingKeys: readonly string[] = []): Promise<void> {
  const api = await testApi();
  await api.keyStore.clear();
  for (const key of ['baseUrl', ...settingKeys]) await setSetting(key, undefined);
}

/**
 * The local service for one describe block: started once, reset and connected (base URL, key, settings) before each
 * test, disconnected and stopped after the block. Without `connect`, the service only runs (nothing points at it).
 */
export function useConnectedService(
  connect?: (service: LocalService) => Promise<unknown>,
  disconnect?: () => Promise<void>,
): { readonly service: LocalService } {
  let started: LocalService | undefined;
  const context = {
    get service(): LocalService {
      if (!started) throw new Error('the local service is not started');
      return started;
    },
  };
  before(async () => {
    started = await startLocalService();
  });
  beforeEach(async () => {
    context.service.reset();
    await connect?.(context.service);
  });
  after(async () => {
    await disconnect?.();
    await started?.stop();
  });
  return context;
}

/** A second local service for one describe block ("another host"), started once and stopped after the block. */
export function useSecondService(): { readonly service: LocalService } {
  let started: LocalService | undefined;
  before(async () => {
    started = await startLocalService();
  });
  afterEach(() => started?.reset());
  after(async () => {
    await started?.stop();
  });
  return {
    get service(): LocalService {
      if (!started) throw new Error('the second local service is not started');
      return started;
    },
  };
}
