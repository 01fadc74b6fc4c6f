import { chatChannel } from './chatChannel';

// Imported first by main.ts, so this runs before the rest of the bundle is evaluated (the markdown renderer and the
// highlighter take most of the page's start-up): the host's answer to `ready`, the snapshot, travels meanwhile. It
// cannot arrive before the page listens: a message is handled only once this script has run to its end, and by then
// main.ts has put every listener in place.
export const channel = chatChannel();
channel.post({ type: 'ready', ...(channel.saved.conversationId ? { conversationId: channel.saved.conversationId } : {}) });
