import type { QuickAction } from '../../core/model';
import type { CapabilitiesView, ContextBudgetView, DraftView, MentionSuggestionView, WebviewToHost } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { acceptPasteAndDrop } from './composerDrop';
import { selectionLabel } from './contextLabels';
import { ContextMeter } from './contextMeter';
import { button, byId, el } from '../../../webviewPage/dom';
import { mentionChips } from './mentionChips';
import { MentionPopup } from './mentionPopup';

const QUICK_ACTIONS: readonly QuickAction[] = ['explain', 'findBugs', 'writeTests', 'document'];

function quickActionLabel(action: QuickAction): string {
  switch (action) {
    case 'explain':
      return t('Explain');
    case 'findBugs':
      return t('Find Bugs');
    case 'writeTests':
      return t('Write Tests');
    case 'document':
      return t('Document');
  }
}

export interface ComposerHost {
  post(message: WebviewToHost): void;
  conversationId(): string;
  saveDraft(text: string): void;
}

/**
 * The prompt box: Enter sends, Shift+Enter adds a line, Escape stops a reply. Above it, the selection being asked
 * about (with the quick actions) and the attached images.
 */
export class Composer {
  private readonly input = byId<HTMLTextAreaElement>('prompt');
  private readonly buttons = {
    send: byId<HTMLButtonElement>('send'),
    stop: byId<HTMLButtonElement>('stop'),
    attach: byId<HTMLButtonElement>('attach-image'),
    tools: byId<HTMLButtonElement>('tools-toggle'),
  };
  private toolsOn = true;
  private capabilities: CapabilitiesView | undefined;
  private readonly context = byId<HTMLElement>('draft-context');
  private readonly images = byId<HTMLElement>('draft-images');
  private readonly mentions = byId<HTMLElement>('draft-mentions');
  private readonly notice = byId<HTMLElement>('draft-notice');
  private readonly popup: MentionPopup;
  private readonly meter = new ContextMeter(byId('context-meter'));
  private busy = false;
  private draft: DraftView = { images: [], mentions: [] };

  constructor(
    private readonly host: ComposerHost,
    initialText: string,
  ) {
    this.input.value = initialText;
    this.popup = new MentionPopup(this.input, byId('mention-popup'), (message) => this.host.post(message));
    acceptPasteAndDrop(byId('composer'), this.input, { post: (message) => this.host.post(message), notify: (text) => this.showNotice(text) });
    this.input.addEventListener('keydown', (event) => {
      if (this.popup.handleKey(event)) {
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      }
    });
    this.input.addEventListener('input', () => {
      this.host.saveDraft(this.input.value);
      this.meter.setTyped(this.input.value);
      this.updateButtons();
    });
    this.meter.setTyped(this.input.value);
    this.buttons.send.addEventListener('click', () => this.submit());
    this.buttons.stop.addEventListener('click', () => this.requestStop());
    this.buttons.attach.addEventListener('click', () => this.host.post({ type: 'attachImage' }));
    // Off: `tools: false` for this chat; on again: the option is cleared (tools are on by default).
    this.buttons.tools.addEventListener('click', () =>
      this.host.post({ type: 'setOptions', conversationId: this.host.conversationId(), options: { tools: this.toolsOn ? false : null } }),
    );
    this.updateButtons();
  }

  focus(): void {
    this.input.focus();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.updateButtons();
  }

  setCapabilities(capabilities: CapabilitiesView): void {
    this.buttons.attach.hidden = !capabilities.vision;
    this.capabilities = capabilities;
    this.renderTools();
  }

  /** Whether the chat shown lets its model call tools (its option; on unless turned off). */
  setToolsOn(on: boolean): void {
    this.toolsOn = on;
    this.renderTools();
  }

  private renderTools(): void {
    const capabilities = this.capabilities;
    const control = this.buttons.tools;
    control.hidden = !capabilities?.tools || capabilities.toolCount === 0;
    if (!capabilities || control.hidden) return;
    control.textContent = this.toolsOn ? t('Tools: {0}', capabilities.toolCount) : t('Tools: off');
    control.setAttribute('aria-pressed', String(this.toolsOn));
    control.title = this.toolsOn
      ? t('The model may call {0}; each call asks you first. Click to turn tools off for this chat.', capabilities.toolNames.join(', '))
      : t('Tools are off for this chat: click to let the model call them again.');
  }

  showMentionResults(requestId: number, items: MentionSuggestionView[]): void {
    this.popup.show(requestId, items);
  }

  setBudget(budget: ContextBudgetView | undefined): void {
    this.meter.set(budget);
    this.renderMentions();
  }

  setDraft(draft: DraftView): void {
    this.draft = draft;
    if (draft.text !== undefined && !this.input.value) {
      this.input.value = draft.text;
      this.host.saveDraft(draft.text);
      this.updateButtons();
    }
    this.renderContext();
    this.images.replaceChildren(
      ...draft.images.map((image, index) => {
        const remove = button('×', { className: 'chip-remove', ariaLabel: t('Remove the image {0}', image.name) });
        remove.addEventListener('click', () => this.host.post({ type: 'removeImage', index }));
        return el('span', { className: 'chip' }, [
          el('span', { text: t('Image: {0} ({1} KB)', image.name, Math.max(1, Math.round(image.size / 1024))) }),
          remove,
        ]);
      }),
    );
    this.images.hidden = draft.images.length === 0;
    this.renderMentions();
    this.showNotice(draft.notice);
    this.updateButtons();
  }

  private renderMentions(): void {
    this.mentions.replaceChildren(
      ...mentionChips(this.draft.mentions, {
        open: (id) => this.host.post({ type: 'openMention', id }),
        remove: (id) => this.host.post({ type: 'removeMention', id }),
        trimmedTo: (id) => this.meter.trimmedTo(id),
      }),
    );
    this.mentions.hidden = this.draft.mentions.length === 0;
  }

  private showNotice(text: string | undefined): void {
    this.notice.textContent = text ?? '';
    this.notice.hidden = !text;
  }

  /** Stops the reply in progress (the Stop button and Escape). */
  requestStop(): boolean {
    if (!this.busy) return false;
    this.host.post({ type: 'stop', conversationId: this.host.conversationId() });
    return true;
  }

  private submit(): void {
    const text = this.input.value;
    if (this.busy || (!text.trim() && this.isDraftEmpty())) return;
    this.host.post({ type: 'send', conversationId: this.host.conversationId(), text });
    this.clear();
  }

  private quickAction(action: QuickAction): void {
    if (this.busy) return;
    this.host.post({ type: 'quickAction', conversationId: this.host.conversationId(), action, text: this.input.value });
    this.clear();
  }

  /** Explainer Film: drafts a film's storyboard of the selection (the typed text is its focus); no chat reply. */
  private filmButton(): HTMLButtonElement {
    const control = button(t('Explainer Film'), { title: t('Draft an explainer film of the selection'), dataset: { quickAction: 'film' } });
    control.addEventListener('click', () => {
      this.host.post({ type: 'makeFilm', text: this.input.value });
      this.clear();
    });
    return control;
  }

  private clear(): void {
    this.input.value = '';
    this.popup.close();
    this.meter.setTyped('');
    this.host.saveDraft('');
    this.updateButtons();
  }

  private renderContext(): void {
    const context = this.draft.context;
    this.context.hidden = !context;
    if (!context) {
      this.context.replaceChildren();
      return;
    }
    const remove = button('×', { className: 'chip-remove', ariaLabel: t('Remove the selection from the message') });
    remove.addEventListener('click', () => this.host.post({ type: 'clearContext' }));
    const actions = el('div', { className: 'quick-actions', attrs: { role: 'group', 'aria-label': t('Quick actions on the selection') } }, [
      ...QUICK_ACTIONS.map((action) => {
        const control = button(quickActionLabel(action), { dataset: { quickAction: action } });
        control.disabled = this.busy;
        control.addEventListener('click', () => this.quickAction(action));
        return control;
      }),
      this.filmButton(),
    ]);
    this.context.replaceChildren(
      el('div', { className: 'context-chip' }, [el('span', { className: 'context-label', text: selectionLabel(context) }), remove]),
      ...context.diagnostics.slice(0, 3).map((d) => el('p', { className: `context-diagnostic ${d.severity}`, text: t('Line {0}: {1}', d.line, d.message) })),
      actions,
    );
  }

  private isDraftEmpty(): boolean {
    return !this.draft.context && this.draft.images.length === 0 && this.draft.mentions.length === 0;
  }

  private updateButtons(): void {
    this.buttons.send.hidden = this.busy;
    this.buttons.stop.hidden = !this.busy;
    this.buttons.send.disabled = !this.input.value.trim() && this.isDraftEmpty();
    for (const control of Array.from(this.context.querySelectorAll<HTMLButtonElement>('[data-quick-action]'))) control.disabled = this.busy;
  }
}
