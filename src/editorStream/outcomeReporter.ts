import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import { showMessage, type MessageAction, type MessageSeverity } from '../workbench/showMessage';
import { recoveryFor, type RecoveryAction } from '../connection/core/recovery';
import { recoveryCommand } from '../workbench/recoveryActions';
import { joinSentences } from '../api/sentences';
import type { StreamRunOutcome, StreamStatus, StreamTiming } from './core/streamRunner';

/** What a command did; returned to its caller (tests, benchmarks) and logged. */
export interface EditorStreamResult {
  status: StreamStatus | 'skipped';
  /** Why: for `skipped` (no-editor, read-only, no-selection, no-key (no address, key or confirmation), no-model, no-instruction) and `interrupted` (edited, closed). */
  reason?: string;
  mode?: 'insert' | 'inline' | 'diff';
  text: string;
  edits: number;
  chunks: number;
  durationMs: number;
  /** Where the time went, in ms from the command's start (absent when no stream ran). */
  timing?: StreamTiming;
  finishReason?: string;
  error?: { kind?: string; status?: number; code?: string; message: string };
  /** The message shown to the user, with its buttons. */
  notice?: { severity: MessageSeverity; message: string; actions: string[] };
  rewriteId?: string;
  proposalUri?: string;
}

/** A command's name: in English for the log, and as the user reads it (in VS Code's language) for the messages. */
export interface CommandName {
  readonly log: string;
  readonly shown: string;
}

/** Turns the outcome of a stream into a log line, one message with its actions, and the result a command returns. */
export class OutcomeReporter {
  constructor(private readonly log: ComponentLogger) {}

  /** Logs the outcome, shows the one message it calls for (with its actions) and returns the result. */
  report(name: CommandName, mode: EditorStreamResult['mode'], outcome: StreamRunOutcome, retry: () => MessageAction[], rewriteId?: string): EditorStreamResult {
    const { log: what, shown } = name;
    const summary = `${outcome.text.length} characters in ${outcome.edits} edits from ${outcome.chunks} text events, ${outcome.durationMs} ms`;
    const result: EditorStreamResult = {
      status: outcome.status,
      mode,
      text: outcome.text,
      edits: outcome.edits,
      chunks: outcome.chunks,
      durationMs: outcome.durationMs,
      timing: outcome.timing,
      ...(outcome.finishReason ? { finishReason: outcome.finishReason } : {}),
      ...(outcome.stopReason ? { reason: outcome.stopReason } : {}),
    };
    const target = rewriteId ? ` (rewrite ${rewriteId})` : '';
    switch (outcome.status) {
      case 'completed':
        this.log.info(`${what}${target}: done, ${summary}, finish reason ${outcome.finishReason ?? 'none'}.`);
        if (outcome.text === '') {
          result.notice = this.notify('info', t('{0}: the model returned no text.', shown), retry());
        } else if (outcome.finishReason && outcome.finishReason !== 'stop') {
          const message =
            outcome.finishReason === 'length'
              ? t('{0}: the model stopped early (it reached the token limit (promptreel.chat.maxTokens)); the text so far was kept.', shown)
              : t('{0}: the model stopped early (finish reason "{1}"); the text so far was kept.', shown, outcome.finishReason);
          result.notice = this.notify('warning', message, [
            ...retry(),
            { title: t('Open Settings'), command: CommandIds.openSettings, args: ['promptreel.chat.maxTokens'] },
          ]);
        }
        return result;
      case 'cancelled':
        this.log.info(`${what}${target}: stopped by the user, ${summary}.`);
        vscode.window.setStatusBarMessage(t('Promptreel: stopped; {0} characters kept.', outcome.text.length), 5000);
        return result;
      case 'interrupted':
        this.log.info(`${what}${target}: stopped because the target was ${outcome.stopReason === 'closed' ? 'closed' : 'edited'}, ${summary}.`);
        if (outcome.stopReason === 'edited') {
          result.notice = this.notify(
            'info',
            mode === 'diff'
              ? t('{0}: stopped, because the selected text was edited meanwhile.', shown)
              : t('{0}: stopped, because the text being written was edited. The {1} characters written so far were kept.', shown, outcome.text.length),
            [],
          );
        }
        return result;
      case 'failed': {
        const error = outcome.error;
        this.log.warn(`${what}${target}: failed after ${summary}: ${describeError(error)}`);
        const recovery = recoveryFor(error, { what: shown, request: 'chat' });
        const kept = outcome.text.length > 0 ? t('The {0} characters that arrived were kept.', outcome.text.length) : t('Nothing was inserted.');
        result.error = isApiError(error)
          ? { kind: error.kind, ...(error.status ? { status: error.status } : {}), ...(error.code ? { code: error.code } : {}), message: error.message }
          : { message: describeError(error) };
        result.notice = this.notify(
          'error',
          joinSentences(recovery.message, kept),
          recovery.actions.flatMap((action) => this.action(action, recovery.setting, retry)),
        );
        return result;
      }
    }
  }

  private action(action: RecoveryAction, setting: string | undefined, retry: () => MessageAction[]): MessageAction[] {
    if (action === 'retry') return retry();
    const command = recoveryCommand(action, setting);
    return command ? [{ title: command.title, command: command.command, args: command.arguments }] : [];
  }

  /** Shows a message with buttons (not awaited) and returns what was shown. */
  notify(severity: MessageSeverity, message: string, actions: MessageAction[]): NonNullable<EditorStreamResult['notice']> {
    showMessage(severity, message, actions);
    return { severity, message, actions: actions.map((action) => action.title) };
  }

  /** A command that did not start (no editor, no key…), with the message shown, if any. */
  skip(reason: string, notice?: EditorStreamResult['notice']): EditorStreamResult {
    this.log.debug(`Skipped: ${reason}.`);
    return { status: 'skipped', reason, text: '', edits: 0, chunks: 0, durationMs: 0, ...(notice ? { notice } : {}) };
  }
}
