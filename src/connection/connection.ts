import type { PromptreelClient } from '../api';
import type { ApiKeyStore } from '../auth/apiKeyStore';
import { ensureApiKey } from '../auth/ensureApiKey';
import { Emitter, type Event } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import type { ClientProvider } from './clientProvider';
import type { ChatModelChoice } from './core/chatModelChoice';
import type { ModelCatalog } from './core/modelCatalog';

/**
 * The service as every feature sees it: where it is, whether it is ready (an address and a key the user chose), the
 * client, the one model catalog and the chat model in use. Features take this one object, not the parts.
 */
export class Connection extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** The key, the address or the proxy changed: what was read from the service may be out of date. */
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(
    readonly keyStore: ApiKeyStore,
    readonly clients: ClientProvider,
    readonly catalog: ModelCatalog,
    readonly chatModel: ChatModelChoice,
  ) {
    super();
    this._register(keyStore.onDidChange(() => this.changed.fire()));
    this._register(clients.onDidChange(() => this.changed.fire()));
  }

  /** The normalized base URL of the service (the scope of its key), or undefined while none is set. */
  get service(): string | undefined {
    return this.keyStore.scope;
  }

  async hasKey(): Promise<boolean> {
    return (await this.keyStore.get()) !== undefined;
  }

  /** Asks nothing: the client when an address and a key are there (background work), else undefined. */
  async readyClient(): Promise<PromptreelClient | undefined> {
    const client = this.clients.get();
    return client && (await this.hasKey()) ? client : undefined;
  }

  /**
   * For a command the user started: the client, or undefined after offering the way out (Set API Key, Open
   * Settings). A service only the workspace's settings name is confirmed first (once per origin).
   */
  async ensureReady(purpose: string): Promise<PromptreelClient | undefined> {
    if (!(await ensureApiKey(this.keyStore, purpose))) return undefined;
    return this.clients.get();
  }
}
