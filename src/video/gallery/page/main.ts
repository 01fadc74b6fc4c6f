import { el } from '../../../webviewPage/dom';
import { HostChannel } from '../../../webviewPage/hostChannel';
import type { CardState, GalleryCard, GalleryEntry, GalleryPageState, GalleryToHost, HostToGallery, StateFilter } from '../protocol';
import { CardView } from './cardView';
import { CompareView } from './compareView';
import { FILTER_LABELS, Text } from './text';

// Entry point of the gallery page's bundle (dist/webview/gallery.js).

const FILTERED: Record<StateFilter, readonly CardState[] | 'all'> = {
  all: 'all',
  running: ['queued', 'running'],
  done: ['completed', 'downloaded'],
  failed: ['failed'],
  other: ['stale', 'unconfirmed'],
};

const channel = new HostChannel<GalleryToHost, HostToGallery, GalleryPageState>(readState);
const state = channel.saved;
const root = document.getElementById('gallery') ?? document.body;
const cards = new Map<string, CardView>();
const groups = new Map<string, { element: HTMLElement; heading: HTMLElement; list: HTMLElement }>();
let entries: GalleryEntry[] = [];

const stateFilter = el('select', { attrs: { 'aria-label': Text.stateFilter, id: 'state-filter' } });
for (const [value, label] of Object.entries(FILTER_LABELS)) stateFilter.append(el('option', { text: label, attrs: { value } }));
const modelFilter = el('select', { attrs: { 'aria-label': Text.modelFilter, id: 'model-filter' } });
const count = el('span', { className: 'count', attrs: { role: 'status' } });
const compareButton = el('button', { className: 'primary', attrs: { type: 'button', id: 'compare' } });
const compare = new CompareView(() => render());
const list = el('div', { className: 'entries' });
const empty = el('p', { className: 'empty' });

stateFilter.value = state.state;
stateFilter.addEventListener('change', () => {
  state.state = stateFilter.value in FILTERED ? (stateFilter.value as StateFilter) : 'all';
  save();
});
modelFilter.addEventListener('change', () => {
  state.model = modelFilter.value;
  save();
});
compareButton.addEventListener('click', () => {
  const picked = state.selected.map((id) => cards.get(id)?.card).filter((card) => card?.videoSrc !== undefined);
  if (picked.length === 2) compare.show(picked.flatMap((card) => (card ? [card] : [])));
});

root.removeAttribute('aria-busy');
root.replaceChildren(
  el('header', { className: 'toolbar' }, [
    el('label', { text: `${Text.stateFilter} ` }, [stateFilter]),
    el('label', { text: `${Text.modelFilter} ` }, [modelFilter]),
    count,
    compareButton,
  ]),
  compare.element,
  empty,
  list,
);

channel.onMessage((message) => {
  if (message?.type !== 'snapshot') return;
  entries = message.entries;
  fillModels(message.models);
  render();
});
channel.post({ type: 'ready' });

function save(): void {
  channel.save(state);
  render();
}

function fillModels(models: readonly string[]): void {
  const wanted = ['', ...models];
  if ([...modelFilter.options].map((option) => option.value).join('\n') !== wanted.join('\n')) {
    modelFilter.replaceChildren(...wanted.map((model) => el('option', { text: model || Text.allModels, attrs: { value: model } })));
  }
  modelFilter.value = models.includes(state.model) ? state.model : '';
}

function shows(card: { state: CardState; model: string }): boolean {
  const states = FILTERED[state.state];
  return (states === 'all' || states.includes(card.state)) && (!state.model || card.model === state.model);
}

/** Puts every entry in the list's order, reusing the element of each card and group already shown. */
function render(): void {
  const all = entries.flatMap((entry) => (entry.kind === 'card' ? [entry.card] : entry.group.cards));
  const present = new Set(all.map((card) => card.id));
  state.selected = state.selected.filter((id) => present.has(id) && all.find((card) => card.id === id)?.videoSrc);
  for (const [id, view] of cards) {
    if (present.has(id)) continue;
    view.element.remove();
    cards.delete(id);
  }
  const order: HTMLElement[] = [];
  for (const entry of entries) {
    if (entry.kind === 'card') {
      order.push(cardElement(entry.card));
      continue;
    }
    const group = groupElement(entry.group.id);
    group.heading.textContent = `${entry.group.label} — ${entry.group.summary}`;
    const children = entry.group.cards.map(cardElement);
    if (!sameOrder(group.list, children)) group.list.replaceChildren(...children);
    group.element.hidden = !entry.group.cards.some(shows);
    order.push(group.element);
  }
  for (const [id, group] of groups) {
    if (entries.some((entry) => entry.kind === 'group' && entry.group.id === id)) continue;
    group.element.remove();
    groups.delete(id);
  }
  if (!sameOrder(list, order)) list.replaceChildren(...order);
  const shown = all.filter(shows).length;
  count.textContent = Text.shown(shown, all.length);
  empty.textContent = all.length === 0 ? Text.empty : shown === 0 ? Text.nothingMatches : '';
  empty.hidden = empty.textContent === '';
  compareButton.textContent = Text.compare(state.selected.length);
  compareButton.disabled = state.selected.length !== 2;
}

function cardElement(card: GalleryCard): HTMLElement {
  let view = cards.get(card.id);
  if (!view) {
    view = new CardView(card, {
      action: (action, id) => channel.post({ type: 'action', action, id }),
      poster: (id, video, error) => channel.post({ type: 'poster', id, width: video.videoWidth, height: video.videoHeight, ...(error ? { error } : {}) }),
      select: (id, selected) => {
        state.selected = selected ? [...state.selected.filter((other) => other !== id), id].slice(-2) : state.selected.filter((other) => other !== id);
        save();
      },
    });
    cards.set(card.id, view);
  }
  view.update(card, state.selected.includes(card.id));
  view.element.hidden = !shows(card);
  return view.element;
}

function groupElement(id: string): { element: HTMLElement; heading: HTMLElement; list: HTMLElement } {
  let group = groups.get(id);
  if (!group) {
    const heading = el('h2');
    const cardList = el('div', { className: 'cards' });
    group = { element: el('section', { className: 'group', attrs: { 'data-group': id } }, [heading, cardList]), heading, list: cardList };
    groups.set(id, group);
  }
  return group;
}

/** Moving a playing video in the page pauses it: children are only re-placed when their order changed. */
function sameOrder(parent: HTMLElement, children: readonly HTMLElement[]): boolean {
  return parent.children.length === children.length && children.every((child, index) => parent.children[index] === child);
}

function readState(raw: unknown): GalleryPageState {
  const value = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const filter = typeof value.state === 'string' && value.state in FILTERED ? (value.state as StateFilter) : 'all';
  const selected = Array.isArray(value.selected) ? value.selected.filter((id): id is string => typeof id === 'string').slice(-2) : [];
  return { state: filter, model: typeof value.model === 'string' ? value.model : '', selected };
}
