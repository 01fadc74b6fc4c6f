import * as assert from 'node:assert/strict';
import { systemClock, type Clock } from '../../../../src/common/clock';
import { MemoryStorage } from '../../../fakes/memoryStorage';
import { addUserMessage } from '../../../../src/chatPanel/core/conversation';
import { ConversationStore, STORAGE_KEY, type StoreChange } from '../../../../src/chatPanel/core/conversationStore';
import type { Conversation } from '../../../../src/chatPanel/core/model';

/** A time that moves one millisecond each time it is read. */
function clock(start = 1000): Clock {
  let now = start;
  return { now: () => ++now, setTimeout: systemClock.setTimeout };
}

function ids(store: ConversationStore): string[] {
  return store.list().map((summary) => summary.id);
}

function stored(storage: MemoryStorage): Conversation[] {
  return (storage.values.get(STORAGE_KEY) as { conversations: Conversation[] }).conversations;
}

describe('chat history: pins, deleting several, importing into the store', () => {
  it('lists pinned chats first, then the newest, and keeps the pin across a reload', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage, { clock: clock() });
    const old = store.create();
    const middle = store.create();
    const newest = store.create();
    assert.deepEqual(ids(store), [newest.id, middle.id, old.id]);

    const changes: StoreChange[] = [];
    store.onDidChange((change) => changes.push(change));
    assert.equal(store.setPinned(old.id, true), true);
    assert.deepEqual(ids(store), [old.id, newest.id, middle.id]);
    assert.deepEqual(changes, [{ conversationId: old.id, listChanged: true }]);
    assert.equal(store.list()[0].pinned, true);
    assert.equal(store.list()[1].pinned, false);
    assert.equal(store.mostRecent()?.id, newest.id, 'the most recent chat is the one changed last, pinned or not');

    store.setPinned(middle.id, true);
    assert.deepEqual(ids(store), [middle.id, old.id, newest.id], 'pinned ones among themselves: newest first');
    await store.flush();
    assert.deepEqual(ids(new ConversationStore(storage)), [middle.id, old.id, newest.id]);

    store.setPinned(middle.id, false);
    assert.deepEqual(ids(store), [old.id, newest.id, middle.id]);
    assert.equal(store.get(middle.id)?.pinned, undefined, 'unpinning leaves no flag behind');
    assert.equal(store.setPinned('missing', true), false);
  });

  it('never drops a pinned chat for the cap: the cap counts the unpinned ones', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage, { maxConversations: 2, clock: clock() });
    const pinnedOld = store.create();
    store.setPinned(pinnedOld.id, true);
    const second = store.create();
    const third = store.create();
    const fourth = store.create();
    await store.flush();
    assert.deepEqual(ids(store), [pinnedOld.id, fourth.id, third.id]);
    assert.equal(store.get(second.id), undefined, 'the oldest unpinned chat is dropped');
    assert.deepEqual(
      stored(storage).map((conversation) => conversation.id),
      [pinnedOld.id, fourth.id, third.id],
    );
  });

  it('deletes several chats with one change event and one write', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage, { clock: clock() });
    const [a, b, c] = [store.create(), store.create(), store.create()];
    await store.flush();
    const writes = storage.writes;
    const changes: StoreChange[] = [];
    store.onDidChange((change) => changes.push(change));

    assert.deepEqual(store.deleteMany([a.id, c.id, 'missing', a.id]), [a.id, c.id]);
    await store.flush();
    assert.deepEqual(changes, [{ listChanged: true }]);
    assert.deepEqual(ids(store), [b.id]);
    assert.equal(storage.writes, writes + 2, 'the delete wrote once (and the flush above once more)');
    assert.deepEqual(
      stored(storage).map((conversation) => conversation.id),
      [b.id],
    );

    assert.deepEqual(store.deleteMany(['missing']), []);
    assert.equal(changes.length, 1, 'nothing deleted: nobody is told');
  });

  it('adds an imported chat under new ids, on top, and never replaces the chat it came from', async () => {
    let next = 0;
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage, { clock: clock(), newId: () => `id-${++next}` });
    const original = store.create({ model: 'm' });
    addUserMessage(original, { text: 'hello' }, 5, () => 'message-1');
    store.setPinned(original.id, true);
    original.allowedTools = ['promptreel_readFile'];
    const other = store.create();

    const copy = store.addImported(structuredClone(original));
    const again = store.addImported(structuredClone(original));
    assert.notEqual(copy.id, original.id);
    assert.notEqual(again.id, copy.id);
    assert.notEqual(copy.messages[0].id, 'message-1');
    assert.equal(copy.messages[0].text, 'hello');
    assert.equal(copy.pinned, undefined, 'an imported chat starts unpinned');
    assert.equal(copy.allowedTools, undefined, 'a file grants no tool permissions');
    assert.deepEqual(ids(store), [original.id, again.id, copy.id, other.id]);
    assert.equal(store.get(original.id)?.messages[0].id, 'message-1', 'the original is untouched');
    await store.flush();
    assert.equal(new ConversationStore(storage).list().length, 4);
  });
});
