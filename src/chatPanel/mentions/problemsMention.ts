import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { listText, userLanguage, type Words } from './core/mentionFormat';
import type { WorkspaceBoundary } from '../../workspace/workspaceBoundary';
import type { Mention } from '../core/model';
import { activeFileUri, relativePath, withTokens } from './fileMentions';
import { MentionError } from './mentionError';
import { isMentionable, mentionSource } from './mentionPlace';

const MAX_PROBLEMS = 500;
const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

export interface ProblemCounts {
  errors: number;
  warnings: number;
  /** Information and hints. */
  infos: number;
}

export interface ProblemsReport {
  /** `path:line:column severity (source code): message`, errors first, at most `MAX_PROBLEMS`. */
  text: string;
  counts: ProblemCounts;
}

/** The problems VS Code reports for these files, as the model reads them. */
export function problemsReport(entries: readonly (readonly [vscode.Uri, readonly vscode.Diagnostic[]])[]): ProblemsReport {
  const lines: string[] = [];
  const counts = [0, 0, 0, 0];
  for (const [uri, diagnostics] of entries) {
    for (const diagnostic of [...diagnostics].sort((a, b) => a.severity - b.severity || a.range.start.line - b.range.start.line)) {
      counts[diagnostic.severity]!++;
      if (lines.length >= MAX_PROBLEMS) continue;
      const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
      const origin = [diagnostic.source, code].filter((part) => part !== undefined && part !== '').join(' ');
      const where = `${relativePath(uri)}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1}`;
      lines.push(`${where} ${SEVERITY[diagnostic.severity]}${origin ? ` (${origin})` : ''}: ${diagnostic.message}`);
    }
  }
  const total = counts.reduce((sum, count) => sum + count, 0);
  const more = total > lines.length ? `\n… and ${total - lines.length} more` : '';
  return {
    text: lines.length ? lines.join('\n') + more : 'VS Code reports no problems.',
    counts: { errors: counts[0]!, warnings: counts[1]!, infos: counts[2]! + counts[3]! },
  };
}

function errorCount(count: number, t: Words): string {
  return count === 1 ? t('1 error') : t('{0} errors', count);
}

function warningCount(count: number, t: Words): string {
  return count === 1 ? t('1 warning') : t('{0} warnings', count);
}

/** `2 errors, 1 warning`, or `none`: the counts that are not zero. */
export function problemSummary({ errors, warnings, infos }: ProblemCounts, t: Words = userLanguage): string {
  const parts = [errors ? errorCount(errors, t) : '', warnings ? warningCount(warnings, t) : '', infos ? t('{0} info', infos) : ''];
  return errors + warnings + infos === 0 ? t('none') : listText(parts.filter(Boolean), t);
}

/** What VS Code's Problems view holds, for the current file or the workspace's files (a mention can reach each). */
export async function problemsMention(scope: 'file' | 'workspace', boundary: WorkspaceBoundary): Promise<Mention> {
  const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = [];
  if (scope === 'file') {
    const uri = activeFileUri();
    if (!uri) throw new MentionError(t('No file is open: open one to mention its problems.'));
    await mentionSource(boundary, uri);
    entries.push([uri, vscode.languages.getDiagnostics(uri)]);
  } else {
    for (const entry of vscode.languages.getDiagnostics()) if (await isMentionable(boundary, entry[0])) entries.push(entry);
  }
  const report = problemsReport(entries);
  const fileUri = scope === 'file' ? entries[0]![0] : undefined;
  return withTokens({ kind: 'problems', ...(fileUri ? { uri: fileUri.toString() } : {}), content: report.text }, (t) => ({
    label: fileUri ? t('Problems in {0}', relativePath(fileUri)) : t('Problems in the workspace'),
    detail: problemSummary(report.counts, t),
  }));
}

/** "2 errors, 1 warning" for the popup, without building the text. */
export function problemCounts(scope: 'file' | 'workspace'): string {
  const uri = scope === 'file' ? activeFileUri() : undefined;
  const all = scope === 'file' ? (uri ? vscode.languages.getDiagnostics(uri) : []) : vscode.languages.getDiagnostics().flatMap(([, list]) => list);
  const errors = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
  const warnings = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Warning).length;
  return all.length === 0 ? t('none') : listText([errorCount(errors, t), warningCount(warnings, t)]);
}
