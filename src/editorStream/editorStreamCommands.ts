import { ensureReadyToCharge } from '../workbench/readiness';
import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import type { CommandHandler } from '../workbench/registerCommands';
import type { ServiceClient } from '../api/serviceClient';
import type { Connection } from '../connection/connection';
import { Disposable } from '../common/lifecycle';
import { systemClock } from '../common/clock';
import { t } from '../api/l10n';
import type { ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { DocumentInsertion } from './documentInsertion';
import { OutcomeReporter, type CommandName, type EditorStreamResult } from './outcomeReporter';
import { clipAfter, clipBefore, completionPrompt, rewritePrompt, type EditorPrompt } from './core/prompts';
import { buildChatRequest, describeAdjustment } from '../chatRequest/chatRequestBuilder';
import type { ChatRequest } from '../api/chat/request';
import { REWRITE_SCHEME } from './rewriteProposal';
import { RewriteProposals } from './rewriteProposals';
import { rewriteArgsSchema, type RewriteArgs } from './core/rewriteArgs';
import { EditorStreamSession } from './editorStreamSession';

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
  client: ServiceClient;
  model: string;
}

/**
 * `Complete at Cursor`, `Rewrite Selection` and `Stop`: builds the prompt from the editor, streams the reply into the
 * document (or into a diff), with a cancellable progress notification, and reports the outcome with actions.
 * One stream at a time: starting another one stops the previous.
 */
export class EditorStreamCommands extends Disposable {
  private readonly session: EditorStreamSession;
  readonly handlers: Readonly<Record<string, CommandHandler>>;
  /** The rewrites waiting in a diff, with their Accept and Reject. */
  readonly proposals: RewriteProposals;
  private readonly reporter: OutcomeReporter;
  private readonly highlight = this._register(
    vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedTextBackground'),
    }),
  );

  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly state: vscode.Memento,
    private readonly log: ComponentLogger,
  ) {
    super();
    this.proposals = this._register(new RewriteProposals(log));
    this.reporter = new OutcomeReporter(log);
    this.session = this._register(new EditorStreamSession(settings, log));
    this.handlers = {
      [CommandIds.editor.completeAtCursor]: () => this.completeAtCursor(),
      [CommandIds.editor.rewriteSelection]: (args?: unknown) => this.rewriteSelection(args),
      [CommandIds.editor.cancelEditorStream]: () => this.session.cancel(),
      [CommandIds.editor.retryEditorStreamNow]: () => this.session.retryNow(),
      ...this.proposals.handlers,
    };
  }

  get streaming(): boolean {
    return this.session.streaming;
  }

  /** A 429 is waited out (Retry Now is offered). */
  get rateLimited(): boolean {
    return this.session.rateLimited;
  }

  async completeAtCursor(): Promise<EditorStreamResult> {
    const started = systemClock.now();
    const name: CommandName = { log: 'Complete at Cursor', shown: t('Complete at Cursor') };
    const ready = await this.prepare(name);
    if ('status' in ready) return ready;
    const { editor, client, model } = ready;
    const document = editor.document;
    const cursor = editor.selection.active;
    const request = this.chatRequest(
      model,
      completionPrompt({
        fileName: vscode.workspace.asRelativePath(document.uri, false),
        languageId: document.languageId,
        before: clipBefore(document.getText(new vscode.Range(new vscode.Position(0, 0), cursor))),
        after: clipAfter(document.getText(new vscode.Range(cursor, document.lineAt(document.lineCount - 1).range.end))),
      }),
    );
    const sink = new DocumentInsertion(editor, new vscode.Range(cursor, cursor), this.highlight, this.log);
    try {
      const outcome = await this.session.run({
        what: name.log,
        title: t('Promptreel: Completing at the cursor'),
        started,
        client,
        request,
        sink,
        stripFences: !FENCED_LANGUAGES.has(document.languageId),
      });
      return this.reporter.report(name, 'insert', outcome, () => [{ title: t('Retry'), command: CommandIds.editor.completeAtCursor }]);
    } finally {
      sink.dispose();
    }
  }

  async rewriteSelection(rawArgs?: unknown): Promise<EditorStreamResult> {
    const name: CommandName = { log: 'Rewrite Selection', shown: t('Rewrite Selection') };
    const parsed = rewriteArgsSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) this.log.warn(`Ignoring invalid arguments of Rewrite Selection: ${parsed.error.issues[0]?.message ?? ''}`);
    const args: RewriteArgs = parsed.success ? parsed.data : {};
    const retry = args.retry && (await this.restoreRetryTarget(args.retry)) ? args.retry : undefined;

    const ready = await this.prepare(name);
    if ('status' in ready) return ready;
    const { editor, client, model } = ready;
    const document = editor.document;
    const range = new vscode.Range(editor.selection.start, editor.selection.end);
    if (range.isEmpty) return this.reporter.skip('no-selection', { severity: 'info', message: t('Select the text to rewrite first.'), actions: [] });
    const original = retry ? retry.original : document.getText(range);

    const instruction = args.instruction ?? (await this.askInstruction());
    if (!instruction) return this.reporter.skip('no-instruction');
    // Timings count from here: the time the user took to type the instruction is not the stream's.
    const started = systemClock.now();

    const request = this.chatRequest(
      model,
      rewritePrompt({
        fileName: vscode.workspace.asRelativePath(document.uri, false),
        languageId: document.languageId,
        instruction,
        selection: original,
        before: clipBefore(document.getText(new vscode.Range(new vscode.Position(0, 0), range.start))),
        after: clipAfter(document.getText(new vscode.Range(range.end, document.lineAt(document.lineCount - 1).range.end))),
      }),
    );
    const stripFences = !FENCED_LANGUAGES.has(document.languageId);
    const endsWithBreak = /\r?\n$/.test(original);
    const ending = (written: string) => (endsWithBreak && written !== '' && !/\n$/.test(written) ? '\n' : '');
    const run = { what: name.log, title: t('Promptreel: Rewriting the selection'), started, client, request, stripFences, ending };

    if (this.settings.get('editor.rewriteMode') === 'diff') {
      const proposal = this.proposals.create(document, range);
      await this.proposals.show(proposal, instruction);
      const outcome = await this.session.run({ ...run, sink: proposal });
      const selected = proposal.range;
      const retryArgs = {
        instruction,
        retry: { uri: document.uri.toString(), start: document.offsetAt(selected.start), end: document.offsetAt(selected.end), expected: original, original },
      };
      const result = this.reporter.report(
        name,
        'diff',
        outcome,
        () => [{ title: t('Retry'), command: CommandIds.editor.rewriteSelection, args: [retryArgs] }],
        proposal.id,
      );
      if (result.status === 'completed' || result.status === 'cancelled') {
        if (proposal.text) {
          const message =
            result.status === 'cancelled'
              ? t('The rewrite is ready ({0} characters, stopped early): accept it?', proposal.text.length)
              : t('The rewrite is ready ({0} characters): accept it?', proposal.text.length);
          result.notice = this.proposals.offerDecision(proposal, message);
        }
      }
      return { ...result, rewriteId: proposal.id, proposalUri: proposal.uri.toString() };
    }

    const sink = new DocumentInsertion(editor, range, this.highlight, this.log);
    try {
      const outcome = await this.session.run({ ...run, sink });
      return this.reporter.report(name, 'inline', outcome, () => {
        const written = sink.edits > 0 ? sink.range : range;
        // Retry replaces whatever this run left (its partial text, or the untouched selection) with a new rewrite.
        const expected = sink.edits > 0 ? sink.text : original;
        const retryArgs = {
          instruction,
          retry: { uri: document.uri.toString(), start: document.offsetAt(written.start), end: document.offsetAt(written.end), expected, original },
        };
        return [{ title: t('Retry'), command: CommandIds.editor.rewriteSelection, args: [retryArgs] }];
      });
    } finally {
      sink.dispose();
    }
  }

  /** Common checks: an editor, a base URL and key, a client and a model. */
  private async prepare({ shown }: CommandName): Promise<Ready | EditorStreamResult> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return this.reporter.skip('no-editor', { severity: 'info', message: t('{0} works in a text editor: open a file first.', shown), actions: [] });
    if (isReadOnly(editor.document)) return this.reporter.skip('read-only', this.reporter.notify('info', t('{0}: this editor is read-only.', shown), []));
    const client = await ensureReadyToCharge(this.connection, shown);
    if (!client) return this.reporter.skip('no-key');
    const model = await this.connection.chatModel.resolve();
    if (!model) {
      return this.reporter.skip(
        'no-model',
        this.reporter.notify('warning', t('{0} needs a chat model, and the service lists none: pick one first.', shown), [
          { title: t('Select Chat Model'), command: CommandIds.selectChatModel },
        ]),
      );
    }
    return { editor, client, model };
  }

  /** The prompt as a request, shaped like every chat's (what the model cannot take is adjusted, and logged). */
  private chatRequest(model: string, prompt: EditorPrompt): ChatRequest {
    const { request, adjustments } = buildChatRequest({ model, ...prompt, settings: this.settings.chat }, this.connection.catalog.capabilitiesOf(model));
    for (const adjustment of adjustments) this.log.info(describeAdjustment(adjustment, model));
    return request;
  }

  private async askInstruction(): Promise<string | undefined> {
    const last = this.state.get<unknown>(LAST_INSTRUCTION_KEY);
    const remembered = typeof last === 'string' ? last : '';
    const answer = await vscode.window.showInputBox({
      title: t('Promptreel: Rewrite Selection'),
      prompt: t('How should the selected text be rewritten?'),
      placeHolder: t('e.g. Add error handling, Convert to async/await, Translate the comments to English'),
      value: remembered,
      valueSelection: [0, remembered.length],
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : t('Describe the change to make.')),
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
}
