import type { ConversationOptions } from '../../core/model';
import type { CapabilitiesView, ConversationSummaryView, ConversationView, ChatSampling, ModelsView, OptionsPatch, WebviewToHost } from '../protocol';
import { fillNodes, t } from '../../../webviewPage/l10n';
import { byId, el } from '../../../webviewPage/dom';
import { costElement } from './figures';

export interface HeaderHost {
  post(message: WebviewToHost): void;
  conversationId(): string;
}

type NumberOption = 'temperature' | 'topP' | 'frequencyPenalty' | 'presencePenalty' | 'maxTokens';

interface NumberField {
  option: NumberOption;
  input: HTMLInputElement;
  min: number;
  max: number;
  integer: boolean;
  error: HTMLElement;
}

/** The conversation bar (pick, new, rename, delete, export), the model picker and the per-conversation options. */
export class Header {
  private readonly conversations = byId<HTMLSelectElement>('conversation-picker');
  private readonly model = byId<HTMLSelectElement>('model-picker');
  private readonly modelsNote = byId<HTMLElement>('models-note');
  private readonly usage = byId<HTMLElement>('conversation-usage');
  private readonly systemPrompt = byId<HTMLTextAreaElement>('option-system');
  private readonly systemLabel = byId<HTMLElement>('option-system-label');
  private readonly jsonMode = byId<HTMLInputElement>('option-json');
  private readonly reasoningEffort = byId<HTMLSelectElement>('option-reasoning-effort');
  private readonly thinking = byId<HTMLSelectElement>('option-thinking');
  private readonly samplingNote = byId<HTMLElement>('sampling-note');
  private readonly numbers: NumberField[];
  private models: ModelsView = { ids: [], prices: {}, loading: false, stale: false };
  private capabilities: CapabilitiesView | undefined;
  private defaults: ChatSampling | undefined;
  private options: ConversationOptions = {};

  constructor(private readonly host: HeaderHost) {
    this.numbers = [
      this.numberField('temperature', 'option-temperature', 0, 2, false),
      this.numberField('topP', 'option-top-p', 0, 1, false),
      this.numberField('frequencyPenalty', 'option-frequency-penalty', -2, 2, false),
      this.numberField('presencePenalty', 'option-presence-penalty', -2, 2, false),
      this.numberField('maxTokens', 'option-max-tokens', 1, 10_000_000, true),
    ];
    this.conversations.addEventListener('change', () => this.host.post({ type: 'selectConversation', conversationId: this.conversations.value }));
    this.model.addEventListener('change', () => this.setOptions({ model: this.model.value || null }));
    byId('new-conversation').addEventListener('click', () => this.host.post({ type: 'newConversation' }));
    byId('rename-conversation').addEventListener('click', () => this.host.post({ type: 'renameConversation', conversationId: this.host.conversationId() }));
    byId('delete-conversation').addEventListener('click', () => this.host.post({ type: 'deleteConversation', conversationId: this.host.conversationId() }));
    byId('export-conversation').addEventListener('click', () => this.host.post({ type: 'exportConversation', conversationId: this.host.conversationId() }));
    byId('refresh-models').addEventListener('click', () => this.host.post({ type: 'refreshModels' }));
    // The list is loaded lazily: when the user looks at the picker and it is out of date.
    const loadIfStale = () => {
      if (this.models.stale) this.host.post({ type: 'loadModels' });
    };
    byId('options').addEventListener('toggle', loadIfStale);
    this.model.addEventListener('focus', loadIfStale);
    byId('reset-options').addEventListener('click', () =>
      this.setOptions({
        systemPrompt: null,
        temperature: null,
        topP: null,
        frequencyPenalty: null,
        presencePenalty: null,
        maxTokens: null,
        jsonMode: null,
        reasoningEffort: null,
        thinking: null,
      }),
    );
    this.reasoningEffort.addEventListener('change', () => this.setOptions({ reasoningEffort: effortOf(this.reasoningEffort.value) }));
    this.thinking.addEventListener('change', () => this.setOptions({ thinking: this.thinking.value === '' ? null : this.thinking.value === 'on' }));
    this.systemPrompt.addEventListener('change', () => this.setOptions({ systemPrompt: this.systemPrompt.value.trim() ? this.systemPrompt.value : null }));
    this.jsonMode.addEventListener('change', () => this.setOptions({ jsonMode: this.jsonMode.checked ? true : null }));
  }

  focusModelPicker(): void {
    const options = this.model.closest('details');
    if (options) options.open = true;
    this.model.focus();
  }

  setConversations(list: ConversationSummaryView[], activeId: string): void {
    this.conversations.replaceChildren(
      ...list.map((summary) => el('option', { text: summary.busy ? t('{0} (answering…)', summary.title) : summary.title, attrs: { value: summary.id } })),
    );
    this.conversations.value = activeId;
  }

  setConversation(conversation: ConversationView): void {
    this.options = conversation.options;
    const usage = conversation.usage;
    const tokens = usage.totalTokens ? t('{0} tokens ({1} prompt, {2} completion)', usage.figures.total, usage.figures.prompt, usage.figures.completion) : '';
    const cost = conversation.cost;
    this.usage.hidden = !tokens && !cost;
    const figures = document.createDocumentFragment();
    figures.append(tokens);
    if (cost) {
      const why = t('The service reported no token counts for some replies: their cost is estimated from the length of the text.');
      figures.append(tokens ? ' · ' : '', costElement(cost, why));
    }
    this.usage.replaceChildren(...fillNodes(t('This chat: {0}'), figures));
    if (document.activeElement !== this.systemPrompt) this.systemPrompt.value = conversation.options.systemPrompt ?? '';
    this.jsonMode.checked = conversation.options.jsonMode === true;
    this.reasoningEffort.value = conversation.options.reasoningEffort ?? '';
    this.thinking.value = conversation.options.thinking === undefined ? '' : conversation.options.thinking ? 'on' : 'off';
    for (const field of this.numbers) {
      if (document.activeElement === field.input) continue;
      const value = conversation.options[field.option];
      field.input.value = value === undefined ? '' : String(value);
      this.showFieldError(field, undefined);
    }
    this.renderModels();
  }

  setModels(models: ModelsView, capabilities: CapabilitiesView, defaults: ChatSampling): void {
    this.models = models;
    this.capabilities = capabilities;
    this.defaults = defaults;
    this.renderModels();
    this.systemLabel.textContent = capabilities.developerRole ? t('Developer message') : t('System message');
    this.jsonMode.disabled = !capabilities.jsonMode;
    this.jsonMode.title = capabilities.jsonMode ? t('Ask for a JSON object (response_format)') : t('{0} is declared without JSON mode', capabilities.model);
    this.samplingNote.hidden = capabilities.sampling;
    for (const field of this.numbers) {
      const isSampling = field.option !== 'maxTokens';
      field.input.disabled = isSampling && !capabilities.sampling;
      field.input.placeholder = this.placeholder(field.option);
      if (field.option === 'maxTokens') {
        field.max = capabilities.maxOutputTokens ?? 10_000_000;
        field.input.max = String(field.max);
      }
    }
  }

  private renderModels(): void {
    const fallback = this.defaults?.model ?? '';
    const chosen = this.options.model ?? '';
    const ids = [...this.models.ids];
    if (chosen && !ids.includes(chosen)) ids.unshift(chosen);
    this.model.replaceChildren(
      el('option', { text: fallback ? t('Default ({0})', fallback) : t('Default (no model set)'), attrs: { value: '' } }),
      ...ids.map((id) => el('option', { text: this.models.prices[id] ? `${id} — ${this.models.prices[id]}` : id, attrs: { value: id } })),
    );
    this.model.value = chosen;
    this.modelsNote.textContent = this.models.loading ? t('Loading models…') : this.models.error ? t('Model list unavailable: {0}', this.models.error) : '';
    this.modelsNote.hidden = !this.modelsNote.textContent;
  }

  private placeholder(option: NumberOption): string {
    const defaults = this.defaults;
    if (!defaults) return '';
    const value = option === 'maxTokens' ? (defaults.maxTokens ?? this.capabilities?.maxOutputTokens) : defaults[option];
    return value === undefined || value === null ? t('model default') : t('{0} (setting)', value);
  }

  private numberField(option: NumberOption, id: string, min: number, max: number, integer: boolean): NumberField {
    const input = byId<HTMLInputElement>(id);
    const error = el('span', { className: 'field-error', hidden: true, attrs: { id: `${id}-error`, role: 'alert' } });
    input.insertAdjacentElement('afterend', error);
    input.setAttribute('aria-describedby', error.id);
    const field: NumberField = { option, input, min, max, integer, error };
    input.addEventListener('change', () => this.commitNumber(field));
    return field;
  }

  private commitNumber(field: NumberField): void {
    const raw = field.input.value.trim();
    if (raw === '') {
      this.showFieldError(field, undefined);
      this.setOptions({ [field.option]: null });
      return;
    }
    const value = Number(raw);
    const problem = !Number.isFinite(value)
      ? t('Enter a number.')
      : field.integer && !Number.isInteger(value)
        ? t('Enter a whole number.')
        : value < field.min || value > field.max
          ? t('Enter a value from {0} to {1}.', field.min, field.max)
          : undefined;
    this.showFieldError(field, problem);
    if (!problem) this.setOptions({ [field.option]: value });
  }

  private showFieldError(field: NumberField, problem: string | undefined): void {
    field.error.textContent = problem ?? '';
    field.error.hidden = !problem;
    field.input.setAttribute('aria-invalid', String(!!problem));
  }

  private setOptions(options: OptionsPatch): void {
    this.host.post({ type: 'setOptions', conversationId: this.host.conversationId(), options });
  }
}

const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

function effortOf(value: string): (typeof EFFORTS)[number] | null {
  return EFFORTS.find((effort) => effort === value) ?? null;
}
