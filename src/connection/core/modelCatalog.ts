import { Emitter } from '../../common/emitter';
import { abortedError } from '../../api/errors';
import type { ModelInfo } from '../../api/models';
import type { ApiKeyStore } from '../keys/apiKeyStore';
import { chatModelsOf } from './chatModels';
import type { ClientProvider } from '../clientProvider';
import { resolveCapabilities, type ResolvedCapabilities } from '../../chatRequest/capabilities';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ComponentLogger } from '../../common/logger';
import type { Settings } from '../../config/settings';
import { t } from '../../api/l10n';

interface CachedList {
  scope: string;
  models: Promise<ModelInfo[]>;
  /** The list once it has arrived. */
  settled?: ModelInfo[];
  /** Stops the shared request when the list is dropped (its callers may all have gone). */
  controller: AbortController;
}

/**
 * The one model list of the extension: `/v1/models`, listed once per service and key and shared by every caller
 * (the chat panel, Select Chat Model, the `vscode.lm` provider, the participant, video pickers). Fires when what
 * callers show may differ: a list arrived, a new key, base URL or proxy (the list is dropped), or new capability or
 * video model settings (the list stays; the views of it change).
 */
export class ModelCatalog extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private cached: CachedList | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly keyStore: ApiKeyStore,
    private readonly clients: ClientProvider,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(keyStore.onDidChange(() => this.invalidate('the API key changed')));
    this._register(clients.onDidChange(() => this.invalidate('the connection settings changed')));
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('models.capabilities') || change.affects('models.shown') || change.affects('video.model')) this.changed.fire();
      }),
    );
    this._register(toDisposable(() => this.drop()));
  }

  /** Chat models only: video ones (by endpoint types, and `promptreel.video.model`) are left out. Throws ApiError. */
  async chatModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    return chatModelsOf(await this.allModels(signal), this.settings.video.model);
  }

  /** Every listed model, video ones included. `signal` stops this caller's wait, not the shared request. */
  allModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const scope = this.keyStore.scope;
    const client = this.clients.get();
    if (!scope || !client) return Promise.reject(new Error(t('The address of the service is not set (promptreel.baseUrl).')));
    if (this.cached?.scope !== scope) {
      this.drop();
      const controller = new AbortController();
      const models = client.listModels(controller.signal);
      const entry: CachedList = { scope, models, controller };
      this.cached = entry;
      models.then(
        (listed) => {
          entry.settled = listed;
          this.log.info(`Listed ${listed.length} model(s) at ${scope}.`);
          if (this.cached === entry) this.changed.fire();
        },
        // A failed list is not kept: the next caller asks again.
        () => {
          if (this.cached === entry) this.cached = undefined;
        },
      );
    }
    return untilAborted(this.cached.models, signal);
  }

  /**
   * What `model` can take: the user's settings, over what the list already read says of it, over Promptreel's
   * assumptions. Asks nothing: the one answer every surface shapes its requests from.
   */
  capabilitiesOf(model: string): ResolvedCapabilities {
    const settled = this.cached?.scope === this.keyStore.scope ? this.cached?.settled : undefined;
    return resolveCapabilities(this.settings.capabilities(model), settled?.find((entry) => entry.id === model)?.limits);
  }

  /** The chat models of a list already read, without asking the service (undefined before a list has arrived). */
  knownChatModels(): ModelInfo[] | undefined {
    const settled = this.cached?.scope === this.keyStore.scope ? this.cached?.settled : undefined;
    return settled ? chatModelsOf(settled, this.settings.video.model) : undefined;
  }

  /** Drops the list and tells VS Code to ask again. */
  invalidate(reason: string): void {
    this.drop();
    this.log.info(`The model list will be read again: ${reason}.`);
    this.changed.fire();
  }

  private drop(): void {
    this.cached?.controller.abort();
    this.cached = undefined;
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError(signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
