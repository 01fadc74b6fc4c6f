import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { lostBecause, mayHaveCreated } from '../api/video/mayHaveCreated';
import { systemClock } from '../common/clock';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import { checkPrompt } from './core/promptCheck';
import { shortenPrompt } from './core/taskModel';
import type { VideoTaskStore } from './core/taskStore';
import { callKey, ToolCallLedger } from './core/toolCallLedger';
import { parseToolInput, toolConfirmation, toolOptions } from './core/toolInput';
import { defaultOptions, optionsFromRequest, toCreateRequest } from './core/videoOptions';
import type { StoredCreateRequest } from './core/videoTaskRecord';
import { limitsOf } from './modelLimits';
import { followTask } from './followTask';
import type { VideoApproval, VideoCreator } from './videoCreator';
import type { VideoDownloader } from './videoDownloader';
import { confirmQuoteInModal } from '../workbench/chargeConfirmation';

export interface VideoToolDeps {
  settings: Settings;
  connection: Connection;
  store: VideoTaskStore;
  creator: VideoCreator;
  downloader: VideoDownloader;
  log: ComponentLogger;
  /** Whether VS Code shows the tool's confirmation before every call (`vscodeAlwaysConfirmsVideoTool`). */
  vscodeAlwaysConfirms(): boolean;
}

type Plan = { request: StoredCreateRequest; key: string } | { problem: string };

/**
 * Generate Video as a tool for VS Code's agent and for callers of `vscode.lm.invokeTool`. `prepareInvocation` returns
 * the confirmation (price, prompt, model, settings, checks); VS Code shows it inline in a chat, or as a modal dialog
 * when the call comes from outside one (an extension's own tool loop), and never offers to approve it automatically
 * (see `chat.tools.eligibleForAutoApproval` in package.json's configurationDefaults; before VS Code 1.106, `invoke`
 * asks instead). `invoke` then creates exactly one task per call, follows it and downloads it.
 */
export class VideoTool implements vscode.LanguageModelTool<unknown> {
  private readonly ledger = new ToolCallLedger<vscode.LanguageModelToolResult>(systemClock);

  constructor(private readonly deps: VideoToolDeps) {}

  /**
   * The confirmation VS Code shows before `invoke`: the charge gate's quote of the exact request, held until the call
   * comes (VS Code calls `invoke` only once the user allowed it).
   */
  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): Promise<vscode.PreparedToolInvocation> {
    const plan = await this.plan(options.input);
    if ('problem' in plan) return { invocationMessage: t('Promptreel cannot generate this video') };
    const defaults = defaultOptions(this.deps.settings.video);
    const charges = await this.deps.connection.videoCharges();
    const [quote, limits] = await Promise.all([charges.quote([plan.request]), limitsOf(this.deps.settings, this.deps.connection, plan.request.model)]);
    const problems = checkPrompt({ prompt: plan.request.prompt, seconds: plan.request.seconds ?? defaults.seconds, model: plan.request.model }, limits);
    charges.hold(plan.key, quote);
    const invocationMessage = t('Generating a video with {0}: "{1}"', plan.request.model, shortenPrompt(plan.request.prompt, 60));
    // A VS Code that ignores `chat.tools.eligibleForAutoApproval` (before 1.106) skips its confirmation once the user
    // chose "Always Allow" for the tool, or with `chat.tools.global.autoApprove`: there it is not asked for, and
    // `invoke` confirms the held quote in Promptreel's modal instead. One confirmation with the price, that nothing skips.
    if (!this.deps.vscodeAlwaysConfirms()) return { invocationMessage };
    const confirmation = toolConfirmation(plan.request.prompt, optionsFromRequest(plan.request, defaults), quote, problems);
    return { invocationMessage, confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) } };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const plan = await this.plan(options.input);
    // Thrown errors reach the model as the tool's failure: nothing was sent.
    if ('problem' in plan) throw new Error(plan.problem);
    const call = callKey(options.toolInvocationToken, { ...plan.request });
    const charges = await this.deps.connection.videoCharges();
    // A call made again shares the first one's result (below): nothing to confirm for it.
    const approval = this.ledger.has(call) ? undefined : this.deps.vscodeAlwaysConfirms() ? charges.approveHeld(plan.key) : await this.confirmHeld(plan.key);
    const { result, repeated } = this.ledger.run(call, () => {
      if (!approval) throw new Error('The user has not confirmed this video and its price: nothing was sent. Call the tool again so VS Code asks the user.');
      return this.run(approval, token);
    });
    if (!repeated) return result;
    this.deps.log.info('Video tool: the same call again; answering with the task it already made.');
    const first = await result;
    return text(`This call was already made (the same input, moments ago), so no second task was created. ${partsText(first)}`);
  }

  /**
   * The user's answer to Promptreel's own confirmation of the quote held for this call (see `prepareInvocation`):
   * its approval, undefined when nothing is held, and a cancellation when the user declines (as when they cancel VS
   * Code's confirmation).
   */
  private async confirmHeld(key: string): Promise<VideoApproval | undefined> {
    const charges = await this.deps.connection.videoCharges();
    const quote = charges.takeHeld(key);
    const request = quote?.requests[0];
    if (!quote || !request) return undefined;
    const options = optionsFromRequest(request, defaultOptions(this.deps.settings.video));
    const limits = await limitsOf(this.deps.settings, this.deps.connection, request.model);
    const problems = checkPrompt({ prompt: request.prompt, seconds: options.seconds, model: request.model }, limits);
    const approval = await confirmQuoteInModal(charges, quote, {
      title: t('An agent asks for this video. Generate it?'),
      lines: [
        `“${shortenPrompt(request.prompt, 120)}”`,
        [options.model, t('{0} s', options.seconds), options.resolution, options.ratio].join(' · '),
        ...problems.map((problem) => problem.message),
      ],
      action: t('Generate Video'),
    });
    if (!approval) throw new vscode.CancellationError();
    return approval;
  }

  /** What the call would send and what its confirmation says, or why it cannot be made. Sends nothing. */
  private async plan(raw: unknown): Promise<Plan> {
    const parsed = parseToolInput(raw);
    if ('problem' in parsed) return parsed;
    if (!(await this.deps.connection.readyClient())) {
      return { problem: 'Promptreel is not connected: the user must set the service address and API key (Promptreel: Set API Key) first.' };
    }
    const options = toolOptions(parsed.input, defaultOptions(this.deps.settings.video));
    if (!options.model) return { problem: 'No video model is set: pass "model", or the user sets promptreel.video.model.' };
    const request = toCreateRequest(parsed.input.prompt, options);
    // The confirmation is found again by what was asked: the request it showed is sent, whatever changed meanwhile.
    return { request, key: JSON.stringify(parsed.input) };
  }

  private async run(approval: VideoApproval, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const request = approval.quote.requests[0];
    if (!request) return text('Nothing was confirmed: no video task was created.');
    const controller = new AbortController();
    if (token.isCancellationRequested) controller.abort();
    const cancelled = token.onCancellationRequested(() => controller.abort());
    let id: string;
    try {
      // The signal stops the create only before anything is sent: a request on its way runs to its answer.
      id = (await this.deps.creator.createOrThrow(approval, { signal: controller.signal })).id;
    } catch (error) {
      return text(this.createFailed(error));
    } finally {
      cancelled.dispose();
    }
    this.deps.log.info(`Video tool: task ${id} created; following it.`);
    const final = await followTask(this.deps.store, id, request.prompt, token);
    if (!final || (final.state !== 'completed' && final.state !== 'failed')) {
      return text(`Stopped following video task ${id}: it keeps running on the service. The user finds it under Video Tasks, with Download when it is done.`);
    }
    if (final.state === 'failed') return text(`The video task ${id} failed: ${final.error ?? 'the service gave no reason'}.`);
    const saved = await this.deps.downloader.download(id, { automatic: true });
    if (saved.kind === 'saved') {
      const uri = saved.uri;
      return text(`The video is ready (task ${id}) and saved to ${vscode.workspace.asRelativePath(uri, false)} (${uri.toString()}).`);
    }
    const why = saved.kind === 'failed' ? saved.shown.message : 'there is no workspace folder to save it in';
    return text(`The video task ${id} is complete, but it was not downloaded: ${why} The user can download it from Video Tasks.`);
  }

  private createFailed(error: unknown): string {
    if (isApiError(error) && error.kind === 'aborted') return 'Cancelled before anything was sent: no video task was created.';
    this.deps.log.warn(`Video tool: creating the task failed: ${describeError(error)}`);
    if (isApiError(error) && mayHaveCreated(error)) {
      return `The answer to the video request was lost (${lostBecause(error)}): the task may exist and be charged, so it was not sent again. It is listed under Video Tasks as "answer lost"; do not call this tool again for it.`;
    }
    return `Creating the video task failed, and nothing was created: ${describeError(error)}${isApiError(error) ? ` ${error.hint}` : ''}`;
  }
}

function partsText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

function text(value: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);
}
