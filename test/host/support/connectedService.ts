import { startLocalService, type LocalService } from '../../service';

/**
 * The local service for one describe block: started once, reset and connected (base URL, key, settings) before each
 * test, disconnected and stopped after the block.
 */
export function useConnectedService(connect: (service: LocalService) => Promise<unknown>, disconnect: () => Promise<void>): { readonly service: LocalService } {
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
    await connect(context.service);
  });
  after(async () => {
    await disconnect();
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
