import * as assert from 'node:assert/strict';
import type { PromptreelTestApi } from '../../../src/extension';
import { removeWrittenSettings, setSetting, testApi } from './extension';
import { startLocalService, type LocalService, type RecordedRequest } from '../../service';

/**
 * What a suite's tests start from besides Promptreel pointed at the local service (its base URL, its demo key stored
 * for it). A feature names its scenario once (`CHAT` in chatPanel/chatTestSupport.ts, `VIDEO` and `STUDIO` in
 * video/videoTestSupport.ts, `EDITOR` in editorStream/editorStreamSupport.ts); a suite adds its own as a further one.
 */
export interface ServiceScenario {
  /** `promptreel.*` settings written before each test, after the base URL and the key (undefined removes one). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The feature's state each test starts from, set once connected (an empty task list…). */
  readonly prepare?: (api: PromptreelTestApi, service: LocalService) => Promise<unknown>;
  /** Undoes what one test leaves behind, after each test (open editors, settings only some tests write…). */
  readonly cleanup?: () => Promise<unknown>;
  /** Undoes the feature's state after the block, before the key and the settings go (replies stopped…). */
  readonly teardown?: () => Promise<unknown>;
}

/** Points Promptreel at `service` with its demo key (stored for that base URL) and sets up the scenarios, in order. */
export async function connectService(service: LocalService, ...scenarios: ServiceScenario[]): Promise<PromptreelTestApi> {
  const api = await testApi();
  await setSetting('baseUrl', service.baseUrl);
  // Stored again at each connect: storing drops the model list the test before left, which the tests rely on.
  await api.connection.keyStore.store(service.demoKey);
  for (const scenario of scenarios) for (const [key, value] of Object.entries(scenario.settings ?? {})) await setSetting(key, value);
  for (const scenario of scenarios) await scenario.prepare?.(api, service);
  return api;
}

/**
 * Tears the scenarios down (the last first), removes the key of the base URL set now, then the base URL and every
 * `promptreel.*` setting the tests wrote.
 */
export async function disconnectService(...scenarios: ServiceScenario[]): Promise<void> {
  for (const scenario of [...scenarios].reverse()) await scenario.teardown?.();
  const api = await testApi();
  await api.connection.keyStore.clear();
  await setSetting('baseUrl', undefined);
  await removeWrittenSettings();
}

/**
 * The host tier's fixture: the local service for one describe block, started once, reset and connected with the
 * scenarios before each test, cleaned up after each, disconnected and stopped after the block.
 */
export function useConnectedService(...scenarios: ServiceScenario[]): { readonly service: LocalService } {
  return serviceForBlock({
    connect: (service) => connectService(service, ...scenarios),
    cleanup: async () => {
      for (const scenario of [...scenarios].reverse()) await scenario.cleanup?.();
    },
    disconnect: () => disconnectService(...scenarios),
  });
}

/**
 * A local service nothing points at, for one describe block (a second service, "another host", or one a suite
 * connects itself): started once, reset before each test, stopped after the block.
 */
export function useLocalService(): { readonly service: LocalService } {
  return serviceForBlock({});
}

function serviceForBlock(hooks: {
  connect?: (service: LocalService) => Promise<unknown>;
  cleanup?: () => Promise<unknown>;
  disconnect?: () => Promise<unknown>;
}): { readonly service: LocalService } {
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
    await hooks.connect?.(context.service);
  });
  afterEach(async () => {
    await hooks.cleanup?.();
  });
  after(async () => {
    await hooks.disconnect?.();
    await started?.stop();
  });
  return context;
}

/** The chat completion requests the service received, oldest first. */
export function chatRequests(service: LocalService): RecordedRequest[] {
  return service.requests.filter((request) => request.path === '/v1/chat/completions');
}

/** The body of a chat completion request as the service received it. */
export interface SentBody {
  model: string;
  messages: { role: string; content: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  temperature?: number;
  max_tokens?: number;
  tools?: { function: { name: string; parameters?: unknown } }[];
  response_format?: { type: string };
  stream?: boolean;
  enable_thinking?: boolean;
  reasoning_effort?: string;
  [field: string]: unknown;
}

/** The body of the last chat completion request the service received. */
export function lastChatBody(service: LocalService): SentBody {
  const request = chatRequests(service).at(-1);
  assert.ok(request, 'the service received a chat request');
  return request.body as SentBody;
}
