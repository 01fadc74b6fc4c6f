import * as vscode from 'vscode';
import { isApiError, type ChatRequest } from '../api';
import type { Connection } from '../connection/connection';
import { CommandIds } from '../common/commandIds';
import { t } from '../common/l10n';
import { codeSpan } from '../common/markdownText';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { abortOn } from '../languageModels/abortOn';
import { resolveCapabilities } from '../languageModels/core/modelInformation';
import { LANGUAGE_MODEL_VENDOR } from '../languageModels/promptreelChatProvider';
import { samplingParameters } from '../languageModels/core/requestParameters';
import { reasoningParameters } from '../languageModels/core/reasoningParameters';
import { pastTurns } from './chatHistory';
import { editorSelection, referencedContext } from './contextCollector';
import { explainRequest, questionWithContext, SYSTEM_PROMPT, withoutDuplicates, type ContextItem } from './core/contextFormat';
import { buildConversation } from './core/participantMessages';
import type { ResultMetadata } from './core/followups';
import { failureText, recoveryActions, type RecoveryAction } from './core/recovery';
import type { PromptreelClient } from '../api';
import { VideoCommandIds } from '../video/videoCommandIds';
import { keyProblem } from '../account/core/keyWarnings';

export interface ParticipantResult extends vscode.ChatResult {
  readonly metadata: ResultMetadata;
}

/** The button that fixes a problem, titled in VS Code's language. */
function actionCommand(action: RecoveryAction): vscode.Command {
  switch (action) {
    case 'setApiKey':
      return { command: CommandIds.setApiKey, title: t('Set API Key') };
    case 'selectChatModel':
      return { command: CommandIds.selectChatModel, title: t('Select Chat Model') };
    case 'videoModelSettings':
      return { command: CommandIds.openSettings, title: t('Set Video Model'), arguments: ['promptreel.video.model'] };
    case 'testConnection':
      return { command: CommandIds.testConnection, title: t('Test Connection') };
    case 'openSettings':
      return { command: CommandIds.openSettings, title: t('Open Settings'), arguments: ['promptreel.baseUrl'] };
    case 'showLogs':
      return { command: CommandIds.showLogs, title: t('Show Logs') };
    case 'trackVideoTask':
      return { command: VideoCommandIds.track, title: t('Track Video Task by ID') };
  }
}

/** The default answer of `@promptreel` and `/explain`: the chosen Promptreel model, streamed as Markdown. */
export class AnswerHandler {
  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly log: ComponentLogger,
  ) {}

  async answer(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
    kind: 'answer' | 'explain',
  ): Promise<ParticipantResult> {
    const client = await this.readyClient(stream);
    if (!client) return { metadata: { kind: 'setup' } };
    // Named before sending: what is known may be out of date, so the request still goes (the service decides).
    const problem = keyProblem(this.connection.keyHealth.state, this.connection.clock.now());
    if (problem) stream.markdown(`${t('**Note:** {0} The service will likely refuse this request.', problem)}\n\n`);
    const model = await this.modelFor(request);
    if (!model) {
      stream.markdown(t('The service lists no chat model for this key: choose the model `@promptreel` answers with (it is saved in `promptreel.chat.model`).'));
      stream.button(actionCommand('selectChatModel'));
      return { metadata: { kind: 'setup' } };
    }

    const selection = editorSelection();
    const references = await referencedContext(request.references, this.log);
    const items = withoutDuplicates([selection, ...references].filter((item): item is ContextItem => item !== undefined));
    if (kind === 'explain' && items.length === 0) {
      stream.markdown(t('Select the code to explain in an editor (or attach a file with `#`), then ask `@promptreel /explain` again.'));
      return { metadata: { kind: 'setup' } };
    }
    if (kind === 'answer' && !request.prompt.trim() && items.length === 0) {
      stream.markdown(t('Ask me anything about your code: select some code first to give me context, or try `/explain` and `/video`.'));
      return { metadata: { kind: 'setup' } };
    }
    const editor = vscode.window.activeTextEditor;
    if (selection && items.includes(selection) && editor) stream.reference(new vscode.Location(editor.document.uri, editor.selection));

    const declared = this.settings.capabilities(model);
    const chatRequest: ChatRequest = {
      model,
      messages: buildConversation({
        system: SYSTEM_PROMPT,
        developerRole: resolveCapabilities(declared).developerRole,
        history: pastTurns(context.history),
        user: kind === 'explain' ? explainRequest(items, request.prompt) : questionWithContext(request.prompt, items),
      }),
      ...samplingParameters(this.settings.chat, declared),
      ...reasoningParameters(declared),
    };
    return this.stream(client, chatRequest, stream, token, kind);
  }

  private async stream(
    client: PromptreelClient,
    chatRequest: ChatRequest,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
    kind: 'answer' | 'explain',
  ): Promise<ParticipantResult> {
    const model = chatRequest.model;
    const cancel = abortOn(token);
    const started = Date.now();
    let chars = 0;
    let thinking = false;
    try {
      stream.progress(t('Asking {0}…', model));
      for await (const event of client.streamChatCompletion(chatRequest, cancel.signal)) {
        if (event.type === 'text' && event.text) {
          chars += event.text.length;
          stream.markdown(event.text);
        } else if (event.type === 'reasoning' && !thinking && chars === 0) {
          thinking = true;
          stream.progress(t('{0} is thinking…', model));
        }
      }
      this.log.info(`@promptreel ${kind}: ${model} answered ${chars} chars in ${Date.now() - started} ms.`);
      return { metadata: { kind, model } };
    } catch (error) {
      if (cancel.signal.aborted) {
        this.log.info(`@promptreel ${kind}: cancelled after ${chars} chars.`);
        return { metadata: { kind: 'cancelled', model } };
      }
      this.log.warn(`@promptreel ${kind}: ${model} failed: ${describeError(error)}`);
      return this.failure(error, stream, model);
    } finally {
      cancel.dispose();
    }
  }

  /** The client, or undefined after telling the user (with buttons) what is missing. */
  async readyClient(stream: vscode.ChatResponseStream): Promise<PromptreelClient | undefined> {
    const client = this.connection.clients.get();
    if (!this.connection.service || !client) {
      stream.markdown(t('Promptreel needs the address of your service and an API key first.'));
      stream.button(actionCommand('setApiKey'));
      stream.button(actionCommand('openSettings'));
      return undefined;
    }
    if (!(await this.connection.hasKey())) {
      stream.markdown(t("Promptreel needs an API key for {0} first. It is kept in VS Code's secret storage.", codeSpan(this.connection.service)));
      stream.button(actionCommand('setApiKey'));
      return undefined;
    }
    return client;
  }

  /** The model picked in the chat's model picker when it is one of ours, else the chat model in use (setting, or first listed). */
  async modelFor(request: vscode.ChatRequest): Promise<string | undefined> {
    if (request.model?.vendor === LANGUAGE_MODEL_VENDOR) return request.model.id;
    return this.connection.chatModel.resolve();
  }

  /** Buttons that fix the problem, and the error VS Code shows under the answer. */
  failure(error: unknown, stream: vscode.ChatResponseStream, model?: string, actions: readonly RecoveryAction[] = recoveryActions(error)): ParticipantResult {
    for (const action of actions) stream.button(actionCommand(action));
    const text = failureText(error);
    const message = isApiError(error) && error.receivedChars ? t('{0} (the part of the answer above arrived before the failure)', text) : text;
    return { errorDetails: { message }, metadata: { kind: 'error', ...(model ? { model } : {}) } };
  }
}
