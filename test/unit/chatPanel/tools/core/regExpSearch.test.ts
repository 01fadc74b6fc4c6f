import * as assert from 'node:assert/strict';
import { RegExpLineSearch } from '../../../../../src/chatPanel/tools/core/regExpSearch';
import { compileQuery } from '../../../../../src/chatPanel/tools/core/textSearch';

describe("the search tool's regular expressions", () => {
  it("review 2.5: a model's regular expression that backtracks without end is stopped at its budget, off the extension host's thread", async () => {
    const pattern = compileQuery({ query: '(a+)+$', isRegExp: true });
    assert.ok(pattern instanceof RegExp);
    const search = new RegExpLineSearch(pattern, 300);
    // While the worker is stuck, this thread keeps running: the interval ticks.
    let ticks = 0;
    const interval = setInterval(() => ticks++, 10);
    try {
      assert.deepEqual(await search.matchLines('ok.txt', 'bbb\naaa\n', 10), [{ path: 'ok.txt', line: 2, text: 'aaa' }]);
      const stuck = search.matchLines('big.txt', `${'a'.repeat(40)}!`, 10);
      const after = search.matchLines('next.txt', 'aaa', 10);
      const answer = await stuck;
      assert.match(String(answer), /^The regular expression took more than 0\.3 seconds on big\.txt, so the search was stopped: it backtracks too much/);
      assert.equal(await after, answer, 'what was waiting behind it gets the same answer');
      assert.equal(await search.matchLines('later.txt', 'aaa', 10), answer, 'and so does anything asked afterwards');
      assert.ok(ticks >= 5, `the thread ran meanwhile (${ticks} ticks)`);
    } finally {
      clearInterval(interval);
      search.dispose();
    }
  });

  it('answers the lines of each file in order, case-insensitively unless asked, at most the limit', async () => {
    const search = new RegExpLineSearch(compileQuery({ query: 'fo+\\d', isRegExp: true }) as RegExp);
    try {
      const [first, second] = await Promise.all([search.matchLines('a.ts', 'FOO1\nbar\nfoo2\nfoo3', 2), search.matchLines('b.ts', 'none', 10)]);
      assert.deepEqual(first, [
        { path: 'a.ts', line: 1, text: 'FOO1' },
        { path: 'a.ts', line: 3, text: 'foo2' },
      ]);
      assert.deepEqual(second, []);
    } finally {
      search.dispose();
    }
    const stopped = new RegExpLineSearch(/x/);
    stopped.dispose();
    assert.equal(await stopped.matchLines('a.ts', 'x', 1), 'The search was stopped.');
  });
});
