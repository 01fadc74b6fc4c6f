import type * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { ReplyCharges } from './core/replyCharges';
import { CommandIds } from '../common/contributions';
import { Disposable } from '../common/lifecycle';
import type { CommandHandler } from '../workbench/registerCommands';
import type { Logger } from '../common/logger';
import type { Settings } from '../config/settings';
import { AskAboutSelection } from './askAboutSelection';
import { ChatCommands } from './chatCommands';
import { ChatController } from './core/chatController';
import { ChatModelList } from './chatModelList';
import { ChatPanels } from './webview/chatPanels';
import { ChatViewProvider } from './webview/chatViewProvider';
import { CodeBlockActions } from './codeBlockActions';
import { ConversationActions } from './conversationActions';
import { ConversationStore } from './core/conversationStore';
import { WorkspaceMentions } from './mentions/workspaceMentions';
import { ChatToolbox } from './tools/chatToolbox';
import { pageLanguage } from '../workbench/webview/webviewHost';

/** The chat panel's objects, wired together: built on the panel's first use (see chatSurfaces.ts); tests reach its parts. */
export class ChatFeature extends Disposable {
  readonly store: ConversationStore;
  readonly controller: ChatController;
  readonly models: ChatModelList;
  readonly view: ChatViewProvider;
  readonly panels: ChatPanels;
  readonly ask: AskAboutSelection;
  readonly commands: ChatCommands;
  readonly codeBlocks: CodeBlockActions;
  readonly conversations: ConversationActions;
  readonly mentions: WorkspaceMentions;
  /** The handler of each chat command, which chatSurfaces.ts registers at activation. */
  readonly commandHandlers: Readonly<Record<string, CommandHandler>>;

  constructor(workspaceState: vscode.Memento, extensionUri: vscode.Uri, settings: Settings, connection: Connection, logger: Logger) {
    super();
    const log = logger.forComponent('chat');
    this.store = this._register(new ConversationStore(workspaceState, { warn: (message) => log.warn(message) }));
    this._register(new ReplyCharges(this.store, connection.charges));
    this.models = this._register(new ChatModelList(settings, connection, log));
    this.mentions = this._register(new WorkspaceMentions(log));
    this.controller = this._register(
      new ChatController(this.store, settings, connection, log, {
        firstListedModel: (signal) => connection.chatModel.resolve(signal),
        priceOf: (model) => connection.prices.priceOf(model),
        capabilitiesOf: (model) => connection.catalog.capabilitiesOf(model),
        toolbox: new ChatToolbox(settings, this.mentions.files, log),
      }),
    );
    this.codeBlocks = this._register(new CodeBlockActions(log));
    this.conversations = new ConversationActions(this.controller, log);
    const services = {
      controller: this.controller,
      models: this.models,
      connection,
      settings,
      codeBlocks: this.codeBlocks,
      conversations: this.conversations,
      mentions: this.mentions,
      extensionUri,
      locale: pageLanguage(),
      log,
    };
    this.view = this._register(new ChatViewProvider(services));
    this.panels = this._register(new ChatPanels(services, log));
    this.ask = new AskAboutSelection(this.view, this.controller, log);
    this.commands = new ChatCommands(this.controller, this.view, this.panels, this.conversations);
    this.commandHandlers = { ...this.commands.handlers, [CommandIds.chat.askAboutSelection]: (args?: unknown) => this.ask.run(args) };
  }
}
