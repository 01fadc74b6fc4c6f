import type { WebviewState, WebviewToHost } from '../../chatPanel/core/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The webview's only channel: typed intents to the host, and a little state (draft, scroll) kept across reloads. */
export class HostChannel {
  private readonly api = acquireVsCodeApi();
  private state: WebviewState;

  constructor() {
    this.state = readState(this.api.getState());
  }

  post(message: WebviewToHost): void {
    this.api.postMessage(message);
  }

  get saved(): WebviewState {
    return this.state;
  }

  save(patch: Partial<WebviewState>): void {
    this.state = { ...this.state, ...patch };
    this.api.setState(this.state);
  }
}

/** The state is ours, but it survives versions: read it defensively. */
function readState(raw: unknown): WebviewState {
  if (typeof raw !== 'object' || raw === null) return {};
  const value = raw as Record<string, unknown>;
  return {
    ...(typeof value.conversationId === 'string' ? { conversationId: value.conversationId } : {}),
    ...(typeof value.draft === 'string' ? { draft: value.draft } : {}),
    ...(typeof value.scrollTop === 'number' ? { scrollTop: value.scrollTop } : {}),
  };
}
