import * as vscode from 'vscode';
import { ApiKeyCommands } from './auth/apiKeyCommands';
import { ApiKeyContext } from './auth/apiKeyContext';
import { ApiKeyStore } from './auth/apiKeyStore';
import { ClientProvider } from './client/clientProvider';
import { GeneralCommands } from './commands/generalCommands';
import { SelectChatModelCommand } from './commands/selectChatModel';
import { DisposableStore } from './common/lifecycle';
import { Logger } from './common/logger';
import { SecretRedactor } from './common/redactor';
import { Settings } from './config/settings';
import { ConnectionDoctor } from './doctor/connectionDoctor';
import { TestConnectionCommand } from './doctor/testConnectionCommand';
import { ChatModelStatusBar } from './statusBar/chatModelStatusBar';
import { noRunningVideoTasks } from './statusBar/runningVideoTasks';

/** Handles returned by `activate()` only when VS Code runs the extension's tests (never to other extensions in normal use). */
export interface PromptreelTestApi {
  readonly logger: Logger;
  readonly settings: Settings;
  readonly keyStore: ApiKeyStore;
  readonly keyContext: ApiKeyContext;
  readonly clients: ClientProvider;
  readonly doctor: ConnectionDoctor;
  readonly statusBar: ChatModelStatusBar;
  readonly logUri: vscode.Uri;
  /** The raw storage, so tests can play "another window" changing the key behind the store's back. */
  readonly secrets: vscode.SecretStorage;
}

/** The composition root: builds every object, hands collaborators through constructors, and one store to VS Code. */
export function activate(context: vscode.ExtensionContext): PromptreelTestApi | undefined {
  const store = new DisposableStore();
  context.subscriptions.push(store);

  const output = store.add(vscode.window.createOutputChannel('Promptreel', { log: true }));
  const redactor = new SecretRedactor();
  const logger = new Logger(output, redactor);
  const version = String(context.extension.packageJSON.version ?? '0.0.0');

  const settings = store.add(new Settings(logger.forComponent('config')));
  const keyStore = store.add(new ApiKeyStore(context.secrets, settings, redactor, logger.forComponent('auth')));
  const keyContext = store.add(new ApiKeyContext(keyStore, logger.forComponent('auth')));
  const clients = store.add(new ClientProvider(settings, keyStore, logger.forComponent('api'), `Promptreel/${version} VSCode/${vscode.version}`));
  const doctor = new ConnectionDoctor({
    baseUrlInput: () => settings.baseUrl,
    apiKey: () => keyStore.get(),
    createClient: (baseUrl) => clients.create({ baseUrl, retry: { retries: 0 } }),
    chatModel: () => settings.chat.model,
    videoModel: () => settings.video.model,
  });

  store.add(new GeneralCommands(context.extension.id, output));
  store.add(new ApiKeyCommands(keyStore, settings, logger.forComponent('auth')));
  store.add(new TestConnectionCommand(doctor, logger.forComponent('doctor')));
  store.add(new SelectChatModelCommand(settings, keyStore, clients, logger.forComponent('models')));
  const statusBar = store.add(new ChatModelStatusBar(settings, noRunningVideoTasks));

  logger.forComponent('main').info(`Promptreel ${version} activated in VS Code ${vscode.version}.`);

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { logger, settings, keyStore, keyContext, clients, doctor, statusBar, logUri: context.logUri, secrets: context.secrets };
}

export function deactivate(): void {}
