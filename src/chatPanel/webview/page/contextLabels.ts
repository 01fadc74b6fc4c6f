import type { DiagnosticSeverity, SelectionContext } from '../../core/model';
import { t } from '../../../webviewPage/l10n';

/** The code asked about, as its chip and its message say it: `src/app.ts, lines 3-9 (typescript) · 2 problems`. */
export function selectionLabel(context: SelectionContext): string {
  const lines = context.startLine === context.endLine ? t('line {0}', context.startLine) : t('lines {0}-{1}', context.startLine, context.endLine);
  const count = context.diagnostics.length;
  const problems = count === 0 ? '' : ` · ${count === 1 ? t('1 problem') : t('{0} problems', count)}`;
  return `${context.relativePath}, ${lines} (${context.languageId})${problems}`;
}

export function severityLabel(severity: DiagnosticSeverity): string {
  switch (severity) {
    case 'error':
      return t('error');
    case 'warning':
      return t('warning');
    case 'info':
      return t('info');
    case 'hint':
      return t('hint');
  }
}
