import type * as vscode from 'vscode';
import type { ComponentLogger } from '../../common/logger';
import type { Settings } from '../../config/settings';
import type { Connection } from '../../connection/connection';
import type { ChatModelList } from '../chatModelList';
import type { CodeBlockActions } from '../codeBlockActions';
import type { ConversationActions } from '../conversationActions';
import type { ChatController } from '../core/chatController';
import type { WorkspaceMentions } from '../mentions/workspaceMentions';

/** What every chat page's session (the side bar view, each editor panel) works with. */
export interface ChatServices {
  readonly controller: ChatController;
  readonly models: ChatModelList;
  readonly connection: Connection;
  readonly settings: Settings;
  readonly codeBlocks: CodeBlockActions;
  readonly conversations: ConversationActions;
  readonly mentions: WorkspaceMentions;
  readonly extensionUri: vscode.Uri;
  /** VS Code's language (BCP 47), in which the host writes the figures the page shows. */
  readonly locale: string;
  readonly log: ComponentLogger;
}
