import { HostChannel } from '../../../webviewPage/hostChannel';
import type { HostToWebview, WebviewState, WebviewToHost } from '../protocol';

/** The chat page's channel: the chat protocol both ways, and its draft, scroll and conversation kept across reloads. */
export type ChatChannel = HostChannel<WebviewToHost, HostToWebview, WebviewState>;

export function chatChannel(): ChatChannel {
  return new HostChannel(readState);
}

function readState(raw: unknown): WebviewState {
  if (typeof raw !== 'object' || raw === null) return {};
  const value = raw as Record<string, unknown>;
  return {
    ...(typeof value.conversationId === 'string' ? { conversationId: value.conversationId } : {}),
    ...(typeof value.draft === 'string' ? { draft: value.draft } : {}),
    ...(typeof value.scrollTop === 'number' ? { scrollTop: value.scrollTop } : {}),
  };
}
