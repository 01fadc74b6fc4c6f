import { HIGHLIGHTER_READY } from './highlight';
import { highlightJs } from './highlightJs';

// Entry point of dist/webview/chat-highlight.js, which the chat page loads once its first screen shows (highlight.ts).
document.dispatchEvent(new CustomEvent(HIGHLIGHTER_READY, { detail: highlightJs }));
