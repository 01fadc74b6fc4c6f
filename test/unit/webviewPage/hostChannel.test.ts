import * as assert from 'node:assert/strict';
import { HostChannel } from '../../../src/webviewPage/hostChannel';

type FromHost = { type: 'snapshot'; text: string } | { type: 'models'; names: string[] };

/**
 * A webview as the page sees it: VS Code's API (its state survives the page loading again), the page's HTML with
 * the host's first message in it, and the window's message events.
 */
class FakeWebview {
  state: unknown;
  firstMessageBlock: string | undefined;
  private listeners: ((event: { data: unknown }) => void)[] = [];

  constructor(first?: { id: string; message: FromHost }) {
    this.firstMessageBlock = first ? JSON.stringify(first) : undefined;
  }

  /** Loads the page (again): a fresh document and window over the same HTML and the saved state. */
  load(): HostChannel<{ type: 'ready' }, FromHost, { draft?: string }> {
    this.listeners = [];
    const globals = globalThis as Record<string, unknown>;
    globals.acquireVsCodeApi = () => ({
      postMessage: () => undefined,
      getState: () => this.state,
      setState: (state: unknown) => (this.state = structuredClone(state)),
    });
    globals.document = {
      getElementById: (id: string) =>
        id === 'promptreel-first-message' && this.firstMessageBlock !== undefined ? { textContent: this.firstMessageBlock } : null,
    };
    globals.window = { addEventListener: (_type: string, listener: (event: { data: unknown }) => void) => this.listeners.push(listener) };
    return new HostChannel((saved) => (typeof saved === 'object' && saved !== null && 'draft' in saved ? { draft: String(saved.draft) } : {}));
  }

  /** The host posts a message (a structured clone reaches the page). */
  post(message: FromHost): void {
    for (const listener of this.listeners) listener({ data: structuredClone(message) });
  }
}

describe('the page kit: the host’s first message in the page (src/webviewPage/hostChannel.ts)', () => {
  const snapshot: FromHost = { type: 'snapshot', text: 'the chat as the page was made' };

  afterEach(() => {
    const globals = globalThis as Record<string, unknown>;
    for (const name of ['acquireVsCodeApi', 'document', 'window']) delete globals[name];
  });

  it('hands it out once: the page loaded again over the same HTML (hidden, then shown) gets none, it may be stale', () => {
    const webview = new FakeWebview({ id: 'page-1', message: snapshot });
    assert.deepEqual(webview.load().takeFirstMessage(), snapshot);
    assert.equal(webview.load().takeFirstMessage(), undefined);
    // New HTML (the host made the page again): its first message is shown.
    webview.firstMessageBlock = JSON.stringify({ id: 'page-2', message: snapshot });
    assert.deepEqual(webview.load().takeFirstMessage(), snapshot);
  });

  it('keeps that mark when the page saves its own state, and gives the page only its own', () => {
    const webview = new FakeWebview({ id: 'page-1', message: snapshot });
    const channel = webview.load();
    channel.takeFirstMessage();
    channel.save({ draft: 'half a question' });
    const again = webview.load();
    assert.deepEqual(again.saved, { draft: 'half a question' });
    assert.equal(again.takeFirstMessage(), undefined);
  });

  it("does not hand out the host's answer to ready when it is the same message; a changed one, or another type, it does", () => {
    const webview = new FakeWebview({ id: 'page-1', message: snapshot });
    const channel = webview.load();
    const received: FromHost[] = [];
    channel.onMessage((message) => received.push(message));
    channel.takeFirstMessage();
    webview.post({ type: 'models', names: ['m'] });
    webview.post(snapshot);
    webview.post(snapshot);
    assert.deepEqual(received, [{ type: 'models', names: ['m'] }, snapshot], 'the echo alone is dropped, once');

    const changed = new FakeWebview({ id: 'page-1', message: snapshot });
    const second = changed.load();
    const got: FromHost[] = [];
    second.onMessage((message) => got.push(message));
    second.takeFirstMessage();
    changed.post({ type: 'snapshot', text: 'a reply came meanwhile' });
    assert.deepEqual(got, [{ type: 'snapshot', text: 'a reply came meanwhile' }]);
  });

  it('leaves a first message the page does not show to the host’s answer: not marked, its echo handed out', () => {
    const webview = new FakeWebview({ id: 'page-1', message: snapshot });
    const channel = webview.load();
    const received: FromHost[] = [];
    channel.onMessage((message) => received.push(message));
    assert.equal(
      channel.takeFirstMessage(() => false),
      undefined,
    );
    webview.post(snapshot);
    assert.deepEqual(received, [snapshot]);
    assert.deepEqual(webview.load().takeFirstMessage(), snapshot, 'a later load may still show it');
  });

  it('hands out nothing from a page without one, or with one that is not a message', () => {
    assert.equal(new FakeWebview().load().takeFirstMessage(), undefined);
    const broken = new FakeWebview();
    for (const block of ['{not json', '{"id":"p","message":null}', '{"id":3,"message":{"type":"snapshot"}}', '{"id":"p","message":{"text":"no type"}}']) {
      broken.firstMessageBlock = block;
      assert.equal(broken.load().takeFirstMessage(), undefined, block);
    }
  });
});
