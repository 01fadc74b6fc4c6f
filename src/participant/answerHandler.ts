import { LANGUAGE_MODEL_VENDOR } from '../common/contributions';
import * as vscode from 'vscode';
import type { ChatRequest } from '../api/chat/request';
import type { Connection } from '../connection/connection';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { abortOn } from '../workbench/abortOn';
import { buildChatRequest, describeAdjustment } from '../chatRequest/chatRequestBuilder';
import { escapeMarkdown } from '../common/markdownText';
import { pastTurns } from './chatHistory';
import { editorSelection, referencedContext } from '../workbench/chatContext';
import { explainRequest, questionWithContext, SYSTEM_PROMPT, withoutDuplicates, type ContextItem } from './core/contextFormat';
import { buildConversation } from './core/participantMessages';
import { readyForChat, type ParticipantResult } from '../workbench/chatParticipant';
import { participantFailure } from './participantFailure';
import { recoveryCommand } from '../workbench/recoveryActions';
import type { ServiceClient } from '../api/serviceClient';
import type { Usage } from '../api/chat/events';
import type { ReplyRef } from '../connection/account/core/chargedCosts';
import { costFooter } from './core/costFooter';

/** How long an answer waits, at most, for the key's log to say what it was charged. */
const CHARGE_WAIT_MS = 5_000;

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
    const client = await readyForChat(this.connection, stream);
    if (!client) return { metadata: { kind: 'setup' } };
    if (!(await this.connection.allowChatCharge())) {
      stream.markdown(t('Not sent: your budget is spent. Change it in the settings (`promptreel.account.dailyBudget`, `promptreel.account.monthlyBudget`).'));
      return { metadata: { kind: 'setup' } };
    }
    // Named before sending: what is known may be out of date, so the request still goes (the service decides).
    const problem = this.connection.keyProblem();
    if (problem) stream.markdown(`${t('**Note:** {0} The service will likely refuse this request.', problem)}\n\n`);
    // The price of the reply is its estimate: known before it ends, when the service publishes its prices.
    void this.connection.prices.prices();
    const model = await this.modelFor(request);
    if (!model) {
      stream.markdown(t('The service lists no chat model for this key: choose the model `@promptreel` answers with (it is saved in `promptreel.chat.model`).'));
      const select = recoveryCommand('selectChatModel');
      if (select) stream.button(select);
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

    const { request: chatRequest, adjustments } = buildChatRequest(
      {
        model,
        instructions: SYSTEM_PROMPT,
        messages: buildConversation({
          history: pastTurns(context.history),
          user: kind === 'explain' ? explainRequest(items, request.prompt) : questionWithContext(request.prompt, items),
        }),
        settings: this.settings.chat,
      },
      this.connection.catalog.capabilitiesOf(model),
    );
    for (const adjustment of adjustments) stream.markdown(`${t('**Note:** {0}', escapeMarkdown(describeAdjustment(adjustment, model)))}\n\n`);
    return this.stream(client, chatRequest, stream, token, kind);
  }

  private async stream(
    client: ServiceClient,
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
    let usage: Usage | undefined;
    let requestId: string | undefined;
    try {
      stream.progress(t('Asking {0}…', model));
      for await (const event of client.streamChatCompletion(chatRequest, cancel.signal)) {
        if (event.type === 'text' && event.text) {
          chars += event.text.length;
          stream.markdown(event.text);
        } else if (event.type === 'reasoning' && !thinking && chars === 0) {
          thinking = true;
          stream.progress(t('{0} is thinking…', model));
        } else if (event.type === 'usage') {
          usage = event.usage;
        } else if (event.type === 'request-id') {
          requestId = event.requestId;
        }
      }
      this.log.info(`@promptreel ${kind}: ${model} answered ${chars} chars in ${Date.now() - started} ms.`);
      await this.showCost({ model, at: Date.now(), ...(usage ? { usage } : {}), ...(requestId ? { requestId } : {}) }, stream, cancel.signal);
      return { metadata: { kind, model } };
    } catch (error) {
      if (cancel.signal.aborted) {
        this.log.info(`@promptreel ${kind}: cancelled after ${chars} chars.`);
        return { metadata: { kind: 'cancelled', model } };
      }
      this.log.warn(`@promptreel ${kind}: ${model} failed: ${describeError(error)}`);
      return participantFailure(error, stream, model);
    } finally {
      cancel.dispose();
    }
  }

  /**
   * VS Code's Chat has no place for a reply's price (its usage part counts tokens and Copilot's credits only), so the
   * answer ends with it: the estimate, and what the key's log charged when the service publishes one (read once, soon).
   */
  private async showCost(reply: ReplyRef, stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<void> {
    // No progress message while waiting: VS Code's Chat would fold the answer above it into its steps.
    const settled = await this.connection.charges.settleReply(reply, { waitMs: CHARGE_WAIT_MS, signal });
    const footer = costFooter(settled);
    if (footer) stream.markdown(`\n\n_${escapeMarkdown(footer)}_`);
  }

  /** The model picked in the chat's model picker when it is one of ours, else the chat model in use (setting, or first listed). */
  async modelFor(request: vscode.ChatRequest): Promise<string | undefined> {
    if (request.model?.vendor === LANGUAGE_MODEL_VENDOR) return request.model.id;
    return this.connection.chatModel.resolve();
  }
}
