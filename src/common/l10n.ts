// User-visible text in the language of VS Code's UI: see src/api/l10n.ts.
export { t, formatMessage, type L10nArg } from '../api/l10n';
