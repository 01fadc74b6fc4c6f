import * as vscode from 'vscode';
import { plural } from './core/mentionFormat';
import type { Mention } from '../core/model';
import { activeFileUri, relativePath, withTokens } from './fileMentions';
import { MentionError } from './mentionError';

const MAX_PROBLEMS = 500;
const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

export interface ProblemsReport {
  /** `path:line:column severity (source code): message`, errors first, at most `MAX_PROBLEMS`. */
  text: string;
  /** `2 errors, 1 warning`, or `none`. */
  summary: string;
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
  const summary =
    total === 0
      ? 'none'
      : [plural(counts[0]!, 'error'), plural(counts[1]!, 'warning'), counts[2]! + counts[3]! ? `${counts[2]! + counts[3]!} info` : '']
          .filter((part) => part && !part.startsWith('0 '))
          .join(', ');
  const more = total > lines.length ? `\n… and ${total - lines.length} more` : '';
  return { text: lines.length ? lines.join('\n') + more : 'VS Code reports no problems.', summary };
}

/** What VS Code's Problems view holds, for the current file or the whole workspace. */
export function problemsMention(scope: 'file' | 'workspace'): Mention {
  const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = [];
  if (scope === 'file') {
    const uri = activeFileUri();
    if (!uri) throw new MentionError('No file is open: open one to mention its problems.');
    entries.push([uri, vscode.languages.getDiagnostics(uri)]);
  } else entries.push(...vscode.languages.getDiagnostics());
  const report = problemsReport(entries);
  const fileUri = scope === 'file' ? entries[0]![0] : undefined;
  return withTokens({
    kind: 'problems',
    label: fileUri ? `Problems in ${relativePath(fileUri)}` : 'Problems in the workspace',
    detail: report.summary,
    ...(fileUri ? { uri: fileUri.toString() } : {}),
    content: report.text,
  });
}

/** "2 errors, 1 warning" for the popup, without building the text. */
export function problemCounts(scope: 'file' | 'workspace'): string {
  const uri = scope === 'file' ? activeFileUri() : undefined;
  const all = scope === 'file' ? (uri ? vscode.languages.getDiagnostics(uri) : []) : vscode.languages.getDiagnostics().flatMap(([, list]) => list);
  const errors = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
  const warnings = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Warning).length;
  return all.length === 0 ? 'none' : [plural(errors, 'error'), plural(warnings, 'warning')].join(', ');
}
