import type { UserMessageView as UserMessageData } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { selectionLabel, severityLabel } from './contextLabels';
import { button, el } from '../../../webviewPage/dom';
import { mentionChips } from './mentionChips';
import type { MessageHost, MessagePlace } from './messageViews';

/** One user turn: its context (file and lines), attached images, and the text, with Edit & Resend. */
export class UserMessageView {
  readonly element: HTMLElement;
  private key = '';
  private message: UserMessageData;
  private busy = false;
  private edit: HTMLButtonElement | undefined;

  constructor(
    message: UserMessageData,
    private readonly host: MessageHost,
  ) {
    this.message = message;
    this.element = el('article', { className: 'message user', dataset: { messageId: message.id }, attrs: { 'aria-label': t('Your message') } });
  }

  get messageId(): string {
    return this.message.id;
  }

  update(message: UserMessageData, place: MessagePlace): void {
    this.busy = place.busy;
    // A reply starting or ending only enables or disables Edit: the message is not built again for that.
    if (this.edit) this.edit.disabled = place.busy;
    const key = JSON.stringify([message.text, message.context?.relativePath, message.context?.startLine, message.images.length, message.mentions.length]);
    if (key === this.key) return;
    this.key = key;
    this.message = message;
    this.render();
  }

  dispose(): void {}

  private render(): void {
    const message = this.message;
    const edit = button(t('Edit'), { ariaLabel: t('Edit this message and send it again'), dataset: { messageAction: 'edit' } });
    edit.disabled = this.busy;
    this.edit = edit;
    edit.addEventListener('click', () => this.startEditing());
    const children: (Node | false)[] = [el('header', { className: 'message-header' }, [el('span', { className: 'message-role', text: t('You') }), edit])];
    if (message.context) {
      const context = message.context;
      children.push(
        el('details', { className: 'message-context' }, [
          el('summary', { text: selectionLabel(context) }),
          el('pre', { className: 'context-code', text: context.code, attrs: { tabindex: '0' } }),
          ...context.diagnostics.map((d) =>
            el('p', { className: `context-diagnostic ${d.severity}`, text: t('Line {0}, {1}: {2}', d.line, severityLabel(d.severity), d.message) }),
          ),
        ]),
      );
    }
    if (message.mentions.length) {
      const open = (id: string): void => this.host.post({ type: 'openMention', id, conversationId: this.host.conversationId(), messageId: message.id });
      children.push(
        el('div', { className: 'message-mentions', attrs: { role: 'group', 'aria-label': t('Mentioned') } }, mentionChips(message.mentions, { open })),
      );
    }
    if (message.images.length) {
      children.push(
        el(
          'div',
          { className: 'message-images' },
          message.images.map((image) => el('span', { className: 'chip', text: t('Image: {0}', image.name) })),
        ),
      );
    }
    children.push(el('div', { className: 'message-body plain', text: message.text }));
    this.element.replaceChildren(...children.filter((child): child is Node => child !== false));
  }

  private startEditing(): void {
    const body = this.element.querySelector('.message-body');
    if (!body) return;
    const input = el('textarea', { className: 'edit-input', attrs: { 'aria-label': t('Edited message'), rows: '3' } });
    input.value = this.message.text;
    const save = button(t('Save & Resend'), { className: 'primary', ariaLabel: t('Send the edited message; later turns are dropped') });
    const cancel = button(t('Cancel'));
    const form = el('div', { className: 'edit-form' }, [input, el('div', { className: 'edit-actions' }, [save, cancel])]);
    const finish = () => {
      this.key = '';
      this.render();
    };
    const submit = () => {
      const text = input.value.trim();
      if (!text) return;
      this.host.post({ type: 'editMessage', conversationId: this.host.conversationId(), messageId: this.message.id, text });
    };
    save.addEventListener('click', submit);
    cancel.addEventListener('click', finish);
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        submit();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        finish();
      }
    });
    body.replaceWith(form);
    input.focus();
  }
}
