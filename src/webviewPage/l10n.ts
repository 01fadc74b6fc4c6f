// The pages' `t('…')`: the translations the host puts in the page (a JSON data block, never run as a script), read
// on first use; the English text is the key. Collected by `npm run l10n` like the host's.

type Arg = string | number | boolean;

let strings: Record<string, string> | undefined;

function loadStrings(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(document.getElementById('promptreel-l10n')?.textContent ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function t(message: string, ...args: Arg[]): string {
  strings ??= loadStrings();
  const text = typeof strings[message] === 'string' ? strings[message] : message;
  return args.length === 0
    ? text
    : text.replace(/\{(\d+)\}/g, (placeholder, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : placeholder));
}

/**
 * The page's language for dates and numbers (Intl): the `<html lang>` the host set from VS Code's display language.
 * `en-US` outside a page (unit tests in Node) or when the tag is not one Intl accepts.
 */
export function pageLocale(): string {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/**
 * A translated message whose placeholders are nodes (`t('Cost: {0}')` around a cost element): the text around them
 * stays text, wherever the language puts the placeholder.
 */
export function fillNodes(message: string, ...values: (Node | string)[]): (Node | string)[] {
  return message.split(/(\{\d+\})/).flatMap((part) => {
    const index = /^\{(\d+)\}$/.exec(part)?.[1];
    const value = index === undefined ? undefined : values[Number(index)];
    if (value !== undefined) return [value];
    return part ? [part] : [];
  });
}
