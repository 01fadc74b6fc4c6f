import * as vscode from 'vscode';
import { setTranslator } from '../api/l10n';
import { useZodLocale } from '../api/zodLocale';

// Imported first by src/extension.ts: from here on every `t('…')`, at any layer, is `vscode.l10n.t` (the bundle of
// VS Code's display language, l10n/bundle.l10n.<language>.json; English is the text itself).
setTranslator((message, args) => vscode.l10n.t(message, ...args));
void useZodLocale(vscode.env.language);
