import { t } from '../../../webviewPage/l10n';
import { button, el } from '../../../webviewPage/dom';
import { icon } from './icons';

function numberInput(id: string, label: string, step: string, min: string, max: string): HTMLElement {
  return el('label', { className: 'option-field', attrs: { for: id } }, [
    el('span', { text: label }),
    el('input', { attrs: { id, type: 'number', step, min, max, inputmode: 'decimal' } }),
  ]);
}

function iconButton(id: string, label: string, ariaLabel: string): HTMLButtonElement {
  const control = button(label, { className: 'toolbar-button', ariaLabel });
  control.id = id;
  return control;
}

/** Opens the History view (historyView.ts) over the chat. */
function historyButton(): HTMLButtonElement {
  const control = iconButton('open-history', '', t('History: search, pin, delete, import and export chats'));
  control.append(icon('history'));
  return control;
}

/** The static structure of the chat page; the views fill it. Built with DOM calls (no HTML strings). */
export function buildLayout(root: HTMLElement): void {
  const send = button(t('Send'), { className: 'primary', ariaLabel: t('Send the message (Enter)') });
  send.id = 'send';
  const stop = button(t('Stop'), { className: 'danger', ariaLabel: t('Stop the reply (Escape)') });
  stop.id = 'stop';
  stop.hidden = true;
  const attach = button(t('Attach Image'), { ariaLabel: t('Attach an image file of the workspace') });
  attach.id = 'attach-image';
  attach.hidden = true;
  const tools = button(t('Tools'), { ariaLabel: t('Tools the model may call in this chat') });
  tools.id = 'tools-toggle';
  tools.hidden = true;
  const refresh = iconButton('refresh-models', '↻', t('Reload the model list'));
  const reset = button(t('Reset to Settings'), { ariaLabel: t("Clear this chat's options so the settings apply") });
  reset.id = 'reset-options';

  root.replaceChildren(
    el('header', { className: 'chat-header' }, [
      el('div', { className: 'conversation-bar', attrs: { role: 'toolbar', 'aria-label': t('Chats') } }, [
        el('select', { attrs: { id: 'conversation-picker', 'aria-label': t('Chat history: pick a chat') } }),
        iconButton('new-conversation', '+', t('New chat')),
        historyButton(),
      ]),
      el('details', { className: 'options', attrs: { id: 'options' } }, [
        el('summary', { text: t('Model & options') }),
        el('div', { className: 'options-grid' }, [
          el('div', { className: 'conversation-actions', attrs: { role: 'group', 'aria-label': t('This chat') } }, [
            iconButton('rename-conversation', t('Rename'), t('Rename this chat')),
            iconButton('delete-conversation', t('Delete'), t('Delete this chat')),
            iconButton('export-conversation', t('Export…'), t('Export this chat (Markdown or JSON)')),
          ]),
          el('label', { className: 'option-field wide', attrs: { for: 'model-picker' } }, [
            el('span', { text: t('Model') }),
            el('span', { className: 'model-row' }, [el('select', { attrs: { id: 'model-picker' } }), refresh]),
          ]),
          el('p', { className: 'note', attrs: { id: 'models-note', role: 'status' }, hidden: true }),
          el('label', { className: 'option-field wide', attrs: { for: 'option-system' } }, [
            el('span', { attrs: { id: 'option-system-label' }, text: t('System message') }),
            el('textarea', { attrs: { id: 'option-system', rows: '2', placeholder: t('Instructions for the model in this chat') } }),
          ]),
          numberInput('option-temperature', t('Temperature (0–2)'), '0.1', '0', '2'),
          numberInput('option-top-p', t('top_p (0–1)'), '0.05', '0', '1'),
          numberInput('option-frequency-penalty', t('Frequency penalty (−2–2)'), '0.1', '-2', '2'),
          numberInput('option-presence-penalty', t('Presence penalty (−2–2)'), '0.1', '-2', '2'),
          numberInput('option-max-tokens', t('Max tokens'), '1', '1', '10000000'),
          selectField('option-reasoning-effort', t('Reasoning effort'), [
            ['', t('Model default')],
            ['minimal', t('Minimal')],
            ['low', t('Low')],
            ['medium', t('Medium')],
            ['high', t('High')],
          ]),
          selectField('option-thinking', t('Thinking'), [
            ['', t('Model default')],
            ['on', t('On')],
            ['off', t('Off')],
          ]),
          el('label', { className: 'option-check', attrs: { for: 'option-json' } }, [
            el('input', { attrs: { id: 'option-json', type: 'checkbox' } }),
            el('span', { text: t('JSON mode') }),
          ]),
          el('p', {
            className: 'note',
            attrs: { id: 'sampling-note' },
            text: t('This model is declared without sampling parameters: temperature, top_p and the penalties are not sent.'),
            hidden: true,
          }),
          el('div', { className: 'options-actions' }, [reset]),
        ]),
      ]),
      el('p', { className: 'conversation-usage', attrs: { id: 'conversation-usage' }, hidden: true }),
    ]),
    el('section', { className: 'no-key', attrs: { id: 'no-key', 'aria-labelledby': 'no-key-title' }, hidden: true }, [
      el('h2', { attrs: { id: 'no-key-title' }, text: t('Connect Promptreel') }),
      el('p', { attrs: { id: 'no-key-message' } }),
      el('p', {
        text: t(
          "Promptreel needs the address of your OpenAI-compatible service and an API key from its web console. The key stays in VS Code's secret storage; this panel never sees it.",
        ),
      }),
      el('div', { className: 'no-key-actions', attrs: { id: 'no-key-actions' } }),
    ]),
    el('div', { className: 'messages', attrs: { id: 'messages', role: 'log', 'aria-label': t('Conversation'), tabindex: '0' } }),
    el('div', { className: 'visually-hidden', attrs: { id: 'announcer', role: 'status', 'aria-live': 'polite' } }),
    el('section', { className: 'history', attrs: { id: 'history' }, hidden: true }),
    el('footer', { className: 'composer', attrs: { id: 'composer' } }, [
      el('div', { className: 'draft-context', attrs: { id: 'draft-context', role: 'group', 'aria-label': t('Selection to ask about') }, hidden: true }),
      el('div', { className: 'draft-mentions', attrs: { id: 'draft-mentions', role: 'group', 'aria-label': t('Mentioned in the message') }, hidden: true }),
      el('div', { className: 'draft-images', attrs: { id: 'draft-images' }, hidden: true }),
      el('p', { className: 'draft-notice', attrs: { id: 'draft-notice', role: 'status' }, hidden: true }),
      el('div', { className: 'mention-popup', attrs: { id: 'mention-popup', role: 'listbox', 'aria-label': t('Mention') }, hidden: true }),
      el('textarea', {
        attrs: {
          id: 'prompt',
          rows: '3',
          'aria-label': t('Message to the model'),
          'aria-autocomplete': 'list',
          'aria-controls': 'mention-popup',
          placeholder: t('Ask about your code… (@ to mention files, problems, git changes; Enter to send)'),
        },
      }),
      el('div', { className: 'context-meter', attrs: { id: 'context-meter' }, hidden: true }),
      el('div', { className: 'composer-actions' }, [attach, tools, el('span', { className: 'spacer' }), stop, send]),
    ]),
  );
}

/** A labelled select of the options form: `[value, label]` pairs, the first one the default. */
function selectField(id: string, label: string, choices: readonly (readonly [string, string])[]): HTMLElement {
  return el('label', { className: 'option-field', attrs: { for: id } }, [
    el('span', { text: label }),
    el(
      'select',
      { attrs: { id } },
      choices.map(([value, text]) => el('option', { text, attrs: { value } })),
    ),
  ]);
}
