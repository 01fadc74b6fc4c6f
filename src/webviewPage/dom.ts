// The DOM helpers every page uses. Text always goes in as textContent: only a page's sanitized markdown builds HTML.

/** Attributes for `el`; `text` becomes textContent (never parsed as HTML: prompts and replies are other people's text). */
export interface ElementOptions {
  className?: string;
  text?: string;
  attrs?: Record<string, string | undefined>;
  dataset?: Record<string, string>;
  hidden?: boolean;
}

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
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
}
