import { HostChannel } from '../../../webviewPage/hostChannel';
import type { HostToWebview, ScrollAnchor, WebviewState, WebviewToHost } from '../protocol';

/** The chat page's channel: the chat protocol both ways, and its draft, scroll anchor and conversation kept across reloads. */
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
    ...(isScrollAnchor(value.scrollAnchor) ? { scrollAnchor: value.scrollAnchor } : {}),
  };
}

function isScrollAnchor(value: unknown): value is ScrollAnchor {
  if (typeof value !== 'object' || value === null) return false;
  const anchor = value as Record<string, unknown>;
  return typeof anchor.messageId === 'string' && typeof anchor.offset === 'number' && Number.isFinite(anchor.offset);
}
