import * as vscode from 'vscode';
import { streamTimeoutsOf } from './core/streamTimeouts';
import { Emitter } from '../common/emitter';
import type { Dispatcher } from 'undici';
import type { ChargedRequestRecord } from '../api/charges';
import type { RetryPolicy } from '../api/retry';
import type { ServiceClient } from '../api/serviceClient';
import { normalizeBaseUrl } from '../api/baseUrl';
import { LazyClient } from './lazyClient';
import { Disposable, toDisposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import type { ApiKeyStore } from './keys/apiKeyStore';
import type { SecretRedactor } from '../common/redactor';
import type { Settings } from '../config/settings';
import { PROXY_SETTINGS, readProxyConfig } from './proxyConfig';
import { CLIENT_CERTIFICATE_PASSPHRASE_SECRET, TLS_SETTINGS } from './tlsSettingKeys';
import { ApiError } from '../api/errors';
import type { TlsConfig } from '../api/tls/tlsConfig';
import type { SecureContext } from 'node:tls';
import type { RequestExtras } from '../api/requestExtras';
import type { SecretHeaderStore } from './keys/secretHeaderStore';
import { mergeRequestExtras } from './core/requestExtrasMerge';
import { t } from '../api/l10n';

/** The certificates of the settings, and the secure context made of them. */
interface Trust {
  config: TlsConfig;
  secureContext: SecureContext | undefined;
}

/**
 * Builds the client (its code loads on its first request) from the settings (base URL, proxy) and the key store, and rebuilds it when they
 * change. The key is read per request, so a new key needs no rebuild.
 */
export class ClientProvider extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** The client to use changed (new base URL or proxy settings): drop any cached one. */
  readonly onDidChange = this.changed.event;
  private readonly charged = this._register(new Emitter<void>());
  /** A request the service charges for was accepted (the key's quota changed). */
  readonly onDidCharge = this.charged.event;
  private readonly requestCharged = this._register(new Emitter<{ service: string; record: ChargedRequestRecord }>());
  /** A charged request ended (a chat answer read, a video task created), on this service (normalized base URL). */
  readonly onDidRecordCharge = this.requestCharged.event;
  /** The connection pools, by service and connect timeout (none: the default one). */
  private readonly dispatchers = new Map<string, Promise<Dispatcher>>();
  private client: ServiceClient | undefined;
  private trust: Promise<Trust> | undefined;
  /** Header problems already logged (once each, not per request). */
  private readonly reported = new Set<string>();

  constructor(
    private readonly settings: Settings,
    private readonly keyStore: ApiKeyStore,
    private readonly log: ComponentLogger,
    private readonly userAgent: string,
    private readonly redactor: SecretRedactor,
    private readonly secretHeaders: SecretHeaderStore,
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    this._register(
      secrets.onDidChange((event) => {
        if (event.key === CLIENT_CERTIFICATE_PASSPHRASE_SECRET) this.invalidate('the client certificate passphrase changed');
      }),
    );
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('baseUrl')) this.invalidate('the base URL changed');
      }),
    );
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (PROXY_SETTINGS.some((setting) => event.affectsConfiguration(setting))) this.invalidate('the proxy settings changed');
        else if (TLS_SETTINGS.some((setting) => event.affectsConfiguration(setting))) this.invalidate('the certificate settings changed');
      }),
    );
    this._register(toDisposable(() => this.closeDispatcher()));
  }

  /** The client for the current settings, or undefined while the base URL is unset or invalid. */
  get(): ServiceClient | undefined {
    if (!this.client) this.client = this.tryCreate();
    return this.client;
  }

  /** A separate client sharing the connection pool, e.g. without retries for the endpoint doctor. */
  create(options: { baseUrl?: string; retry?: Partial<RetryPolicy> } = {}): ServiceClient {
    const baseUrl = options.baseUrl ?? this.settings.baseUrl;
    return new LazyClient({
      baseUrl,
      extras: (model) => this.extrasFor(baseUrl, model),
      apiKey: () => this.keyStore.getKey(),
      // Made on the first request, not with the client: activation never loads undici.
      dispatcher: (connectMs) => this.sharedDispatcher(baseUrl, connectMs),
      log: this.log,
      userAgent: this.userAgent,
      redact: (text) => this.redactor.redact(text),
      onCharged: () => this.charged.fire(),
      onRequestCharged: (record) => this.requestCharged.fire({ service: normalizeBaseUrl(baseUrl), record }),
      streams: (model) => this.settings.capabilities(model)?.stream !== false,
      streamTimeouts: (model) => streamTimeoutsOf(this.settings.capabilities(model)),
      ...(options.retry ? { retry: options.retry } : {}),
    });
  }

  /** The settings' request options (the model's over the service's) and the service's secret headers, read per request. */
  private async extrasFor(baseUrl: string, model: string | undefined): Promise<RequestExtras> {
    const secret = await this.secretHeaders.get(normalizeBaseUrl(baseUrl));
    const { extras, dropped } = mergeRequestExtras(
      this.settings.get('requestOptions'),
      model ? this.settings.get('models.requestOptions')[model] : undefined,
      secret,
    );
    for (const problem of dropped) {
      if (this.reported.has(problem)) continue;
      this.reported.add(problem);
      this.log.warn(`A custom header is not sent: ${problem}.`);
    }
    return extras;
  }

  private tryCreate(): ServiceClient | undefined {
    if (!this.settings.baseUrl) return undefined;
    try {
      return this.create();
    } catch (error) {
      this.log.warn(`No client: ${describeError(error)}`);
      return undefined;
    }
  }

  /** The trust and client certificate of the settings (read once, again after a change). */
  async tlsConfig(): Promise<TlsConfig> {
    return (await this.trusted()).config;
  }

  /** Them as one secure context, shared by every pool and by Test Connection's look at a server's certificate. */
  async secureContext(): Promise<SecureContext | undefined> {
    return (await this.trusted()).secureContext;
  }

  private trusted(): Promise<Trust> {
    const reading = (this.trust ??= this.readTrust());
    // A certificate file fixed later is read again on the next request, not only after a settings change.
    reading.catch(() => {
      if (this.trust === reading) this.trust = undefined;
    });
    return reading;
  }

  private async readTrust(): Promise<Trust> {
    // Reading certificate files, and the messages of their problems, load with the first request.
    const [{ readTlsConfig }, { secureContextFor }, { certificateHint }] = await Promise.all([
      import('./tlsSettings'),
      import('../api/tls/tlsConfig'),
      import('../api/tls/certificateProblem'),
    ]);
    const config = await readTlsConfig(this.settings, this.secrets);
    try {
      // Made here, once: parsing a few hundred roots takes tens of milliseconds.
      return { config, secureContext: secureContextFor(config) };
    } catch (cause) {
      throw new ApiError({
        kind: 'network',
        message: t('The certificates of promptreel.tls cannot be used: {0}.', cause instanceof Error ? cause.message : String(cause)),
        hint: config.clientCertificate ? certificateHint('client-certificate-unusable') : t('Check the files of promptreel.tls.certificateAuthorities.'),
        retryable: false,
        mayHaveReachedServer: false,
        cause,
      });
    }
  }

  /** One pool per service (only its origin is offered the client certificate) and connect timeout. */
  private sharedDispatcher(baseUrl: string, connectMs: number | undefined): Promise<Dispatcher> {
    const service = normalizeBaseUrl(baseUrl);
    const key = `${new URL(service).origin} ${connectMs ?? ''}`;
    let made = this.dispatchers.get(key);
    if (!made) {
      const making = this.createSharedDispatcher(service, connectMs);
      this.dispatchers.set(key, making);
      making.catch(() => {
        if (this.dispatchers.get(key) === making) this.dispatchers.delete(key);
      });
      made = making;
    }
    return made;
  }

  private async createSharedDispatcher(service: string, connectMs: number | undefined): Promise<Dispatcher> {
    const proxy = readProxyConfig(this.env);
    const { config: tls, secureContext } = await this.trusted();
    const { createDispatcher } = await import('../api/dispatcher');
    const dispatcher = createDispatcher({
      ...proxy,
      service,
      tls,
      ...(secureContext ? { secureContext } : {}),
      ...(connectMs ? { connectTimeoutMs: connectMs } : {}),
    });
    const trust = [tls.systemCa?.length ? `${tls.systemCa.length} system` : '', tls.extraCa?.length ? `${tls.extraCa.length} extra` : ''].filter(Boolean);
    this.log.debug(
      `${proxy.proxyUrl ? 'Connecting through the proxy from http.proxy' : 'Connecting directly (or through the proxy from the environment)'}` +
        `${trust.length ? `, trusting ${trust.join(' and ')} authorities besides Node's` : ''}${tls.clientCertificate ? `, with a client certificate for ${new URL(service).origin}` : ''}.`,
    );
    return dispatcher;
  }

  private invalidate(reason: string): void {
    this.log.info(`Rebuilding the client: ${reason}.`);
    this.client = undefined;
    this.trust = undefined;
    this.closeDispatcher();
    this.changed.fire();
  }

  private closeDispatcher(): void {
    const pools = [...this.dispatchers.values()];
    this.dispatchers.clear();
    // close() lets requests in flight finish; new ones go through the next dispatcher.
    for (const pool of pools) {
      pool.then((made) => made.close()).catch((error: unknown) => this.log.debug(`Closing the old connection pool: ${describeError(error)}`));
    }
  }
}
