import { ensureReady } from '../workbench/readiness';
import { CommandIds } from '../common/contributions';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { mayHaveCreated } from '../api/video/mayHaveCreated';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import { joinSentences } from '../api/sentences';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import { showMessage, type ShownMessage } from '../workbench/showMessage';
import { askPrompt, reviewOptions } from './createVideoFlow';
import { checkPrompt } from './core/promptCheck';
import { shortenPrompt } from './core/taskModel';
import { capVariants, describeDurations, describeSeeds, parsePromptList, seedVariants, type Variant } from './core/variants';
import { MAX_VIDEO_SEED } from '../api/video/request';
import { confirmChargeInModal } from '../workbench/chargeConfirmation';
import { defaultOptions, toCreateRequest, type VideoOptions } from './core/videoOptions';
import type { StoredCreateRequest, TaskGroup, VideoTaskRecord } from './core/videoTaskRecord';
import { limitsOf, reviewSources } from './modelLimits';
import { VariantsText as T } from './studioText';
import type { VideoApproval, VideoCreator } from './videoCreator';

export type VariantsOutcome =
  { kind: 'created'; tasks: VideoTaskRecord[] } | { kind: 'stopped'; tasks: VideoTaskRecord[]; notSent: number; shown: ShownMessage } | { kind: 'not-ready' };

export interface VariantsDeps {
  settings: Settings;
  connection: Connection;
  creator: VideoCreator;
  log: ComponentLogger;
}

/** What the user chose: the variants, the options they share, and what the confirmation must also say. */
interface Plan {
  variants: Variant[];
  options: VideoOptions;
  label: string;
  notes: string[];
}

/**
 * Generate Variants: N tasks from one prompt (each with its own seed) or from a file of prompts, capped by
 * `promptreel.video.maxVariants`. One confirmation shows the total price; then one POST per task, in turn, never
 * retried; Cancel stops what is not sent yet. The tasks form one group in the tree and the gallery.
 */
export class VariantsFlow {
  constructor(private readonly deps: VariantsDeps) {}

  async run(arg?: unknown): Promise<VariantsOutcome | undefined> {
    if (!(await ensureReady(this.deps.connection, t('Generating video variants')))) return { kind: 'not-ready' };
    const file = arg instanceof vscode.Uri ? arg : undefined;
    const plan = file ? await this.fromFile(file) : await this.choose();
    const approval = plan && (await this.confirm(plan));
    if (!plan || !approval) return undefined;
    return this.createAll(plan, approval);
  }

  private async choose(): Promise<Plan | undefined> {
    const picked = await vscode.window.showQuickPick(
      [
        { label: T.sourceSeeds, detail: T.sourceSeedsDetail, file: false },
        { label: T.sourceFile, detail: T.sourceFileDetail, file: true },
      ],
      { title: T.title(1, 3), ignoreFocusOut: true },
    );
    if (!picked) return undefined;
    if (!picked.file) return this.fromPrompt();
    const uri = await vscode.window.showOpenDialog({
      title: T.title(2, 3),
      openLabel: T.openFile,
      canSelectMany: false,
      filters: { [T.fileFilter]: ['txt', 'jsonl'] },
    });
    return uri?.[0] ? this.fromFile(uri[0]) : undefined;
  }

  private async fromPrompt(): Promise<Plan | undefined> {
    const max = this.deps.settings.video.maxVariants;
    const min = Math.min(2, max);
    const prompt = await askPrompt({ title: T.title(2, 4), prompt: T.promptHint });
    if (!prompt) return undefined;
    const countText = await vscode.window.showInputBox({
      title: T.title(3, 4),
      prompt: T.count(min, max),
      value: String(Math.min(4, max)),
      ignoreFocusOut: true,
      validateInput: (text) => (/^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max ? null : T.countProblem(min, max)),
    });
    if (countText === undefined) return undefined;
    const count = Number(countText.trim());
    // Seeds chosen once: the review prices the very variants the confirmation then shows and sends.
    const randomSeed = Math.floor(Math.random() * (MAX_VIDEO_SEED - count));
    const variantsOf = (text: string, options: VideoOptions) => seedVariants(text, count, options.seed ?? randomSeed);
    const requestsFor = (text: string, options: VideoOptions) => variantsOf(text, options).map((variant) => requestOf(variant, options));
    const reviewed = await reviewOptions(
      prompt,
      defaultOptions(this.deps.settings.video),
      reviewSources(this.deps.settings, this.deps.connection, requestsFor),
      { title: T.title(4, 4), generate: T.review(count), generateAnyway: T.reviewAnyway(count) },
    );
    if (!reviewed) return undefined;
    return { variants: variantsOf(reviewed.prompt, reviewed.options), options: reviewed.options, label: shortenPrompt(reviewed.prompt, 40), notes: [] };
  }

  private async fromFile(uri: vscode.Uri): Promise<Plan | undefined> {
    const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch (error) {
      showMessage('error', T.unreadable(name, describeError(error)));
      return undefined;
    }
    const { variants, problems } = parsePromptList(text, name);
    if (problems.length) this.deps.log.warn(`Generate Variants: ${name}: ${problems.join('; ')}`);
    if (!variants.length) {
      showMessage('warning', T.noPrompts(name));
      return undefined;
    }
    const max = this.deps.settings.video.maxVariants;
    const { kept, leftOut } = capVariants(variants, max);
    const requestsFor = (_prompt: string, options: VideoOptions) => kept.map((variant) => requestOf(variant, options));
    const reviewed = await reviewOptions(
      kept[0].prompt,
      defaultOptions(this.deps.settings.video),
      reviewSources(this.deps.settings, this.deps.connection, requestsFor),
      {
        title: T.title(3, 3),
        generate: T.review(kept.length),
        generateAnyway: T.reviewAnyway(kept.length),
        lockedPrompt: T.lockedPrompt(kept.length, name),
      },
    );
    if (!reviewed) return undefined;
    const notes = [leftOut ? T.leftOut(variants.length, max) : '', problems.length ? T.skippedLines(problems.length, problems[0]) : ''].filter(Boolean);
    return { variants: kept, options: reviewed.options, label: name, notes };
  }

  /**
   * One modal for all of them, with exactly what each request sends (a file's line may set its own duration and
   * seed), the total price, what the key keeps, and what the model will likely refuse.
   */
  private async confirm(plan: Plan): Promise<VideoApproval | undefined> {
    const { variants, options } = plan;
    const count = variants.length;
    const requests = variants.map((variant) => requestOf(variant, options));
    const limits = await limitsOf(this.deps.settings, this.deps.connection, options.model);
    const problems = new Set(
      requests.flatMap((request) => checkPrompt({ ...request, seconds: request.seconds ?? options.seconds }, limits).map((problem) => problem.message)),
    );
    return confirmChargeInModal(await this.deps.connection.videoCharges(), requests, {
      title: T.confirm(count),
      lines: [
        [options.model, describeDurations(requests), options.resolution, options.ratio, options.firstFrame?.fileName].filter(Boolean).join(' · '),
        describeSeeds(requests),
        problems.size ? T.checks([...problems].slice(0, 3).join(' ')) : undefined,
        ...plan.notes,
        T.oncePerTask,
      ],
      action: T.confirmButton(count),
    });
  }

  private async createAll(plan: Plan, approval: VideoApproval): Promise<VariantsOutcome> {
    const count = plan.variants.length;
    const id = randomUUID();
    const created: VideoTaskRecord[] = [];
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: T.progress(count), cancellable: true },
      async (progress, token): Promise<VariantsOutcome> => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        for (let index = 0; index < count; index++) {
          progress.report({ message: T.progressStep(index + 1, count), increment: 100 / count });
          const group: TaskGroup = { id, label: T.groupLabel(count, plan.label), index, count };
          try {
            // The signal stops only what is not sent yet: a request on its way runs to its answer.
            created.push(await this.deps.creator.createOrThrow(approval, { group, signal: controller.signal }));
          } catch (error) {
            return this.stopped(error, created, count, controller.signal.aborted);
          }
        }
        vscode.window.setStatusBarMessage(T.created(count), 5000);
        return { kind: 'created', tasks: created };
      },
    );
  }

  private stopped(error: unknown, created: VideoTaskRecord[], count: number, cancelled: boolean): VariantsOutcome {
    const done = created.length;
    const showLogs = { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) };
    if (cancelled && !(isApiError(error) && error.kind !== 'aborted')) {
      return { kind: 'stopped', tasks: created, notSent: count - done, shown: showMessage('info', T.stopped(done, count)) };
    }
    this.deps.log.warn(`Generate Variants stopped after ${done} of ${count}: ${describeError(error)}`);
    const lost = isApiError(error) && mayHaveCreated(error);
    const shown = lost
      ? showMessage('warning', T.lost(done, count), [
          { title: t('Track Video Task by ID'), run: () => vscode.commands.executeCommand(CommandIds.video.track) },
          showLogs,
        ])
      : showMessage('error', T.failed(done, count, joinSentences(describeError(error), isApiError(error) ? error.hint : undefined)), [showLogs]);
    return { kind: 'stopped', tasks: created, notSent: count - done - 1, shown };
  }
}

function optionsOf(variant: Variant, options: VideoOptions): VideoOptions {
  return { ...options, seed: variant.seed ?? options.seed, seconds: variant.seconds ?? options.seconds };
}

function requestOf(variant: Variant, options: VideoOptions): StoredCreateRequest {
  return toCreateRequest(variant.prompt, optionsOf(variant, options));
}
