import * as assert from 'node:assert/strict';
import { countOf, dateGroup, groupHistory, markedRuns, relativeTime } from '../../../../../src/chatPanel/webview/page/historyFormat';

// Local times, so the calendar days are the same in every time zone the tests run in.
const NOW = new Date(2025, 5, 18, 15, 30).getTime(); // Wednesday, June 18 2025, 15:30
const at = (month: number, day: number, hour = 12, minute = 0, year = 2025) => new Date(year, month, day, hour, minute).getTime();

describe('chat history: dates and groups in the History view', () => {
  it('groups by calendar day: today, yesterday, the previous 7 and 30 days, older', () => {
    assert.equal(dateGroup(at(5, 18, 0, 1), NOW), 'Today');
    assert.equal(dateGroup(NOW + 60_000, NOW), 'Today', 'a clock a little ahead is today');
    assert.equal(dateGroup(at(5, 17, 23, 59), NOW), 'Yesterday');
    assert.equal(dateGroup(at(5, 17, 0, 0), NOW), 'Yesterday');
    assert.equal(dateGroup(at(5, 16, 23, 59), NOW), 'Previous 7 days');
    assert.equal(dateGroup(at(5, 11, 0, 0), NOW), 'Previous 7 days');
    assert.equal(dateGroup(at(5, 10, 23, 0), NOW), 'Previous 30 days');
    assert.equal(dateGroup(at(4, 19, 0, 0), NOW), 'Previous 30 days');
    assert.equal(dateGroup(at(4, 18, 23, 0), NOW), 'Older');
  });

  it('puts pinned chats first, whatever their age, then the date groups in order, keeping the order given', () => {
    const chats = [
      { id: 'pinned-old', pinned: true, updatedAt: at(0, 1) },
      { id: 'today-2', pinned: false, updatedAt: at(5, 18, 15) },
      { id: 'today-1', pinned: false, updatedAt: at(5, 18, 9) },
      { id: 'old', pinned: false, updatedAt: at(1, 2) },
      { id: 'yesterday', pinned: false, updatedAt: at(5, 17) },
      { id: 'pinned-today', pinned: true, updatedAt: at(5, 18, 10) },
    ];
    assert.deepEqual(
      groupHistory(chats, NOW).map((group) => [group.label, group.items.map((chat) => chat.id)]),
      [
        ['Pinned', ['pinned-old', 'pinned-today']],
        ['Today', ['today-2', 'today-1']],
        ['Yesterday', ['yesterday']],
        ['Older', ['old']],
      ],
    );
    assert.deepEqual(groupHistory([], NOW), []);
  });

  it('says when a chat changed as a person would', () => {
    assert.equal(relativeTime(NOW - 20_000, NOW), 'just now');
    assert.equal(relativeTime(NOW + 5_000, NOW), 'just now');
    assert.equal(relativeTime(NOW - 5 * 60_000, NOW), '5 min ago');
    assert.equal(relativeTime(at(5, 18, 12, 0), NOW), '3 h ago');
    assert.equal(relativeTime(at(5, 17, 22, 0), NOW), 'yesterday');
    assert.equal(relativeTime(at(5, 14, 9, 0), NOW), 'Saturday');
    assert.equal(relativeTime(at(5, 11, 9, 0), NOW), 'Jun 11', 'a week ago is a date, not a weekday that could be this week');
    assert.equal(relativeTime(at(11, 24, 9, 0, 2024), NOW), 'Dec 24, 2024');
    assert.equal(countOf(1, 'message'), '1 message');
    assert.equal(countOf(0, 'chat'), '0 chats');
  });

  it('cuts a text into marked and plain runs, tolerating ranges past its end', () => {
    assert.deepEqual(
      markedRuns('the parser bug', [
        [4, 10],
        [11, 14],
      ]),
      [
        { text: 'the ', marked: false },
        { text: 'parser', marked: true },
        { text: ' ', marked: false },
        { text: 'bug', marked: true },
      ],
    );
    assert.deepEqual(markedRuns('abc', []), [{ text: 'abc', marked: false }]);
    assert.deepEqual(markedRuns('abc', [[1, 99]]), [
      { text: 'a', marked: false },
      { text: 'bc', marked: true },
    ]);
    assert.deepEqual(markedRuns('', [[0, 3]]), []);
  });
});
