import type { MentionSuggestionView, WebviewToHost } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { el } from '../../../webviewPage/dom';

/** `@` or `#` at the start or after a space, then the query up to the caret (no spaces). */
const TRIGGER = /(^|\s)([@#])([^\s@#]*)$/;

/** The kind of a suggestion, in a word before its label. */
function kindLabel(kind: MentionSuggestionView['kind']): string {
  switch (kind) {
    case 'file':
      return t('file');
    case 'folder':
      return t('folder');
    case 'currentFile':
    case 'openEditor':
      return t('editor');
    case 'problems':
      return t('problems');
    case 'terminalSelection':
    case 'terminalOutput':
      return t('terminal');
    case 'gitChanges':
      return t('git');
    case 'symbol':
      return t('symbol');
  }
}

interface ActiveQuery {
  /** Where the `@` is in the prompt. */
  start: number;
  query: string;
  requestId: number;
}

/**
 * The popup that offers mentions while the user types `@…` or `#…` in the prompt box: the host searches, the popup
 * shows the answer for the latest query only. Arrow keys move, Enter or Tab picks, Escape closes.
 */
export class MentionPopup {
  private readonly list: HTMLElement;
  private items: MentionSuggestionView[] = [];
  private selected = 0;
  private active: ActiveQuery | undefined;
  private nextRequestId = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    container: HTMLElement,
    private readonly post: (message: WebviewToHost) => void,
  ) {
    this.list = container;
    this.list.addEventListener('mousedown', (event) => event.preventDefault());
    this.list.addEventListener('click', (event) => {
      const option = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (option) this.pick(Number(option.dataset.index));
    });
    input.addEventListener('input', () => this.update());
    input.addEventListener('blur', () => this.close());
    input.addEventListener('click', () => this.update());
  }

  get isOpen(): boolean {
    return this.active !== undefined;
  }

  /** Handles a key of the prompt box while the popup is open; true when it took the key. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.active) return false;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!this.items.length) return false;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.select((this.selected + step + this.items.length) % this.items.length);
        return true;
      }
      case 'Enter':
      case 'Tab':
        if (!this.items.length || event.shiftKey || event.isComposing) return false;
        this.pick(this.selected);
        return true;
      case 'Escape':
        this.close();
        return true;
      default:
        return false;
    }
  }

  /** The host's answer; an answer for an older query is dropped. */
  show(requestId: number, items: MentionSuggestionView[]): void {
    if (!this.active || requestId !== this.active.requestId) return;
    const keep = this.items[this.selected]?.key;
    this.items = items;
    const kept = keep ? items.findIndex((item) => item.key === keep) : -1;
    this.selected = kept >= 0 ? kept : 0;
    this.render();
  }

  close(): void {
    this.active = undefined;
    this.items = [];
    this.list.hidden = true;
    this.list.replaceChildren();
    this.input.removeAttribute('aria-activedescendant');
  }

  private update(): void {
    const before = this.input.value.slice(0, this.input.selectionStart ?? this.input.value.length);
    const match = TRIGGER.exec(before);
    if (!match) {
      if (this.active) this.close();
      return;
    }
    const query = match[3] ?? '';
    const start = before.length - query.length - 1;
    if (this.active && this.active.start === start && this.active.query === query) return;
    this.active = { start, query, requestId: this.nextRequestId++ };
    this.post({ type: 'mentionQuery', requestId: this.active.requestId, query });
  }

  private pick(index: number): void {
    const item = this.items[index];
    const active = this.active;
    if (!item || !active) return;
    // The `@query` typed becomes the chip: it is taken out of the text.
    const value = this.input.value;
    const end = active.start + 1 + active.query.length;
    this.input.value = value.slice(0, active.start) + value.slice(end).replace(/^ /, '');
    this.input.setSelectionRange(active.start, active.start);
    this.input.dispatchEvent(new Event('input'));
    this.close();
    this.post({ type: 'addMention', key: item.key });
  }

  private select(index: number): void {
    this.selected = index;
    for (const option of Array.from(this.list.children)) option.setAttribute('aria-selected', String(option.id === optionId(index)));
    this.input.setAttribute('aria-activedescendant', optionId(index));
    this.list.children[index]?.scrollIntoView({ block: 'nearest' });
  }

  private render(): void {
    this.list.hidden = false;
    if (!this.items.length) {
      this.input.removeAttribute('aria-activedescendant');
      this.list.replaceChildren(
        el('div', {
          className: 'mention-empty',
          attrs: { role: 'option', 'aria-disabled': 'true' },
          text: this.active?.query ? t('Nothing matches') : t('Type to search files, symbols, problems…'),
        }),
      );
      return;
    }
    this.list.replaceChildren(
      ...this.items.map((item, index) =>
        el(
          'div',
          {
            className: 'mention-option',
            attrs: { id: optionId(index), role: 'option', 'aria-selected': String(index === this.selected) },
            dataset: { index: String(index), kind: item.kind },
          },
          [
            el('span', { className: 'mention-kind', text: kindLabel(item.kind) }),
            highlighted(item.label, item.matches),
            item.description ? el('span', { className: 'mention-description', text: item.description }) : undefined,
          ],
        ),
      ),
    );
    this.select(this.selected);
  }
}

function optionId(index: number): string {
  return `mention-option-${index}`;
}

/** The label with the matched characters in bold, built from text nodes (never HTML). */
function highlighted(label: string, matches: readonly number[] = []): HTMLElement {
  const span = el('span', { className: 'mention-label' });
  const marked = new Set(matches);
  let run = '';
  let runMarked = false;
  const flush = (): void => {
    if (run) span.append(runMarked ? el('b', { text: run }) : document.createTextNode(run));
    run = '';
  };
  for (let i = 0; i < label.length; i++) {
    const isMarked = marked.has(i);
    if (isMarked !== runMarked) {
      flush();
      runMarked = isMarked;
    }
    run += label[i];
  }
  flush();
  return span;
}
