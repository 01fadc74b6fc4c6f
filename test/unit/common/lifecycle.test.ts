import * as assert from 'node:assert/strict';
import { Disposable, DisposableStore, MutableDisposable, toDisposable } from '../../../src/common/lifecycle';

function recorder(log: string[], name: string) {
  return toDisposable(() => log.push(name));
}

describe('lifecycle: disposables (src/common/lifecycle.ts)', () => {
  it('a store disposes what it holds newest first, once, and at once what is added after', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(recorder(log, 'first'));
    store.add(recorder(log, 'second'));
    assert.equal(store.isDisposed, false);
    store.dispose();
    store.dispose();
    assert.deepEqual(log, ['second', 'first']);
    assert.equal(store.isDisposed, true);
    store.add(recorder(log, 'late'));
    assert.deepEqual(log, ['second', 'first', 'late']);
  });

  it('a store disposes everything even when some throw, and reports each error', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(recorder(log, 'kept'));
    store.add(
      toDisposable(() => {
        throw new Error('one');
      }),
    );
    store.add(
      toDisposable(() => {
        throw new Error('two');
      }),
    );
    assert.throws(
      () => store.dispose(),
      (error: unknown) => error instanceof AggregateError && error.errors.length === 2,
    );
    assert.deepEqual(log, ['kept']);
  });

  it('an object that owns registrations tells work resuming after an await whether it was disposed meanwhile', async () => {
    class Page extends Disposable {
      readonly shown: string[] = [];
      async show(content: Promise<string>): Promise<void> {
        const text = await content;
        if (!this.isDisposed) this.shown.push(text);
      }
    }
    const open = new Page();
    await open.show(Promise.resolve('snapshot'));
    assert.deepEqual(open.shown, ['snapshot']);

    const closed = new Page();
    let arrive: (text: string) => void = () => undefined;
    const showing = closed.show(new Promise<string>((resolve) => (arrive = resolve)));
    closed.dispose();
    arrive('late snapshot');
    await showing;
    assert.deepEqual(closed.shown, [], 'nothing is shown on a disposed page');
  });

  it('a mutable disposable disposes the value it replaces, and a value set after its disposal', () => {
    const log: string[] = [];
    const holder = new MutableDisposable();
    const a = recorder(log, 'a');
    holder.value = a;
    holder.value = a;
    assert.deepEqual(log, []);
    holder.value = recorder(log, 'b');
    assert.deepEqual(log, ['a']);
    holder.dispose();
    assert.deepEqual(log, ['a', 'b']);
    holder.value = recorder(log, 'c');
    assert.deepEqual(log, ['a', 'b', 'c']);
    assert.equal(holder.value, undefined);
  });
});
