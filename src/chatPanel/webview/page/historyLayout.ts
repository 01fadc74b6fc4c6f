import { t } from '../../../webviewPage/l10n';
import { button, el } from '../../../webviewPage/dom';
import { icon, type IconName } from './icons';

/** The controls of the History view the view keeps hold of. */
export interface HistoryParts {
  search: HTMLInputElement;
  selectAll: HTMLInputElement;
  summary: HTMLElement;
  deleteSelected: HTMLButtonElement;
  deleteLabel: HTMLElement;
  list: HTMLElement;
  importButton: HTMLButtonElement;
  closeButton: HTMLButtonElement;
}

/** Fills the (empty, hidden) History panel of the page: a header, the search box, the selection bar and the list. */
export function buildHistoryPanel(panel: HTMLElement): HistoryParts {
  const parts: HistoryParts = {
    search: el('input', {
      className: 'history-search',
      attrs: {
        type: 'search',
        placeholder: t('Search chats (titles and messages)'),
        'aria-label': t('Search the saved chats'),
        'aria-controls': 'history-list',
      },
    }),
    selectAll: el('input', { attrs: { type: 'checkbox', id: 'history-select-all' } }),
    summary: el('span', { className: 'history-summary', attrs: { role: 'status', 'aria-live': 'polite' } }),
    deleteSelected: button('', { className: 'danger' }),
    deleteLabel: el('span', { text: t('Delete selected') }),
    list: el('div', { className: 'history-list', attrs: { id: 'history-list' } }),
    importButton: withIcon(button(t('Import…'), { ariaLabel: t('Import a chat exported as JSON') }), 'import'),
    closeButton: withIcon(button('', { className: 'history-icon-button', ariaLabel: t('Close the history (Escape)') }), 'close'),
  };
  parts.deleteSelected.append(icon('trash'), parts.deleteLabel);
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-modal', 'true');
  panel.setAttribute('aria-labelledby', 'history-heading');
  panel.replaceChildren(
    el('div', { className: 'history-header' }, [el('h2', { attrs: { id: 'history-heading' }, text: t('History') }), parts.importButton, parts.closeButton]),
    el('div', { className: 'history-search-row' }, [icon('search'), parts.search]),
    el('div', { className: 'history-selection' }, [
      el('label', { className: 'history-select-all', attrs: { for: 'history-select-all' } }, [parts.selectAll, el('span', { text: t('Select all') })]),
      parts.summary,
      el('span', { className: 'spacer' }),
      parts.deleteSelected,
    ]),
    parts.list,
  );
  return parts;
}

/** What the list shows when it has no chat: none saved yet (with Import), or none matching the query. */
export function historyEmptyState(query: string, answered: boolean, onImport: () => void): HTMLElement {
  if (query) {
    return el('div', { className: 'history-empty' }, [
      el('p', { className: 'history-empty-title', text: answered ? t('No chat matches "{0}".', query) : t('Searching…') }),
      answered ? el('p', { text: t('Every word must appear in the title or in the messages of a chat.') }) : undefined,
    ]);
  }
  const importButton = withIcon(button(t('Import a Chat…')), 'import');
  importButton.addEventListener('click', onImport);
  return el('div', { className: 'history-empty' }, [
    el('p', { className: 'history-empty-title', text: t('No saved chats yet.') }),
    el('p', { text: t('Chats are saved in this workspace as you go. A chat exported as JSON can be brought in.') }),
    importButton,
  ]);
}

/** A button with an icon before its text. */
export function withIcon(control: HTMLButtonElement, name: IconName): HTMLButtonElement {
  control.prepend(icon(name));
  return control;
}
