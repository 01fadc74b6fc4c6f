// Pinned by `npm run bench -- --only startup`: the JS loaded at activation, and activation in the real host.
// First: every module's t('…') is vscode.l10n.t from here on (see src/api/l10n.ts).
import './workbench/l10n';
import * as vscode from 'vscode';
import { systemClock } from './common/clock';
import { AccountFeature, registerAccountCommands } from './account/accountFeature';
import { ApiKeyStore } from './connection/keys/apiKeyStore';
import { ApiKeyContext } from './auth/apiKeyContext';
import { SecretHeaderStore } from './connection/keys/secretHeaderStore';
import { ServiceTrust } from './connection/keys/core/serviceTrust';
import { ClientProvider } from './connection/clientProvider';
import { describeExtraHeaders } from './connection/core/requestExtrasMerge';
import { Connection } from './connection/connection';
import { GeneralCommands } from './commands/generalCommands';
import type { ChatFeature } from './chatPanel/chatFeature';
import { registerChatSurfaces } from './chatPanel/chatSurfaces';
import { LazyFeature } from './workbench/lazyFeature';
import type { CommandHandler } from './workbench/registerCommands';
import { CommandIds } from './common/contributions';
import { DisposableStore } from './common/lifecycle';
import { Logger } from './common/logger';
import { SecretRedactor } from './common/redactor';
import { Settings } from './config/settings';
import type { EditorStreamCommands } from './editorStream/editorStreamCommands';
import { ChatModelChoice } from './connection/core/chatModelChoice';
import { ModelCatalog } from './connection/core/modelCatalog';
import { PromptreelChatProvider } from './languageModels/promptreelChatProvider';
import { PromptreelParticipant, type ParticipantHandlers } from './participant/promptreelParticipant';
import { ChatModelStatusBar } from './statusBar/chatModelStatusBar';
import { VideoRuntime } from './video/videoRuntime';
import { t } from './api/l10n';
import type { StartupReport } from './startup/startupReport';

/**
 * What the host tests reach the extension through (`testApi()` builds it from `PromptreelTestHandles`, which
 * `activate()` returns only when VS Code runs the extension's tests, never to other extensions in normal use): the
 * public object of each feature and of the connection they share. What these own (the key store, the
 * clients…) is reached through them; commands and settings through VS Code.
 */
export interface PromptreelTestApi {
  /** The service as the features see it: key store, clients, model catalog, chat model, key health, prices, the charge gate. */
  readonly connection: Connection;
  /** The chat panel: conversations, the controller that streams replies, the view, editor panels, Ask About Selection. */
  readonly chat: ChatFeature;
  /** Video tasks: the runtime (store, poller, view, commands, downloads, player). */
  readonly video: VideoRuntime;
  /** Complete at Cursor / Rewrite Selection, and the rewrites waiting in a diff. */
  readonly editorStream: { readonly commands: EditorStreamCommands; readonly proposals: EditorStreamCommands['proposals'] };
  /** The `vscode.lm` provider of the `promptreel` vendor and its model list (Manage is the command `promptreel.manageLanguageModels`). */
  readonly languageModels: { readonly provider: PromptreelChatProvider; readonly catalog: ModelCatalog };
  /** The `@promptreel` chat participant (its handler and follow-ups are called directly by tests). */
  readonly participant: PromptreelParticipant;
  /** The key's quota and expiry in the status bar. */
  readonly account: AccountFeature;
  /** The chat model and the running video tasks in the status bar. */
  readonly statusBar: ChatModelStatusBar;
  /** The `promptreel.hasApiKey` context key (VS Code cannot read a context key back: tests read it here). */
  readonly auth: { readonly hasApiKey: ApiKeyContext };
  /** VS Code's storage of this window, so tests can play "another window" changing it, or reload a store from it. */
  readonly storage: { readonly global: vscode.Memento; readonly workspace: vscode.Memento; readonly secrets: vscode.SecretStorage };
  /** The log: the logger every line goes through (a test adds a sink to read the lines) and the output channel's file. */
  readonly log: { readonly logger: Logger; readonly file: vscode.Uri };
  /** How src/start.ts loaded this bundle (its V8 code cache); undefined when something loaded dist/extension.js directly. */
  readonly startup: StartupReport | undefined;
}

/**
 * What `activate()` returns in test mode: `PromptreelTestApi`, except that the features loaded on first use are handed
 * out still unloaded, so that activating under test costs what it costs a user (the host tests' `testApi()` loads them).
 */
export interface PromptreelTestHandles extends Omit<PromptreelTestApi, 'chat' | 'editorStream'> {
  readonly chat: { get(): Promise<ChatFeature> };
  readonly editorStream: { readonly commands: { get(): Promise<EditorStreamCommands> } };
}

/** What must finish before the extension is disposed (set by `activate`). */
let stopping: (() => Promise<void>) | undefined;

/** The composition root: builds every object, hands collaborators through constructors, and one store to VS Code. */
export function activate(context: vscode.ExtensionContext, startup?: StartupReport): PromptreelTestHandles | undefined {
  const store = new DisposableStore();
  context.subscriptions.push(store);

  const output = store.add(vscode.window.createOutputChannel('Promptreel', { log: true }));
  const redactor = new SecretRedactor();
  const logger = new Logger(output, redactor);
  const version = String(context.extension.packageJSON.version ?? '0.0.0');

  const settings = store.add(new Settings(logger.forComponent('config')));
  const trust = store.add(new ServiceTrust(context.globalState, () => settings.baseUrlLevels(), logger.forComponent('auth')));
  const keyStore = store.add(new ApiKeyStore(context.secrets, settings, redactor, logger.forComponent('auth'), trust));
  const secretHeaders = store.add(new SecretHeaderStore(context.secrets, redactor, logger.forComponent('auth')));
  const clients = store.add(
    new ClientProvider(
      settings,
      keyStore,
      logger.forComponent('api'),
      `Promptreel/${version} VSCode/${vscode.version}`,
      redactor,
      secretHeaders,
      context.secrets,
    ),
  );
  const modelCatalog = store.add(new ModelCatalog(settings, keyStore, clients, logger.forComponent('models')));
  const chatModel = store.add(new ChatModelChoice(settings, modelCatalog));
  const connection = store.add(
    new Connection(keyStore, clients, modelCatalog, chatModel, settings, logger.forComponent('account'), systemClock, context.globalState),
  );

  store.add(new GeneralCommands(context.extension.id, output));
  const hasApiKey = store.add(new ApiKeyContext(keyStore, logger.forComponent('auth')));
  // Setting up the service (the key, secret headers, the certificate's passphrase, the chat model, Manage in VS Code's
  // model picker): their code loads when one of them is first run.
  const connectionCommands = store.add(
    new LazyFeature(
      'connection commands',
      async () => {
        const [{ ApiKeyCommands }, { SecretHeaderCommands }, { ClientCertificateCommands }, { SelectChatModelCommand }, { ManageModelsCommand }] =
          await Promise.all([
            import('./auth/apiKeyCommands'),
            import('./auth/secretHeaderCommands'),
            import('./auth/clientCertificateCommands'),
            import('./commands/selectChatModel'),
            import('./languageModels/manageModelsCommand'),
          ]);
        const handlers: Readonly<Record<string, CommandHandler>> = {
          ...new ApiKeyCommands(keyStore, settings, logger.forComponent('auth')).handlers,
          ...new SecretHeaderCommands(secretHeaders, settings).handlers,
          ...new ClientCertificateCommands(context.secrets, redactor).handlers,
          ...new SelectChatModelCommand(settings, connection, logger.forComponent('models')).handlers,
          ...new ManageModelsCommand(modelCatalog).handlers,
        };
        return { handlers };
      },
      logger.forComponent('main'),
    ),
  );
  store.add(
    connectionCommands.registerCommands(
      [
        CommandIds.setApiKey,
        CommandIds.clearApiKey,
        CommandIds.confirmService,
        CommandIds.setSecretHeader,
        CommandIds.removeSecretHeader,
        CommandIds.setClientCertificatePassphrase,
        CommandIds.selectChatModel,
        CommandIds.manageLanguageModels,
      ],
      (commands) => commands.handlers,
    ),
  );
  const connectionTest = store.add(
    new LazyFeature(
      'connection test',
      async () => {
        const [{ ConnectionDoctor }, { TestConnectionCommand }, { inspectServerCertificate }, { confirmService }] = await Promise.all([
          import('./doctor/core/connectionDoctor'),
          import('./doctor/testConnectionCommand'),
          import('./api/tls/inspectCertificate'),
          import('./workbench/confirmService'),
        ]);
        const doctor = new ConnectionDoctor({
          baseUrlInput: () => settings.baseUrl,
          apiKey: () => keyStore.get(),
          createClient: (baseUrl) => clients.create({ baseUrl, retry: { retries: 0 } }),
          chatModel: () => settings.chat.model,
          videoModel: () => settings.video.model,
          priceSettings: () => settings.userValue('models.prices'),
          inspectCertificate: async (baseUrl) => inspectServerCertificate(baseUrl, { secureContext: await clients.secureContext().catch(() => undefined) }),
          extraHeaders: async (baseUrl) => describeExtraHeaders(settings.get('requestOptions'), await secretHeaders.get(baseUrl)),
        });
        return new TestConnectionCommand(doctor, logger.forComponent('doctor'), () => confirmService(keyStore, t('Test Connection')));
      },
      logger.forComponent('main'),
    ),
  );
  store.add(connectionTest.registerCommands([CommandIds.testConnection], (command) => command.handlers));
  const video = store.add(
    new VideoRuntime({
      globalState: context.globalState,
      windowState: context.workspaceState,
      settings,
      connection,
      logger,
      extensionUri: context.extensionUri,
    }),
  );
  stopping = () => video.poller.stop();
  const statusBar = store.add(new ChatModelStatusBar(chatModel, video));
  const account = store.add(new AccountFeature(connection, settings, context.globalState, logger.forComponent('account'), context.extensionUri));
  store.add(registerAccountCommands(connection, account.usage));
  const chat = store.add(
    new LazyFeature(
      'chat panel',
      async () => new (await import('./chatPanel/chatFeature')).ChatFeature(context.workspaceState, context.extensionUri, settings, connection, logger),
      logger.forComponent('main'),
    ),
  );
  store.add(registerChatSurfaces(chat, logger.forComponent('chat')));
  const editorCommands = store.add(
    new LazyFeature(
      'editor commands',
      async () =>
        new (await import('./editorStream/editorStreamCommands')).EditorStreamCommands(
          settings,
          connection,
          context.globalState,
          logger.forComponent('editor'),
        ),
      logger.forComponent('main'),
    ),
  );
  const { completeAtCursor, rewriteSelection, cancelEditorStream, retryEditorStreamNow, acceptRewrite, rejectRewrite } = CommandIds.editor;
  store.add(
    editorCommands.registerCommands(
      [completeAtCursor, rewriteSelection, cancelEditorStream, retryEditorStreamNow, acceptRewrite, rejectRewrite],
      (commands) => commands.handlers,
    ),
  );
  const editorStream = { commands: editorCommands };
  const languageModels = {
    provider: store.add(new PromptreelChatProvider(settings, connection, logger.forComponent('lm'))),
    catalog: modelCatalog,
  };
  const participantLog = logger.forComponent('participant');
  const participantHandlers = store.add(
    new LazyFeature(
      'chat participant',
      async (): Promise<ParticipantHandlers> => {
        const [{ AnswerHandler }, { VideoCommand }, { ParticipantVideoTasksAdapter }, { FilmChatCommand }] = await Promise.all([
          import('./participant/answerHandler'),
          import('./video/chatVideoCommand'),
          import('./video/chatVideoTasks'),
          import('./video/film/chatFilmCommand'),
        ]);
        const videoTasks = new ParticipantVideoTasksAdapter(video, settings, connection);
        return {
          answers: new AnswerHandler(settings, connection, participantLog),
          video: new VideoCommand(videoTasks, connection, participantLog),
          film: new FilmChatCommand(video, settings, connection, participantLog),
        };
      },
      logger.forComponent('main'),
    ),
  );
  const participant = store.add(new PromptreelParticipant(context.extensionUri, () => participantHandlers.get(), participantLog));

  const mainLog = logger.forComponent('main');
  mainLog.info(`Promptreel ${version} activated in VS Code ${vscode.version}.`);
  if (startup) {
    mainLog.debug(`Code cache: ${startup.codeCache}${startup.cacheFile ? ` (${startup.cacheFile})` : ''}.`);
    void startup.cacheWritten.then((written) => written && mainLog.debug('Code cache written for the next window.'));
  }

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    connection,
    chat,
    video,
    editorStream,
    languageModels,
    participant,
    account,
    statusBar,
    auth: { hasApiKey },
    storage: { global: context.globalState, workspace: context.workspaceState, secrets: context.secrets },
    log: { logger, file: vscode.Uri.joinPath(context.logUri, 'Promptreel.log') },
    startup,
  };
}

/**
 * Before VS Code disposes everything: the window gives up polling and waits until its lease is written, so the next
 * window (this one after a reload) polls at once rather than after the lease expires.
 */
export function deactivate(): Promise<void> | undefined {
  return stopping?.();
}
