// The one door for user-visible text, in every layer: `t('Deleted {0} chats.', count)`. In the extension it is
// `vscode.l10n.t` (installed by src/workbench/l10n.ts before any other module runs); in plain Node (unit tests, the
// benchmark) it fills the placeholders of the English text. `npm run l10n` collects every `t('…')` into
// l10n/bundle.l10n.json, and a test checks that each has its Simplified Chinese translation.

export type L10nArg = string | number | boolean;
export type Translator = (message: string, args: readonly L10nArg[]) => string;

/** `{0}`, `{1}`… replaced by the arguments; a placeholder without its argument stays as it is. */
export function formatMessage(message: string, args: readonly L10nArg[]): string {
  return args.length === 0
    ? message
    : message.replace(/\{(\d+)\}/g, (placeholder, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : placeholder));
}

let translator: Translator = formatMessage;

export function setTranslator(next: Translator): void {
  translator = next;
}

/** The text in the user's language: `message` (English) is also its key in the translation bundles. */
export function t(message: string, ...args: L10nArg[]): string {
  return translator(message, args);
}
