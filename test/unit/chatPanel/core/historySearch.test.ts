import * as assert from 'node:assert/strict';
import { matchRanges, queryWords, searchConversations, snippetAround, SNIPPET_LENGTH } from '../../../../src/chatPanel/core/conversationSearch';
import { ConversationStore } from '../../../../src/chatPanel/core/conversationStore';
import type { Conversation, ConversationMessage } from '../../../../src/chatPanel/core/model';
import { MemoryStorage } from '../../../fakes/memoryStorage';

function user(text: string): ConversationMessage {
  return { id: `u-${text.length}`, role: 'user', text, createdAt: 1 };
}

function reply(text: string): ConversationMessage {
  return { id: `a-${text.length}`, role: 'assistant', model: 'm', text, reasoning: '', toolCalls: [], status: 'done', createdAt: 2 };
}

function chat(id: string, title: string, updatedAt: number, messages: ConversationMessage[] = [], pinned = false): Conversation {
  return { id, title, createdAt: 1, updatedAt, options: {}, messages, ...(pinned ? { pinned } : {}) };
}

const LONG =
  'Before we start, a long preamble about nothing in particular that goes on and on for a while. ' +
  'The parser fails on nested brackets when the input ends early, and then it recovers badly. ' +
  'After that, more words follow here to make the message long enough for an ellipsis at the end.';

describe('chat history search', () => {
  it('splits the query into lower-case words, without repeats, and finds nothing for a blank query', () => {
    assert.deepEqual(queryWords('  Parser   BUG parser '), ['parser', 'bug']);
    assert.deepEqual(searchConversations([chat('a', 'anything', 1)], '   '), []);
  });

  it('needs every word, in the title or any message, case-insensitively', () => {
    const conversations = [
      chat('both-in-text', 'Untitled', 3, [user('Why does the PARSER crash?'), reply('A bug in the tokenizer.')]),
      chat('one-word-only', 'Parser notes', 2, [user('nothing else here')]),
      chat('split', 'Parser questions', 1, [reply('It was a Bug after all.')]),
    ];
    assert.deepEqual(
      searchConversations(conversations, 'parser bug').map((result) => result.id),
      ['both-in-text', 'split'],
    );
    assert.deepEqual(
      searchConversations(conversations, 'tokenizer').map((result) => result.id),
      ['both-in-text'],
    );
    assert.deepEqual(searchConversations(conversations, 'zebra'), []);
  });

  it('ranks title matches first, then the newest, and says where it matched', () => {
    const conversations = [
      chat('text-new', 'Other', 50, [user('the cache is stale')]),
      chat('title-old', 'Cache invalidation', 10, [user('how?')]),
      chat('text-old', 'Misc', 5, [reply('clear the Cache first')]),
      chat('title-new', 'The cache again', 40),
    ];
    const results = searchConversations(conversations, 'cache');
    assert.deepEqual(
      results.map((result) => [result.id, result.matchIn]),
      [
        ['title-new', 'title'],
        ['title-old', 'title'],
        ['text-new', 'text'],
        ['text-old', 'text'],
      ],
    );
    assert.equal(results[0].snippet, undefined, 'no message holds the word: no snippet');
    assert.equal(results[2].snippet, 'the cache is stale');
    assert.equal(results[3].snippet, 'clear the Cache first', 'the snippet keeps the original case');
  });

  it('shows about 80 characters around the first match, cut at words, with ellipses', () => {
    const [result] = searchConversations([chat('long', 'Long one', 1, [user('short first message'), reply(LONG)])], 'nested');
    const snippet = result.snippet ?? '';
    assert.match(snippet, /^….*nested brackets.*…$/);
    assert.ok(snippet.length <= SNIPPET_LENGTH + 2, `${snippet.length}: ${snippet}`);
    assert.ok(snippet.length >= SNIPPET_LENGTH - 30, `${snippet.length}: ${snippet}`);
    const body = snippet.slice(1, -1);
    assert.ok(LONG.includes(body), 'whole words of the message, nothing invented');
    assert.ok(/\s/.test(LONG[LONG.indexOf(body) - 1]) && /\s/.test(LONG[LONG.indexOf(body) + body.length]), 'cut at word boundaries');
  });

  it('takes the earliest match in the first message that has one, and collapses whitespace', () => {
    const [result] = searchConversations(
      [chat('c', 'title', 1, [user('nothing'), user('first   line\n\nthen beta and alpha'), reply('alpha again')])],
      'alpha beta',
    );
    assert.equal(result.snippet, 'first line then beta and alpha');
    assert.equal(snippetAround('x'.repeat(10), 0, 1), 'xxxxxxxxxx');
    assert.equal(snippetAround(`${'a'.repeat(100)} needle`, 101, 6), `…${'a'.repeat(73)} needle`, 'no word boundary near: cut inside the word');
  });

  it('says where each word stands in the title and the snippet, for the page to highlight', () => {
    const [result] = searchConversations([chat('c', 'Parser bug: the PARSER again', 1, [user('a bug in the parser, a parse error')])], 'parser bug');
    const at = (text: string, ranges: [number, number][]) => ranges.map(([start, end]) => text.slice(start, end));
    assert.deepEqual(at(result.title, result.titleMatches), ['Parser', 'bug', 'PARSER']);
    assert.deepEqual(at(result.snippet ?? '', result.snippetMatches), ['bug', 'parser']);
    assert.deepEqual(matchRanges('abcabc', [/abc/iu, /bca/iu, /c/iu]), [[0, 6]], 'overlapping and touching matches merge into one range');
    assert.deepEqual(matchRanges('x.y xzy', [/x\.y/iu]), [[0, 3]]);
    assert.deepEqual(matchRanges('nothing', [/zebra/iu]), []);
  });

  it('treats the query as plain text, not as a pattern', () => {
    const conversations = [chat('regex', 'a.b (c)', 1), chat('other', 'axb c', 2)];
    assert.deepEqual(
      searchConversations(conversations, 'a.b (c)').map((result) => result.id),
      ['regex'],
    );
  });

  it('searches the store, pinned ones keeping no advantage over a title match', () => {
    let now = 0;
    const store = new ConversationStore(new MemoryStorage(), { clock: { now: () => ++now, setTimeout: () => ({ dispose: () => undefined }) } });
    const pinned = store.create();
    pinned.messages.push(user('deploy script fails'));
    store.setPinned(pinned.id, true);
    const titled = store.create();
    store.rename(titled.id, 'Deploy checklist');
    const results = store.search('DEPLOY');
    assert.deepEqual(
      results.map((result) => [result.id, result.matchIn, result.pinned]),
      [
        [titled.id, 'title', false],
        [pinned.id, 'text', true],
      ],
    );
  });
});
