import { ChatApp } from './app';
import { HistoryView } from './historyView';
import { HostChannel } from './vscodeApi';

// Entry point of the chat webview bundle (dist/webview/chat.js): the chat, and its History view over it.
const root = document.getElementById('app');
if (root) {
  const channel = new HostChannel();
  new ChatApp(root, channel);
  new HistoryView(root, (message) => channel.post(message));
}
