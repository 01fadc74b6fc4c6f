import { describeBaseUrlInput, withoutCredentials } from '../../api/baseUrl';
import { isVideoModel, type ModelInfo } from '../../api/models';
import type { ServiceClient } from '../../api/serviceClient';
import type { ApiKeyInfo } from '../../connection/keys/apiKeyStore';
import { chatModelsOf } from '../../connection/core/chatModels';
import { describeError } from '../../common/logger';
import type { PriceSetting } from '../../config/schema';
import { checkAccount } from './accountCheck';
import type { DoctorAction, DoctorResult, DoctorStep, DoctorStepName } from './doctorResult';
import { explainFailure, type Explanation } from './explainFailure';
import { explainCertificate } from './explainCertificate';
import { isApiError } from '../../api/errors';
import { certificateProblemOf } from '../../api/tls/certificateProblem';
import type { CertificateSummary } from '../../api/tls/inspectCertificate';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';

export type DoctorClient = Pick<ServiceClient, 'baseUrl' | 'listModels' | 'createChatCompletion' | 'account'>;

export interface DoctorDependencies {
  /** The base URL as the user typed it. */
  baseUrlInput(): string;
  apiKey(): Promise<ApiKeyInfo | undefined>;
  /** A client for this base URL that reports failures at once (no retries): the doctor reports, the user retries. */
  createClient(baseUrl: string): DoctorClient;
  chatModel(): string;
  videoModel(): string;
  /** `promptreel.models.prices`; none when left out. */
  priceSettings?(): Readonly<Record<string, PriceSetting>>;
  /** The certificate an HTTPS service presents, looked at when a request to it failed (Test Connection explains it). */
  inspectCertificate?(baseUrl: string): Promise<CertificateSummary | undefined>;
  /** The names of the custom headers sent to this service (`X-Org`, `X-Token (secret)`), never their values. */
  extraHeaders?(baseUrl: string): Promise<string[]>;
  now?(): number;
}

export interface DoctorRunOptions {
  signal?: AbortSignal;
  /** Called as each check starts, for a progress message. */
  onStep?(name: DoctorStepName, title: string): void;
}

/** The progress message of each check. */
function stepTitle(name: DoctorStepName): string {
  switch (name) {
    case 'base-url':
      return t('Checking the base URL…');
    case 'api-key':
      return t('Looking for the API key…');
    case 'models':
      return t('Listing the models…');
    case 'chat':
      return t('Sending a one-token test message…');
    case 'account':
      return t('Reading the key quota and the prices…');
  }
}

/**
 * Test Connection: base URL, key, `GET /v1/models`, then a one-token chat completion; each failure explained. Then
 * the key's quota and the models' prices, where the service publishes them (never a failure). The message is in the
 * user's language; the steps' details are for the log, in English (the notes of the base URL are in both).
 */
export class ConnectionDoctor {
  constructor(private readonly deps: DoctorDependencies) {}

  async run(options: DoctorRunOptions = {}): Promise<DoctorResult> {
    const steps: DoctorStep[] = [];
    const now = () => this.deps.now?.() ?? Date.now();
    const start = (name: DoctorStepName) => options.onStep?.(name, stepTitle(name));
    const fail = (name: DoctorStepName, detail: string, message: string, actions: DoctorAction[], extra: Partial<DoctorResult> = {}): DoctorResult => {
      steps.push({ name, ok: false, detail });
      return { ok: false, steps, message, actions, ...extra };
    };

    // 1. Base URL
    start('base-url');
    const input = this.deps.baseUrlInput().trim();
    if (!input) {
      return fail(
        'base-url',
        'promptreel.baseUrl is empty.',
        t('Promptreel does not know the address of your service yet: set promptreel.baseUrl (for example https://api.example.com).'),
        ['openSettings', 'setApiKey'],
      );
    }
    let baseUrl: string;
    let notes: string[];
    try {
      ({ normalized: baseUrl, notes } = describeBaseUrlInput(input));
    } catch (error) {
      return fail(
        'base-url',
        describeError(error),
        t('The base URL "{0}" is not usable: {1} Fix promptreel.baseUrl.', withoutCredentials(input), describeError(error)),
        ['openSettings'],
      );
    }
    const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '') || undefined;
    steps.push({
      name: 'base-url',
      ok: true,
      detail: [`Using ${baseUrl}/v1.`, ...notes, ...(basePath ? [`The base URL has the path "${basePath}".`] : [])].join(' '),
    });
    const context = { baseUrl, basePath };

    // 2. API key
    start('api-key');
    const key = await this.deps.apiKey();
    if (!key) {
      return fail(
        'api-key',
        'No key stored and PROMPTREEL_API_KEY is not set.',
        t('No API key for {0}: set one with "Promptreel: Set API Key" (or the PROMPTREEL_API_KEY environment variable).', baseUrl),
        ['setApiKey'],
        { baseUrl },
      );
    }
    steps.push({
      name: 'api-key',
      ok: true,
      detail: key.source === 'environment' ? 'From the PROMPTREEL_API_KEY environment variable.' : "From VS Code's secret storage.",
    });

    let client: DoctorClient;
    try {
      client = this.deps.createClient(baseUrl);
    } catch (error) {
      return fail('models', describeError(error), t('Promptreel could not prepare the connection: {0}', describeError(error)), ['openSettings', 'showLogs'], {
        baseUrl,
      });
    }

    const headerNames = (await this.deps.extraHeaders?.(baseUrl).catch(() => [])) ?? [];
    const headersNote = headerNames.length ? t('Custom headers sent: {0}.', headerNames.join(', ')) : undefined;

    // 3. Models
    start('models');
    let models: ModelInfo[];
    let started = now();
    try {
      models = await client.listModels(options.signal);
    } catch (error) {
      const certificate = await certificateFailureOf(this.deps.inspectCertificate?.bind(this.deps), error, baseUrl);
      if (certificate)
        return fail('models', describeError(error), joinSentences([certificate.message, headersNote]), certificate.actions, {
          baseUrl,
          ...statusOf(certificate),
        });
      const explained = explainFailure(error, { ...context, step: 'models', url: `${baseUrl}/v1/models` });
      return fail('models', describeError(error), joinSentences([explained.message, headersNote]), explained.actions, { baseUrl, ...statusOf(explained) });
    }
    steps.push({
      name: 'models',
      ok: true,
      detail: `${plural(models.length, 'model')}: ${models.map((model) => model.id).join(', ') || 'none'}.`,
      durationMs: now() - started,
    });

    // 4. One-token chat completion
    const configured = this.deps.chatModel().trim();
    const chatModel = configured || chatModelsOf(models, this.deps.videoModel().trim())[0]?.id;
    if (!chatModel) {
      return fail(
        'chat',
        'No chat model configured and none listed.',
        t('Connected to {0}, but there is no chat model to test: the service lists none this key may use. Set promptreel.chat.model.', baseUrl),
        ['openSettings', 'showLogs'],
        { baseUrl, modelCount: models.length },
      );
    }
    const listed = models.length === 0 || models.some((model) => model.id === chatModel);
    start('chat');
    started = now();
    try {
      await client.createChatCompletion({ model: chatModel, messages: [{ role: 'user', content: 'Reply with OK.' }], max_tokens: 1 }, options.signal);
    } catch (error) {
      const explained = explainFailure(error, { ...context, step: 'chat', url: `${baseUrl}/v1/chat/completions`, chatModel });
      const notListed = listed ? undefined : t('({0} is not among the models this key may use.)', chatModel);
      return fail('chat', describeError(error), joinSentences([explained.message, notListed]), explained.actions, {
        baseUrl,
        modelCount: models.length,
        chatModel,
        ...statusOf(explained),
      });
    }
    const elapsed = now() - started;
    steps.push({ name: 'chat', ok: true, detail: `${chatModel} answered in ${elapsed} ms.`, durationMs: elapsed });

    // 5. The key's quota and the prices, with the same client (never a failure)
    start('account');
    const configuredVideo = this.deps.videoModel().trim();
    const videoModels = configuredVideo ? [configuredVideo] : models.filter(isVideoModel).map((model) => model.id);
    const account = await checkAccount({
      reader: client.account,
      models: [chatModel, ...videoModels.slice(0, MAX_VIDEO_PRICES)],
      priceSettings: this.deps.priceSettings?.() ?? {},
      now: now(),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    steps.push({ name: 'account', ok: true, detail: [account.quota, account.prices].filter(Boolean).join(' ') });

    const connected =
      models.length === 1
        ? t('Connected to {0} — 1 model; chat model {1} answered in {2} ms.', baseUrl, chatModel, elapsed)
        : t('Connected to {0} — {1} models; chat model {2} answered in {3} ms.', baseUrl, models.length, chatModel, elapsed);
    const message = joinSentences([
      connected,
      ...notes,
      listed ? undefined : t('Note: {0} is not in the model list of this key.', chatModel),
      headersNote,
      account.quota,
      account.prices,
    ]);
    return { ok: true, baseUrl, steps, message, actions: [], modelCount: models.length, chatModel, account };
  }
}

/** A failure to connect to an HTTPS service, explained by the certificate it presents; undefined for other failures. */
async function certificateFailureOf(
  inspect: ((baseUrl: string) => Promise<CertificateSummary | undefined>) | undefined,
  error: unknown,
  baseUrl: string,
): Promise<Explanation | undefined> {
  if (!inspect || !isApiError(error) || error.kind !== 'network' || !baseUrl.startsWith('https:')) return undefined;
  // A certificate failure, or a connection closed during or right after the handshake (a missing client certificate).
  const code = error.code ?? '';
  if (!certificateProblemOf(code) && !/^(ERR_TLS|ERR_SSL|UND_ERR_SOCKET$|ECONNRESET$)/.test(code)) return undefined;
  const summary = await inspect(baseUrl).catch(() => undefined);
  return summary ? explainCertificate(summary, certificateProblemOf(error.code), baseUrl) : undefined;
}

/** Without a video model setting, the prices of the video models the service lists, up to this many. */
const MAX_VIDEO_PRICES = 3;

function statusOf(explained: { status?: number; code?: string }): Partial<DoctorResult> {
  return { ...(explained.status ? { status: explained.status } : {}), ...(explained.code ? { code: explained.code } : {}) };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
