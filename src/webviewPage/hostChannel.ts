interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * A page's only channel to its host: typed messages both ways (the webview's protocol), and the little state the page
 * keeps across reloads (`setState`: a draft, a scroll position, filters; never what the host owns).
 */
export class HostChannel<ToHost, FromHost, State extends object> {
  private readonly api = acquireVsCodeApi();
  private state: State;

  /** `readState`: the saved state is ours, but it survives versions: it is read defensively. */
  constructor(readState: (saved: unknown) => State) {
    this.state = readState(this.api.getState());
  }

  post(message: ToHost): void {
    this.api.postMessage(message);
  }

  /** The host's messages (what they are is the protocol's promise: the host is the only sender). */
  onMessage(listener: (message: FromHost) => void): void {
    window.addEventListener('message', (event: MessageEvent<FromHost>) => listener(event.data));
  }

  get saved(): State {
    return this.state;
  }

  save(patch: Partial<State>): void {
    this.state = { ...this.state, ...patch };
    this.api.setState(this.state);
  }
}
