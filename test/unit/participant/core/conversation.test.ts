import * as assert from 'node:assert/strict';
import { buildConversation, MAX_HISTORY_TURNS, type PastTurn } from '../../../../src/participant/core/participantMessages';

describe('participant: conversation', () => {
  it('sends the earlier turns and the new question (the instructions come from the chat-request layer)', () => {
    const history: PastTurn[] = [
      { role: 'user', text: 'What is x?' },
      { role: 'assistant', text: 'A variable.' },
      { role: 'user', text: '', command: 'explain' },
      { role: 'assistant', text: 'It adds.', command: 'explain' },
    ];
    assert.deepEqual(buildConversation({ history, user: 'And y?' }), [
      { role: 'user', content: 'What is x?' },
      { role: 'assistant', content: 'A variable.' },
      { role: 'user', content: '/explain' },
      { role: 'assistant', content: 'It adds.' },
      { role: 'user', content: 'And y?' },
    ]);
  });

  it('leaves out video turns, failed exchanges and empty answers', () => {
    const history: PastTurn[] = [
      { role: 'user', text: 'a cat', command: 'video' },
      { role: 'assistant', text: 'Video task created', command: 'video' },
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: '', failed: true },
      { role: 'user', text: 'hello' },
      { role: 'assistant', text: '' },
    ];
    assert.deepEqual(
      buildConversation({ history, user: 'u' }).map((message) => message.content),
      ['hello', 'u'],
    );
  });

  it('keeps only the newest turns', () => {
    const history: PastTurn[] = Array.from({ length: 50 }, (_, index) => ({ role: index % 2 ? 'assistant' : 'user', text: `turn ${index}` }));
    const messages = buildConversation({ history, user: 'u' });
    assert.equal(messages.length, MAX_HISTORY_TURNS + 1);
    assert.equal(messages[0].content, `turn ${50 - MAX_HISTORY_TURNS}`);
  });
});
