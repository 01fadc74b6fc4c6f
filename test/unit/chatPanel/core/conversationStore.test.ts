import * as assert from 'node:assert/strict';
import { systemClock, type Clock } from '../../../../src/common/clock';
import { MemoryStorage } from '../../../fakes/memoryStorage';
import { addUserMessage, applyStreamEvent, startAssistantMessage } from '../../../../src/chatPanel/core/conversation';
import { ConversationStore, STORAGE_KEY, type StoreChange } from '../../../../src/chatPanel/core/conversationStore';

/** The system clock's timers, and a time that moves one millisecond each time it is read. */
function clock(start = 1000): Clock {
  let now = start;
  return { now: () => ++now, setTimeout: systemClock.setTimeout };
}

describe('chat conversation store', () => {
  it('reads the stored conversations on first use, not when created (activation)', async () => {
    const storage = new MemoryStorage();
    const first = new ConversationStore(storage);
    first.create({ model: 'm' });
    await first.flush();
    storage.reads = 0;
    const store = new ConversationStore(storage);
    assert.equal(storage.reads, 0);
    assert.equal(store.list().length, 1);
    assert.equal(store.list().length, 1);
    assert.equal(storage.reads, 1, 'read once');
  });

  it('persists conversations and reads them back in a new store (a window reload)', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage, { clock: clock() });
    const conversation = store.create({ model: 'm' });
    addUserMessage(conversation, { text: 'hello' });
    const reply = startAssistantMessage(conversation, 'm');
    applyStreamEvent(reply, { type: 'text', text: 'Hi!' });
    reply.status = 'done';
    store.changed(conversation.id, { persist: 'now' });
    await store.flush();

    const reloaded = new ConversationStore(storage);
    const restored = reloaded.get(conversation.id);
    assert.deepEqual(restored, JSON.parse(JSON.stringify(conversation)));
    assert.equal(reloaded.mostRecent()?.id, conversation.id);
  });

  it('marks a reply that was still streaming at the reload as cut off, keeping its text', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage);
    const conversation = store.create();
    addUserMessage(conversation, { text: 'q' });
    const reply = startAssistantMessage(conversation, 'm');
    applyStreamEvent(reply, { type: 'text', text: 'half an ans' });
    await store.flush();
    const restored = new ConversationStore(storage).get(conversation.id)?.messages[1];
    assert.equal(restored?.role, 'assistant');
    if (restored?.role !== 'assistant') return;
    assert.equal(restored.status, 'cut-off');
    assert.equal(restored.text, 'half an ans');
    assert.deepEqual(restored.error, {
      message: 'The reply was interrupted (VS Code was closed or reloaded while it arrived). What arrived is kept.',
      actions: ['retry'],
    });
  });

  it('lists newest first and tells listeners what changed', () => {
    const store = new ConversationStore(new MemoryStorage(), { clock: clock() });
    const changes: StoreChange[] = [];
    store.onDidChange((change) => changes.push(change));
    const a = store.create();
    const b = store.create();
    assert.deepEqual(
      store.list().map((summary) => summary.id),
      [b.id, a.id],
    );
    store.rename(a.id, 'Renamed');
    assert.deepEqual(
      store.list().map((summary) => [summary.id, summary.title]),
      [
        [a.id, 'Renamed'],
        [b.id, 'New chat'],
      ],
    );
    store.delete(b.id);
    assert.deepEqual(changes, [
      { conversationId: a.id, listChanged: true },
      { conversationId: b.id, listChanged: true },
      { conversationId: a.id, listChanged: true },
      { listChanged: true },
    ]);
    assert.equal(store.get(b.id), undefined);
    assert.equal(store.delete(b.id), false);
  });

  it('coalesces frequent changes into one delayed write', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage, { saveDelayMs: 20 });
    const conversation = store.create();
    await store.flush();
    const before = storage.writes;
    for (let i = 0; i < 50; i++) store.persistSoon();
    store.changed(conversation.id);
    assert.equal(storage.writes, before);
    for (const deadline = Date.now() + 5_000; storage.writes === before && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 40)); // the point: no second write after the first (two save delays)
    assert.equal(storage.writes, before + 1);
    store.dispose();
  });

  it('ignores stored data of an unknown shape and drops invalid conversations, keeping the valid ones', () => {
    const warnings: string[] = [];
    const storage = new MemoryStorage();
    storage.values.set(STORAGE_KEY, 'garbage');
    assert.equal(new ConversationStore(storage, { warn: (m) => warnings.push(m) }).list().length, 0);
    storage.values.set(STORAGE_KEY, {
      version: 1,
      conversations: [
        { id: 'ok', title: 'Fine', createdAt: 1, updatedAt: 2, options: {}, messages: [{ id: 'u', role: 'user', text: 'hi', createdAt: 1 }] },
        { id: 'bad', title: 'Broken', createdAt: 1, updatedAt: 2, options: { temperature: 9 }, messages: [] },
        { id: 'worse', messages: 'nope' },
      ],
    });
    const store = new ConversationStore(storage, { warn: (m) => warnings.push(m) });
    assert.deepEqual(
      store.list().map((summary) => summary.id),
      ['ok'],
    );
    assert.ok(
      warnings.some((warning) => warning.includes('Ignored 2')),
      warnings.join('\n'),
    );
  });

  it('keeps at most maxConversations, dropping the oldest', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage, { maxConversations: 2, clock: clock() });
    const first = store.create();
    store.create();
    store.create();
    await store.flush();
    assert.equal(store.list().length, 2);
    assert.equal(store.get(first.id), undefined);
    assert.equal(new ConversationStore(storage).list().length, 2);
  });
});
