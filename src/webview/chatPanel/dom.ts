import type { CostView } from '../../chatPanel/core/protocol';
import { pageLocale } from '../l10n';

/** Attributes for `el`; `text` becomes textContent (never parsed as HTML). */
export interface ElementOptions {
  className?: string;
  text?: string;
  attrs?: Record<string, string | undefined>;
  dataset?: Record<string, string>;
  hidden?: boolean;
}

/** Creates an element. Text is always set as textContent: only the sanitized markdown path builds HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  children: (Node | string | undefined | false)[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.text !== undefined) element.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) if (value !== undefined) element.setAttribute(name, value);
  for (const [name, value] of Object.entries(options.dataset ?? {})) element.dataset[name] = value;
  if (options.hidden) element.hidden = true;
  for (const child of children) if (child) element.append(child);
  return element;
}

export function button(
  label: string,
  options: { className?: string; ariaLabel?: string; title?: string; dataset?: Record<string, string> } = {},
): HTMLButtonElement {
  return el('button', {
    className: options.className ?? 'secondary',
    text: label,
    attrs: { type: 'button', 'aria-label': options.ariaLabel, title: options.title ?? options.ariaLabel },
    dataset: options.dataset,
  });
}

/** Finds a required element of the page; the page is ours, so a missing one is a bug. */
export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the chat page`);
  return element as T;
}

/**
 * One formatter for the page, in its language (made on first use): `toLocaleString` builds a new one per call, which
 * shows when 500 messages render.
 */
let tokenFormat: Intl.NumberFormat | undefined;

export function formatTokens(count: number): string {
  tokenFormat ??= new Intl.NumberFormat(pageLocale());
  return tokenFormat.format(count);
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

/** A cost (`$0.0044`, `≈ $0.0040 (estimated)`); `why` says, on hover, why an estimated one is estimated. */
export function costElement(cost: CostView, why: string): HTMLElement {
  return el('span', { className: 'cost', text: cost.text, dataset: { estimated: String(cost.estimated) }, attrs: { title: cost.estimated ? why : undefined } });
}
