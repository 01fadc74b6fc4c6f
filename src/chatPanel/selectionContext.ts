import * as path from 'path';
import * as vscode from 'vscode';
import type { ContextDiagnostic, DiagnosticSeverity, SelectionContext } from './core/model';

/** A selection longer than this is cut: the model's context window is finite and a huge prompt is slow. */
const MAX_CODE_CHARS = 40_000;

/** The selection (or the line under the cursor when nothing is selected) with file, language, lines and diagnostics. */
export function selectionContext(document: vscode.TextDocument, range: vscode.Range): SelectionContext {
  const lines = range.isEmpty ? document.lineAt(range.start.line).range : range;
  // A selection ending at column 0 of the next line does not include that line.
  const endLine = lines.end.character === 0 && lines.end.line > lines.start.line ? lines.end.line - 1 : lines.end.line;
  let code = document.getText(lines);
  if (code.length > MAX_CODE_CHARS) code = `${code.slice(0, MAX_CODE_CHARS)}\n… (cut: the selection is longer than ${MAX_CODE_CHARS} characters)`;
  return {
    fileName: path.basename(document.uri.path) || document.uri.toString(),
    relativePath: document.isUntitled ? document.uri.path : vscode.workspace.asRelativePath(document.uri, false),
    languageId: document.languageId,
    startLine: lines.start.line + 1,
    endLine: endLine + 1,
    code,
    diagnostics: diagnosticsIn(document.uri, lines),
  };
}

export function diagnosticsIn(uri: vscode.Uri, range: vscode.Range): ContextDiagnostic[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((diagnostic) => diagnostic.range.intersection(range) !== undefined)
    .sort((a, b) => a.severity - b.severity || a.range.start.line - b.range.start.line)
    .slice(0, 20)
    .map(toContextDiagnostic);
}

export function toContextDiagnostic(diagnostic: vscode.Diagnostic): ContextDiagnostic {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return {
    severity: severityName(diagnostic.severity),
    message: diagnostic.message,
    line: diagnostic.range.start.line + 1,
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
    ...(code !== undefined ? { code: String(code) } : {}),
  };
}

function severityName(severity: vscode.DiagnosticSeverity): DiagnosticSeverity {
  switch (severity) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'info';
    default:
      return 'hint';
  }
}
