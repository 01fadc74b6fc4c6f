import { ChatApp } from './app';
import { chatChannel } from './chatChannel';
import { HistoryView } from './historyView';

// Entry point of the chat page's bundle (dist/webview/chat.js): the chat, and its History view over it.
const root = document.getElementById('app');
if (root) {
  const channel = chatChannel();
  new ChatApp(root, channel);
  new HistoryView(root, channel);
}
