interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Where the saved state marks the first message the page has shown (see `takeFirstMessage`). */
const SHOWN_FIRST = 'shownFirstMessage';

/**
 * A page's only channel to its host: typed messages both ways (the webview's protocol), and the little state the page
 * keeps across reloads (`setState`: a draft, a scroll position, filters; never what the host owns).
 */
export class HostChannel<ToHost, FromHost extends { type: string }, State extends object> {
  private readonly api = acquireVsCodeApi();
  private state: State;
  /** The id of the first message the host put in the page, once shown (kept in the saved state). */
  private shownFirst: string | undefined;
  /** The first message as shown, until the host's message of its type comes: the same again is not handed out. */
  private echo: { type: string; json: string } | undefined;

  /** `readState`: the saved state is ours, but it survives versions: it is read defensively. */
  constructor(readState: (saved: unknown) => State) {
    const saved = this.api.getState();
    this.state = readState(saved);
    const shown = typeof saved === 'object' && saved !== null ? (saved as Record<string, unknown>)[SHOWN_FIRST] : undefined;
    this.shownFirst = typeof shown === 'string' ? shown : undefined;
  }

  post(message: ToHost): void {
    this.api.postMessage(message);
  }

  /**
   * The host's first message when it put one in the page (WebviewHost.showPage), so the first screen needs no round
   * trip; undefined when there is none, or when this page loads again (hidden, then shown) and it may be stale. The
   * host still answers `ready`: its next message of the same type, when it is the same, is not handed out again.
   * `accept` says whether the page shows it; one it does not is left to the host's answer.
   */
  takeFirstMessage(accept: (message: FromHost) => boolean = () => true): FromHost | undefined {
    const text = document.getElementById('promptreel-first-message')?.textContent;
    if (!text) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { id, message } = parsed as { id?: unknown; message?: unknown };
    if (typeof id !== 'string' || id === this.shownFirst || typeof message !== 'object' || message === null) return undefined;
    const type = (message as { type?: unknown }).type;
    // The protocol's promise, as for every message of the host (the host wrote it into the page).
    if (typeof type !== 'string' || !accept(message as FromHost)) return undefined;
    this.shownFirst = id;
    this.api.setState(this.saving());
    this.echo = { type, json: JSON.stringify(message) };
    return message as FromHost;
  }

  /** The host's messages (what they are is the protocol's promise: the host is the only sender). */
  onMessage(listener: (message: FromHost) => void): void {
    window.addEventListener('message', (event: MessageEvent<FromHost>) => {
      const echo = this.echo;
      if (echo && event.data?.type === echo.type) {
        this.echo = undefined;
        if (JSON.stringify(event.data) === echo.json) return;
      }
      listener(event.data);
    });
  }

  get saved(): State {
    return this.state;
  }

  save(patch: Partial<State>): void {
    this.state = { ...this.state, ...patch };
    this.api.setState(this.saving());
  }

  private saving(): unknown {
    return this.shownFirst ? { ...this.state, [SHOWN_FIRST]: this.shownFirst } : this.state;
  }
}
