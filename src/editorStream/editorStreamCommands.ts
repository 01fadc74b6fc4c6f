import * as vscode from 'vscode';
import { registerCommands } from '../workbench/registerCommands';
import { withRateLimitRetry, type ChatRequest, type PromptreelClient } from '../api';
import type { Connection } from '../connection/connection';
import { CommandIds } from '../common/commandIds';
import { Disposable, MutableDisposable, toDisposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { DocumentInsertion } from './documentInsertion';
import { EDITOR_STREAMING_CONTEXT, EditorStreamCommandIds } from './editorStreamCommandIds';
import { OutcomeReporter, type EditorStreamResult } from './outcomeReporter';
import { clipAfter, clipBefore, completionRequest, rewriteRequest, type RequestOptions } from './core/prompts';
import { REWRITE_SCHEME } from './rewriteProposal';
import type { RewriteProposals } from './rewriteProposals';
import { rewriteArgsSchema, type RewriteArgs } from './core/rewriteArgs';
import { runStream, type StreamRunOutcome } from './core/streamRunner';
import { RateLimitCountdown } from './rateLimitCountdown';
import type { StreamSink } from './streamSink';

export type { EditorStreamResult } from './outcomeReporter';

export const LAST_INSTRUCTION_KEY = 'promptreel.editor.lastInstruction';

/** Schemes of documents nobody may edit (the API has no read-only flag for them). */
const READ_ONLY_SCHEMES = new Set([REWRITE_SCHEME, 'output', 'git', 'vscode-scm']);

function isReadOnly(document: vscode.TextDocument): boolean {
  return READ_ONLY_SCHEMES.has(document.uri.scheme) || vscode.workspace.fs.isWritableFileSystem(document.uri.scheme) === false;
}

/** Languages where code fences are real content, so a reply is never unwrapped. */
const FENCED_LANGUAGES = new Set(['markdown', 'mdx', 'quarto', 'rmd']);

interface Ready {
  editor: vscode.TextEditor;
  client: PromptreelClient;
  options: RequestOptions;
}

/**
 * `Complete at Cursor`, `Rewrite Selection` and `Stop`: builds the prompt from the editor, streams the reply into the
 * document (or into a diff), with a cancellable progress notification, and reports the outcome with actions.
 * One stream at a time: starting another one stops the previous.
 */
export class EditorStreamCommands extends Disposable {
  private readonly active = this._register(new MutableDisposable());
  private readonly reporter: OutcomeReporter;
  private readonly rateLimit = this._register(new RateLimitCountdown());
  private activeController: AbortController | undefined;
  private readonly highlight = this._register(
    vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedTextBackground'),
    }),
  );

  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly state: vscode.Memento,
    private readonly proposals: RewriteProposals,
    private readonly log: ComponentLogger,
  ) {
    super();
    this.reporter = new OutcomeReporter(log);
    this._register(
      registerCommands({
        [EditorStreamCommandIds.completeAtCursor]: () => this.completeAtCursor(),
        [EditorStreamCommandIds.rewriteSelection]: (args?: unknown) => this.rewriteSelection(args),
        [EditorStreamCommandIds.cancelEditorStream]: () => this.cancel(),
        [EditorStreamCommandIds.retryEditorStreamNow]: () => this.retryNow(),
      }),
    );
    this._register(toDisposable(() => void vscode.commands.executeCommand('setContext', EDITOR_STREAMING_CONTEXT, false)));
  }

  get streaming(): boolean {
    return this.activeController !== undefined;
  }

  /** Stops the stream in progress (its text so far stays); false when none runs. */
  cancel(): boolean {
    if (!this.activeController) return false;
    this.log.info('Stopping the stream into the editor.');
    this.activeController.abort();
    return true;
  }

  /** Ends a wait after HTTP 429 at once: the request goes again now. False when none is waited out. */
  retryNow(): boolean {
    const retried = this.rateLimit.retryNow();
    if (retried) this.log.info('Retrying now, before the wait after HTTP 429 ended.');
    return retried;
  }

  get rateLimited(): boolean {
    return this.rateLimit.waiting;
  }

  async completeAtCursor(): Promise<EditorStreamResult> {
    const started = performance.now();
    const what = 'Complete at Cursor';
    const ready = await this.prepare(what);
    if ('status' in ready) return ready;
    const { editor, client, options } = ready;
    const document = editor.document;
    const cursor = editor.selection.active;
    const request = completionRequest(
      {
        fileName: vscode.workspace.asRelativePath(document.uri, false),
        languageId: document.languageId,
        before: clipBefore(document.getText(new vscode.Range(new vscode.Position(0, 0), cursor))),
        after: clipAfter(document.getText(new vscode.Range(cursor, document.lineAt(document.lineCount - 1).range.end))),
      },
      options,
      this.settings.capabilities(options.model),
    );
    const sink = new DocumentInsertion(editor, new vscode.Range(cursor, cursor), this.highlight, this.log);
    try {
      const outcome = await this.stream(
        what,
        'Promptreel: Completing at the cursor',
        started,
        client,
        request,
        sink,
        !FENCED_LANGUAGES.has(document.languageId),
      );
      return this.reporter.report(what, 'insert', outcome, () => [{ title: 'Retry', command: EditorStreamCommandIds.completeAtCursor }]);
    } finally {
      sink.dispose();
    }
  }

  async rewriteSelection(rawArgs?: unknown): Promise<EditorStreamResult> {
    const what = 'Rewrite Selection';
    const parsed = rewriteArgsSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) this.log.warn(`Ignoring invalid arguments of Rewrite Selection: ${parsed.error.issues[0]?.message ?? ''}`);
    const args: RewriteArgs = parsed.success ? parsed.data : {};
    const retry = args.retry && (await this.restoreRetryTarget(args.retry)) ? args.retry : undefined;

    const ready = await this.prepare(what);
    if ('status' in ready) return ready;
    const { editor, client, options } = ready;
    const document = editor.document;
    const range = new vscode.Range(editor.selection.start, editor.selection.end);
    if (range.isEmpty) return this.reporter.skip('no-selection', { severity: 'info', message: 'Select the text to rewrite first.', actions: [] });
    const original = retry ? retry.original : document.getText(range);

    const instruction = args.instruction ?? (await this.askInstruction());
    if (!instruction) return this.reporter.skip('no-instruction');
    // Timings count from here: the time the user took to type the instruction is not the stream's.
    const started = performance.now();

    const request = rewriteRequest(
      {
        fileName: vscode.workspace.asRelativePath(document.uri, false),
        languageId: document.languageId,
        instruction,
        selection: original,
        before: clipBefore(document.getText(new vscode.Range(new vscode.Position(0, 0), range.start))),
        after: clipAfter(document.getText(new vscode.Range(range.end, document.lineAt(document.lineCount - 1).range.end))),
      },
      options,
      this.settings.capabilities(options.model),
    );
    const stripFences = !FENCED_LANGUAGES.has(document.languageId);
    const endsWithBreak = /\r?\n$/.test(original);
    const ending = (written: string) => (endsWithBreak && written !== '' && !/\n$/.test(written) ? '\n' : '');

    if (this.settings.get('editor.rewriteMode') === 'diff') {
      const proposal = this.proposals.create(document, range);
      await this.proposals.show(proposal, instruction);
      const outcome = await this.stream(what, 'Promptreel: Rewriting the selection', started, client, request, proposal, stripFences, ending);
      const selected = proposal.range;
      const retryArgs = {
        instruction,
        retry: { uri: document.uri.toString(), start: document.offsetAt(selected.start), end: document.offsetAt(selected.end), expected: original, original },
      };
      const result = this.reporter.report(
        what,
        'diff',
        outcome,
        () => [{ title: 'Retry', command: EditorStreamCommandIds.rewriteSelection, args: [retryArgs] }],
        proposal.id,
      );
      if (result.status === 'completed' || result.status === 'cancelled') {
        if (proposal.text) {
          const message = `The rewrite is ready (${proposal.text.length} characters${result.status === 'cancelled' ? ', stopped early' : ''}): accept it?`;
          this.proposals.offerDecision(proposal, message);
          result.notice = { severity: 'info', message, actions: ['Accept', 'Reject'] };
        }
      }
      return { ...result, rewriteId: proposal.id, proposalUri: proposal.uri.toString() };
    }

    const sink = new DocumentInsertion(editor, range, this.highlight, this.log);
    try {
      const outcome = await this.stream(what, 'Promptreel: Rewriting the selection', started, client, request, sink, stripFences, ending);
      return this.reporter.report(what, 'inline', outcome, () => {
        const written = sink.edits > 0 ? sink.range : range;
        // Retry replaces whatever this run left (its partial text, or the untouched selection) with a new rewrite.
        const expected = sink.edits > 0 ? sink.text : original;
        const retryArgs = {
          instruction,
          retry: { uri: document.uri.toString(), start: document.offsetAt(written.start), end: document.offsetAt(written.end), expected, original },
        };
        return [{ title: 'Retry', command: EditorStreamCommandIds.rewriteSelection, args: [retryArgs] }];
      });
    } finally {
      sink.dispose();
    }
  }

  /** Common checks: an editor, a base URL and key, a client and a model. */
  private async prepare(what: string): Promise<Ready | EditorStreamResult> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return this.reporter.skip('no-editor', { severity: 'info', message: `${what} works in a text editor: open a file first.`, actions: [] });
    if (isReadOnly(editor.document)) return this.reporter.skip('read-only', this.reporter.notify('info', `${what}: this editor is read-only.`, []));
    const client = await this.connection.ensureReadyToCharge(what);
    if (!client) return this.reporter.skip('no-key');
    const model = await this.connection.chatModel.resolve();
    if (!model) {
      return this.reporter.skip(
        'no-model',
        this.reporter.notify('warning', `${what} needs a chat model, and the service lists none: pick one first.`, [
          { title: 'Select Chat Model', command: CommandIds.selectChatModel },
        ]),
      );
    }
    return { editor, client, options: { ...this.settings.chat, model } };
  }

  private async askInstruction(): Promise<string | undefined> {
    const last = this.state.get<unknown>(LAST_INSTRUCTION_KEY);
    const remembered = typeof last === 'string' ? last : '';
    const answer = await vscode.window.showInputBox({
      title: 'Promptreel: Rewrite Selection',
      prompt: 'How should the selected text be rewritten?',
      placeHolder: 'e.g. Add error handling, Convert to async/await, Translate the comments to English',
      value: remembered,
      valueSelection: [0, remembered.length],
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : 'Describe the change to make.'),
    });
    const instruction = answer?.trim();
    if (instruction) await this.state.update(LAST_INSTRUCTION_KEY, instruction);
    return instruction || undefined;
  }

  /** For Retry: selects what the failed run left, so the new rewrite replaces it; false when that text changed since. */
  private async restoreRetryTarget(retry: NonNullable<RewriteArgs['retry']>): Promise<boolean> {
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === retry.uri);
    const range = document && new vscode.Range(document.positionAt(retry.start), document.positionAt(retry.end));
    if (!document || !range || document.offsetAt(range.end) !== retry.end || document.getText(range) !== retry.expected) {
      this.log.info('Retry: the text changed since the failed rewrite; rewriting the current selection instead.');
      return false;
    }
    await vscode.window.showTextDocument(document, { selection: range, preview: false });
    return true;
  }

  private async stream(
    what: string,
    title: string,
    started: number,
    client: PromptreelClient,
    request: ChatRequest,
    sink: StreamSink,
    stripFences: boolean,
    ending?: (written: string) => string,
  ): Promise<StreamRunOutcome> {
    const controller = new AbortController();
    this.active.value = toDisposable(() => controller.abort());
    this.activeController = controller;
    void vscode.commands.executeCommand('setContext', EDITOR_STREAMING_CONTEXT, true);
    this.log.info(`${what}: streaming from ${request.model}.`);
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
        const cancelled = token.onCancellationRequested(() => controller.abort());
        try {
          return await runStream({
            stream: (body, signal) =>
              withRateLimitRetry(() => client.streamChatCompletion(body, signal), {
                policy: this.settings.rateLimit,
                signal,
                onWait: (wait) => {
                  this.log.warn(`${what}: rate limited (HTTP 429); retry ${wait.attempt} of ${wait.retries} in ${Math.ceil(wait.delayMs / 1000)} s.`);
                  this.rateLimit.start(wait, (message) => progress.report({ message }));
                },
                onRetry: () => {
                  this.rateLimit.end();
                  progress.report({ message: 'Sending again…' });
                },
              }),
            request,
            sink,
            signal: controller.signal,
            stripFences,
            origin: started,
            ...(ending ? { ending } : {}),
            onProgress: (chars) => progress.report({ message: `${chars} characters` }),
          });
        } finally {
          cancelled.dispose();
          this.rateLimit.end();
        }
      });
    } finally {
      if (this.activeController === controller) {
        this.activeController = undefined;
        this.active.clear();
        void vscode.commands.executeCommand('setContext', EDITOR_STREAMING_CONTEXT, false);
      }
    }
  }
}
