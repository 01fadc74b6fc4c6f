import * as z from 'zod/mini';
import { systemClock, type Clock } from '../../common/clock';
import { t } from '../../api/l10n';
import type { IDisposable } from '../../common/lifecycle';
import type { StateStorage } from '../../common/stateStorage';
import { createConversation, randomId, rename, type IdFactory } from './conversation';
import { Emitter } from '../../common/emitter';
import { conversationSchema, type Conversation, type ConversationOptions } from './model';
import { searchConversations, type ConversationSearchResult } from './conversationSearch';
import { importedConversation } from './conversationJson';

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
  pinned: boolean;
}

export interface StoreChange {
  /** The conversation that changed, or undefined when only the list did (one created, deleted, renamed). */
  conversationId?: string;
  /** True when the list of conversations (titles, order, membership) may have changed. */
  listChanged: boolean;
}

export interface StoreOptions {
  key?: string;
  /** The oldest unpinned conversations beyond this many are dropped on save (pinned ones are always kept). */
  maxConversations?: number;
  /** How long changes wait before they are written (coalesces a streaming reply's many updates). */
  saveDelayMs?: number;
  warn?: (message: string) => void;
  clock?: Clock;
  newId?: IdFactory;
}

export const STORAGE_KEY = 'promptreel.chat.conversations';
const STORAGE_VERSION = 1;
const persistedSchema = z.object({ version: z.number(), conversations: z.array(z.unknown()) });

export function interruptedMessage(): string {
  return t('The reply was interrupted (VS Code was closed or reloaded while it arrived). What arrived is kept.');
}

/**
 * The conversations of one workspace, in memory, written to a StateStorage (workspaceState). Everything read back is
 * validated; a reply that was still streaming when the window closed is marked as cut off.
 */
export class ConversationStore implements IDisposable {
  /** Read from storage on first use, not when the extension activates: a workspace may hold 100 long conversations. */
  private loaded: Map<string, Conversation> | undefined;
  private readonly changes = new Emitter<StoreChange>();
  readonly onDidChange = this.changes.event;
  private readonly key: string;
  private readonly maxConversations: number;
  private readonly saveDelayMs: number;
  private readonly clock: Clock;
  private readonly newId: IdFactory;
  private saveTimer: IDisposable | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: StateStorage,
    private readonly options: StoreOptions = {},
  ) {
    this.key = options.key ?? STORAGE_KEY;
    this.maxConversations = options.maxConversations ?? 100;
    this.saveDelayMs = options.saveDelayMs ?? 1000;
    this.clock = options.clock ?? systemClock;
    this.newId = options.newId ?? randomId;
  }

  private get conversations(): Map<string, Conversation> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /** Pinned first, then newest first. */
  list(): ConversationSummary[] {
    return this.sorted().map((conversation) => ({
      id: conversation.id,
      title: conversation.title,
      updatedAt: conversation.updatedAt,
      messageCount: conversation.messages.length,
      pinned: conversation.pinned === true,
    }));
  }

  get(id: string): Conversation | undefined {
    return this.conversations.get(id);
  }

  /** The chat changed last, pinned or not. */
  mostRecent(): Conversation | undefined {
    let newest: Conversation | undefined;
    for (const conversation of this.conversations.values()) if (!newest || conversation.updatedAt > newest.updatedAt) newest = conversation;
    return newest;
  }

  /** Chats whose title or messages hold every word of the query: title matches first, then the newest. */
  search(query: string): ConversationSearchResult[] {
    return searchConversations(this.sorted(), query);
  }

  create(options: ConversationOptions = {}): Conversation {
    const conversation = createConversation(options, this.clock.now(), this.newId);
    this.conversations.set(conversation.id, conversation);
    this.changed(conversation.id, { listChanged: true, persist: 'now' });
    return conversation;
  }

  delete(id: string): boolean {
    return this.deleteMany([id]).length === 1;
  }

  /** Deletes those that exist, with one change event and one write; returns the ids deleted. */
  deleteMany(ids: readonly string[]): string[] {
    const deleted = [...new Set(ids)].filter((id) => this.conversations.delete(id));
    if (deleted.length === 0) return deleted;
    this.changes.fire({ listChanged: true });
    void this.flush();
    return deleted;
  }

  /** Pins a chat to the top of the history (or unpins it); its place among the others stays by its last change. */
  setPinned(id: string, pinned: boolean): boolean {
    const conversation = this.conversations.get(id);
    if (!conversation) return false;
    if ((conversation.pinned === true) === pinned) return true;
    if (pinned) conversation.pinned = true;
    else delete conversation.pinned;
    this.changed(id, { listChanged: true, persist: 'now' });
    return true;
  }

  /** Adds a chat read from a file, under new ids (so it never replaces one); returns the chat as stored. */
  addImported(conversation: Conversation): Conversation {
    const imported = importedConversation(conversation, this.clock.now(), this.newId);
    this.conversations.set(imported.id, imported);
    this.changed(imported.id, { listChanged: true, persist: 'now' });
    return imported;
  }

  rename(id: string, title: string): boolean {
    const conversation = this.conversations.get(id);
    if (!conversation) return false;
    rename(conversation, title, this.clock.now());
    this.changed(id, { listChanged: true, persist: 'now' });
    return true;
  }

  /**
   * Tells the store (and its listeners) that a conversation changed in place. `persist: 'later'` coalesces
   * frequent changes (streaming); `'now'` writes at once.
   */
  changed(id: string, { listChanged = false, persist = 'later' }: { listChanged?: boolean; persist?: 'now' | 'later' | 'none' } = {}): void {
    this.changes.fire({ conversationId: id, listChanged });
    if (persist === 'now') void this.flush();
    else if (persist === 'later') this.scheduleSave();
  }

  /** Schedules a write without telling listeners (a streaming reply grows in place; its views get deltas). */
  persistSoon(): void {
    this.scheduleSave();
  }

  /** Writes everything now; resolves when written. Writes never overlap. */
  flush(): Promise<void> {
    this.saveTimer?.dispose();
    this.saveTimer = undefined;
    this.saving = this.saving.then(() => this.write()).catch((error: unknown) => this.options.warn?.(`Could not save the conversations: ${String(error)}`));
    return this.saving;
  }

  dispose(): void {
    if (this.saveTimer) {
      this.saveTimer.dispose();
      this.saveTimer = undefined;
      void this.write().catch(() => undefined);
    }
    this.changes.dispose();
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = this.clock.setTimeout(() => {
      this.saveTimer = undefined;
      void this.flush();
    }, this.saveDelayMs);
  }

  private async write(): Promise<void> {
    const sorted = this.sorted();
    const pinned = sorted.filter((conversation) => conversation.pinned === true);
    const unpinned = sorted.filter((conversation) => conversation.pinned !== true);
    for (const conversation of unpinned.slice(this.maxConversations)) this.conversations.delete(conversation.id);
    const kept = [...pinned, ...unpinned.slice(0, this.maxConversations)];
    await this.storage.update(this.key, { version: STORAGE_VERSION, conversations: kept });
  }

  /** Pinned first, then by last change, newest first. */
  private sorted(): Conversation[] {
    return [...this.conversations.values()].sort((a, b) => Number(b.pinned === true) - Number(a.pinned === true) || b.updatedAt - a.updatedAt);
  }

  private load(): Map<string, Conversation> {
    const conversations = new Map<string, Conversation>();
    const raw = this.storage.get(this.key);
    if (raw === undefined) return conversations;
    const persisted = persistedSchema.safeParse(raw);
    if (!persisted.success) {
      this.options.warn?.('Ignoring stored conversations of an unknown shape.');
      return conversations;
    }
    let dropped = 0;
    for (const entry of persisted.data.conversations) {
      const parsed = conversationSchema.safeParse(entry);
      if (!parsed.success) {
        dropped++;
        continue;
      }
      const conversation = parsed.data;
      for (const message of conversation.messages) {
        if (message.role === 'assistant' && message.status === 'streaming') {
          message.status = 'cut-off';
          message.error = { message: interruptedMessage(), actions: ['retry'] };
        }
      }
      conversations.set(conversation.id, conversation);
    }
    if (dropped > 0) this.options.warn?.(`Ignored ${dropped} stored conversation(s) of an unexpected shape.`);
    return conversations;
  }
}
