import type { ConversationSearchResultView, ConversationSummaryView, HostToWebview } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { byId } from '../../../webviewPage/dom';
import { countOf, groupHeading, groupHistory } from './historyFormat';
import { entryOfResult, entryOfSummary, historyGroup, historyRow, type HistoryEntry } from './historyRows';
import type { ChatChannel } from './chatChannel';
import { buildHistoryPanel, historyEmptyState, type HistoryParts } from './historyLayout';

/** Typing waits this long for the next key before the host is asked (one search per pause, not per key). */
const SEARCH_DELAY_MS = 150;

type RowAction = 'open' | 'select' | 'pin' | 'export';

/**
 * The History view over the chat: every saved chat (pinned ones first, then by date), a search as you type over
 * titles and text (the host searches; title matches first, with the words around the match), pin and unpin,
 * several chats selected and deleted at once (the host asks first), Import and Export. It renders what the host
 * sends: the list of chats arrives with every snapshot, the results answer the latest query only.
 */
export class HistoryView {
  private readonly panel = byId<HTMLElement>('history');
  private readonly opener = byId<HTMLButtonElement>('open-history');
  private readonly parts: HistoryParts;
  private conversations: ConversationSummaryView[] = [];
  private activeId = '';
  private query = '';
  private results: ConversationSearchResultView[] | undefined;
  private requestId = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Enter was pressed before the answer to the query came: the first chat found opens when it does. */
  private openFirstFound = false;
  private readonly selected = new Set<string>();
  private shown: HistoryEntry[] = [];

  constructor(
    private readonly root: HTMLElement,
    private readonly channel: ChatChannel,
  ) {
    this.parts = buildHistoryPanel(this.panel);
    const { search, selectAll, list, importButton, closeButton, deleteSelected } = this.parts;

    this.opener.addEventListener('click', () => this.open());
    closeButton.addEventListener('click', () => this.close());
    importButton.addEventListener('click', () => this.importChat());
    deleteSelected.addEventListener('click', () => this.deleteChats([...this.selected]));
    selectAll.addEventListener('change', () => this.toggleAll(selectAll.checked));
    search.addEventListener('input', () => this.onQuery());
    search.addEventListener('keydown', (event) => this.onSearchKey(event));
    list.addEventListener('click', (event) => this.onRowEvent(event));
    list.addEventListener('change', (event) => this.onRowEvent(event));
    list.addEventListener('keydown', (event) => this.onListKey(event));
    // Space selects a chat (on keydown): the button it is on must not also open it (on keyup).
    list.addEventListener('keyup', (event) => {
      if (event.key === ' ' && event.target instanceof HTMLButtonElement && event.target.dataset.action === 'open') event.preventDefault();
    });
    this.panel.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      // Taken here: the page's own Escape (stop the reply) is not meant while the history is open.
      event.preventDefault();
      event.stopPropagation();
      this.close();
    });
    channel.onMessage((message) => this.receive(message));
  }

  get isOpen(): boolean {
    return !this.panel.hidden;
  }

  open(): void {
    if (!this.isOpen) {
      this.panel.hidden = false;
      for (const child of Array.from(this.root.children)) if (child !== this.panel && child instanceof HTMLElement) child.inert = true;
      if (this.query) this.ask();
      this.render();
    }
    this.parts.search.focus();
    this.parts.search.select();
  }

  close(): void {
    if (!this.isOpen) return;
    this.cancelTimer();
    this.openFirstFound = false;
    this.selected.clear();
    this.panel.hidden = true;
    for (const child of Array.from(this.root.children)) if (child instanceof HTMLElement) child.inert = false;
    this.opener.focus();
  }

  private receive(message: HostToWebview): void {
    switch (message.type) {
      case 'snapshot':
        this.activeId = message.snapshot.conversation.id;
        return this.setConversations(message.snapshot.conversations);
      case 'conversations':
      case 'done':
      case 'error':
        return this.setConversations(message.conversations);
      case 'conversation':
        if (message.conversation.id !== this.activeId) this.setActive(message.conversation.id);
        return;
      case 'openHistory':
        return this.open();
      case 'searchResults':
        if (message.requestId !== this.requestId || !this.query) return;
        this.results = message.results;
        this.render();
        if (this.openFirstFound && message.results[0]) this.openChat(message.results[0].id);
        this.openFirstFound = false;
        return;
      case 'openConversation':
        // A chat this page imported: show it.
        return this.openChat(message.conversationId);
    }
  }

  private setConversations(conversations: ConversationSummaryView[]): void {
    this.conversations = conversations;
    if (!this.isOpen) return;
    // Titles, pins and membership may have changed: what a search found is asked again.
    if (this.query) this.ask();
    this.render();
  }

  private setActive(id: string): void {
    this.activeId = id;
    if (this.isOpen) this.render();
  }

  private onQuery(): void {
    const query = this.parts.search.value.trim();
    if (query === this.query) return;
    this.query = query;
    this.cancelTimer();
    this.openFirstFound = false;
    this.results = undefined;
    if (!query) {
      this.render();
      return;
    }
    this.timer = setTimeout(() => this.ask(), SEARCH_DELAY_MS);
  }

  private cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private ask(): void {
    this.cancelTimer();
    this.channel.post({ type: 'searchConversations', requestId: ++this.requestId, query: this.query });
  }

  private entries(): HistoryEntry[] {
    if (!this.query) return this.conversations.map(entryOfSummary);
    // Until the first answer for a query arrives, the rows of the last one stay (no flicker while typing).
    if (!this.results) return this.shown;
    const summaries = new Map(this.conversations.map((summary) => [summary.id, summary]));
    return this.results.map((result) => entryOfResult(result, summaries.get(result.id)));
  }

  private render(): void {
    const focus = this.focusedControl();
    this.shown = this.entries();
    const visible = new Set(this.shown.map((entry) => entry.id));
    // Only what is on screen can be selected: a chat a new query hid is not deleted unseen.
    for (const id of this.selected) if (!visible.has(id)) this.selected.delete(id);
    const now = Date.now();
    const row = (entry: HistoryEntry) => historyRow(entry, { selected: this.selected.has(entry.id), current: entry.id === this.activeId, now });
    const searching = this.query !== '';
    this.parts.list.setAttribute('aria-busy', String(searching && !this.results));
    if (this.shown.length === 0) this.parts.list.replaceChildren(historyEmptyState(this.query, this.results !== undefined, () => this.importChat()));
    else if (searching) this.parts.list.replaceChildren(...historyGroup(undefined, this.shown.map(row)));
    else this.parts.list.replaceChildren(...groupHistory(this.shown, now).flatMap((group) => historyGroup(groupHeading(group.label), group.items.map(row))));
    this.renderSelection();
    if (focus) this.restoreFocus(focus);
  }

  private renderSelection(): void {
    const count = this.selected.size;
    const total = this.shown.length;
    this.parts.selectAll.checked = total > 0 && count === total;
    this.parts.selectAll.indeterminate = count > 0 && count < total;
    this.parts.selectAll.disabled = total === 0;
    this.parts.deleteSelected.disabled = count === 0;
    this.parts.deleteLabel.textContent = count === 0 ? t('Delete selected') : count === 1 ? t('Delete 1 chat') : t('Delete {0} chats', count);
    const found = !this.query ? countOf(total, 'chat') : !this.results ? t('Searching…') : total === 1 ? t('1 chat found') : t('{0} chats found', total);
    this.parts.summary.textContent = count > 0 ? t('{0} · {1} selected', found, count) : found;
    for (const row of Array.from(this.parts.list.querySelectorAll<HTMLElement>('.history-row'))) {
      const selected = this.selected.has(row.dataset.id ?? '');
      row.dataset.selected = String(selected);
      const check = row.querySelector<HTMLInputElement>('.history-check');
      if (check) check.checked = selected;
    }
  }

  private importChat(): void {
    this.channel.post({ type: 'importConversation' });
  }

  private onRowEvent(event: Event): void {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]') : null;
    const id = target?.closest<HTMLElement>('.history-row')?.dataset.id;
    const action = target?.dataset.action as RowAction | undefined;
    if (!target || !id || !action) return;
    // A checkbox acts on `change`, everything else on `click`.
    if ((action === 'select') !== (event.type === 'change')) return;
    if (action === 'open') this.openChat(id);
    else if (action === 'select') this.toggle(id, (target as HTMLInputElement).checked);
    else if (action === 'pin') this.channel.post({ type: 'pinConversation', conversationId: id, pinned: target.getAttribute('aria-pressed') !== 'true' });
    else this.channel.post({ type: 'exportConversation', conversationId: id });
  }

  private openChat(id: string): void {
    if (id !== this.activeId) this.channel.post({ type: 'selectConversation', conversationId: id });
    this.close();
  }

  private toggle(id: string, selected: boolean): void {
    if (selected) this.selected.add(id);
    else this.selected.delete(id);
    this.renderSelection();
  }

  private toggleAll(selected: boolean): void {
    this.selected.clear();
    if (selected) for (const entry of this.shown) this.selected.add(entry.id);
    this.renderSelection();
  }

  private deleteChats(ids: string[]): void {
    if (ids.length > 0) this.channel.post({ type: 'deleteConversations', conversationIds: ids });
  }

  private onSearchKey(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      this.rowButtons()[0]?.focus();
    } else if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      if (this.timer !== undefined) this.ask();
      if (this.query && !this.results) this.openFirstFound = true;
      else if (this.shown[0]) this.openChat(this.shown[0].id);
    }
  }

  /** On a chat: arrows move between chats, Home and End jump, Space selects, Delete deletes (the selection, else it). */
  private onListKey(event: KeyboardEvent): void {
    const current = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>('.history-row') : null;
    if (!current || !(event.target instanceof HTMLButtonElement) || event.target.dataset.action !== 'open') return;
    const buttons = this.rowButtons();
    const index = buttons.indexOf(event.target);
    const move = (to: number | undefined) => {
      event.preventDefault();
      if (to === undefined || to < 0) this.parts.search.focus();
      else buttons[Math.min(to, buttons.length - 1)]?.focus();
    };
    const id = current.dataset.id ?? '';
    switch (event.key) {
      case 'ArrowDown':
        return move(index + 1);
      case 'ArrowUp':
        return move(index - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(buttons.length - 1);
      case ' ':
        event.preventDefault();
        return this.toggle(id, !this.selected.has(id));
      case 'Delete':
        event.preventDefault();
        return this.deleteChats(this.selected.size > 0 ? [...this.selected] : [id]);
    }
  }

  private rowButtons(): HTMLButtonElement[] {
    return Array.from(this.parts.list.querySelectorAll<HTMLButtonElement>('.history-open'));
  }

  /** Which chat's which control has the focus, so a re-render (a pin moves the chat up) keeps it there. */
  private focusedControl(): { id: string; action: string } | undefined {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !this.parts.list.contains(active)) return undefined;
    const id = active.closest<HTMLElement>('.history-row')?.dataset.id;
    return id ? { id, action: active.dataset.action ?? 'open' } : undefined;
  }

  private restoreFocus({ id, action }: { id: string; action: string }): void {
    const row = Array.from(this.parts.list.querySelectorAll<HTMLElement>('.history-row')).find((candidate) => candidate.dataset.id === id);
    const control = row?.querySelector<HTMLElement>(`[data-action="${action}"]`) ?? this.rowButtons()[0] ?? this.parts.search;
    control.focus();
  }
}
