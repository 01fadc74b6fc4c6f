import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { ChatRequest, ChatTool } from '../api/chat/request';
import type { Connection } from '../connection/connection';
import { CommandIds } from '../common/contributions';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import { showMessage } from '../workbench/showMessage';
import { showRecovery } from '../workbench/recoveryActions';
import { recoveryForMissing } from '../connection/core/recovery';
import type { Settings } from '../config/settings';
import { abortOn } from '../workbench/abortOn';
import { needsNewKey, toLanguageModelError } from './languageModelErrors';
import { toChatMessages, toChatTools } from '../chatRequest/messages';
import { chatOverridesOf } from '../chatRequest/modelOptions';
import { buildChatRequest, describeAdjustment } from '../chatRequest/chatRequestBuilder';
import { responseParts, type ResponseSummary } from './core/responseParts';
import { estimateMessageTokens, estimateTextTokens } from '../chatRequest/tokenEstimate';
import { describeUsage } from './core/usagePayload';
import { toPlainMessage, toPlainTools } from './vscodeParts';
import { usageDataPart } from './usageDataPart';
import { thinkingPart } from './thinkingPart';
import { ReasoningMemory } from './core/reasoningMemory';
import type { TokenCalibration } from './core/tokenCalibration';

/**
 * The answers of Promptreel's models in VS Code's model list: a chat request built from VS Code's messages and tools,
 * streamed back as VS Code's parts, and token counts. Its code loads when VS Code first asks (see PromptreelChatProvider).
 */
export class LanguageModelResponder {
  private readonly reasoning = new ReasoningMemory();

  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly calibration: TokenCalibration,
    private readonly log: ComponentLogger,
  ) {}

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const readiness = await this.connection.readiness();
    if (readiness.kind === 'missing') {
      const recovery = recoveryForMissing(readiness, t('Answering with {0}', model.id));
      showRecovery('warning', recovery);
      throw vscode.LanguageModelError.NoPermissions(t('Promptreel ({0}): {1}', model.id, recovery.message));
    }
    if (!(await this.connection.allowChatCharge())) throw vscode.LanguageModelError.Blocked(t('Promptreel ({0}): not sent, your budget is spent.', model.id));
    const client = readiness.client;
    const request = this.buildRequest(model, messages, options);
    const estimatedPrompt = messages.reduce((sum, message) => sum + estimateMessageTokens(toPlainMessage(message)), 0);
    const cancel = abortOn(token);
    const summary: ResponseSummary = {};
    const started = Date.now();
    let chars = 0;
    const callIds: string[] = [];
    try {
      for await (const part of responseParts(client.streamChatCompletion(request, cancel.signal), summary)) {
        if (part.kind === 'text') {
          chars += part.text.length;
          progress.report(new vscode.LanguageModelTextPart(part.text));
        } else if (part.kind === 'reasoning') {
          const thinking = thinkingPart(part.text);
          if (thinking) progress.report(thinking);
        } else {
          callIds.push(part.callId);
          progress.report(new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input));
        }
      }
      if (callIds.length && summary.reasoning) this.reasoning.remember(callIds, summary.reasoning);
      if (summary.usage) this.calibration.record(model.id, estimatedPrompt, summary.usage.promptTokens);
      // After the answer, as OpenAI sends usage last: VS Code's Chat shows it in its context-window indicator.
      const usagePart = summary.usage && usageDataPart(summary.usage);
      if (usagePart) progress.report(usagePart);
      const usage = summary.usage ? `, ${describeUsage(summary.usage)}` : ', no usage reported';
      this.log.info(
        `${model.id}: ${request.messages.length} message(s), ${request.tools?.length ?? 0} tool(s) → ${chars} chars, ${callIds.length} tool call(s), finish ${summary.finishReason ?? '?'}${usage} in ${Date.now() - started} ms.`,
      );
    } catch (error) {
      if (cancel.signal.aborted) {
        this.log.info(`${model.id}: cancelled after ${chars} chars.`);
        return;
      }
      this.log.warn(`${model.id}: the request failed: ${describeError(error)}`);
      if (needsNewKey(error)) {
        showMessage('warning', this.refusedKeyMessage(error, model.id), [{ title: t('Set API Key'), command: CommandIds.setApiKey }]);
      }
      throw toLanguageModelError(error, model.id, this.connection.service);
    } finally {
      cancel.dispose();
    }
  }

  async provideTokenCount(model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    const estimate = typeof text === 'string' ? estimateTextTokens(text) : estimateMessageTokens(toPlainMessage(text));
    return this.calibration.calibrate(model.id, estimate);
  }

  /** The notification for a failure only a new key fixes (no key, or the key refused). */
  private refusedKeyMessage(error: unknown, model: string): string {
    if (!isApiError(error) || error.kind !== 'no-key') return t('Promptreel could not answer with {0}: {1}', model, describeError(error));
    const service = this.connection.service;
    return service
      ? t('Promptreel could not answer with {0}: there is no API key for {1}', model, service)
      : t('Promptreel could not answer with {0}: there is no API key for the service', model);
  }

  private buildRequest(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
  ): ChatRequest {
    // The same answer VS Code's model list was given (settings over the model list's limits).
    const capabilities = this.connection.catalog.capabilitiesOf(model.id);
    const tools = toChatTools(toPlainTools(options.tools ?? []));
    const { request, adjustments } = buildChatRequest(
      {
        model: model.id,
        messages: toChatMessages(messages.map(toPlainMessage), { reasoningOf: (callIds) => this.reasoning.recall(callIds) }),
        settings: this.settings.chat,
        // What the caller put in modelOptions, over the model picker's choices (newer VS Code: `modelConfiguration`).
        overrides: chatOverridesOf(options.modelOptions, (options as { modelConfiguration?: unknown }).modelConfiguration),
        tools,
        ...(tools.length ? { toolChoice: toolChoice(options.toolMode, tools) } : {}),
      },
      capabilities,
    );
    for (const adjustment of adjustments) this.log.info(`${model.id}: ${describeAdjustment(adjustment, model.id)}`);
    return request;
  }
}

/** Required mode with one tool names it (the form every gateway understands); with several, `required`. */
function toolChoice(mode: vscode.LanguageModelChatToolMode, tools: readonly ChatTool[]): ChatRequest['tool_choice'] {
  if (mode !== vscode.LanguageModelChatToolMode.Required) return 'auto';
  return tools.length === 1 ? { type: 'function', function: { name: tools[0].function.name } } : 'required';
}
