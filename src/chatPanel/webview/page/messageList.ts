// Pinned by `npm run bench -- --only chat`: frames over 50 ms while streaming, and a 500-message chat's last screen and scroll.
import type { WebviewToHost } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { el } from '../../../webviewPage/dom';
import { codeActionOf } from './markdown';

/** What the message list shows before the first message. */
export function emptyState(): HTMLElement {
  return el('div', { className: 'empty-state' }, [
    el('h2', { text: t('Chat with your model') }),
    el('p', {
      text: t(
        'Ask anything about your code. Select code in an editor and run "Promptreel: Ask About Selection" (Ctrl+Alt+/) to ask about it, with its problems.',
      ),
    }),
    el('p', { text: t('Enter sends, Shift+Enter starts a new line, Escape stops a reply.') }),
  ]);
}

/** A click in the message list: a code block's toolbar acts; a link is left to VS Code. */
export function onMessageListClick(event: MouseEvent, post: (intent: WebviewToHost) => void): void {
  const target = event.target instanceof Element ? event.target : null;
  // Only the toolbars the page made act, on their own block's text: nothing in a reply can pose as one.
  const codeAction = target ? codeActionOf(target) : undefined;
  if (codeAction) {
    post({ type: 'codeAction', ...codeAction });
    const button = target?.closest<HTMLElement>('button.code-action');
    if (codeAction.action === 'copy' && button) flash(button, t('Copied'));
    return;
  }
  // A link is opened by VS Code itself: its webview host takes every click on a link (http, https and mailto go
  // out, after its own prompt for untrusted domains; command links only where allowed), whatever this page does.
  // Opening it here too gave two tabs or two prompts. The page only keeps the click from navigating itself.
  if (target?.closest('a')) event.preventDefault();
}

function flash(control: HTMLElement, text: string): void {
  const original = control.textContent;
  control.textContent = text;
  setTimeout(() => (control.textContent = original), 1200);
}
