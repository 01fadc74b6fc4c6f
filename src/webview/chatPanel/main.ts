import { ChatApp } from './app';
import { HostChannel } from './vscodeApi';

// Entry point of the chat webview bundle (dist/webview/chat.js).
const root = document.getElementById('app');
if (root) new ChatApp(root, new HostChannel());
