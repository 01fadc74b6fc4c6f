import { button, el } from '../../../webviewPage/dom';
import { HostChannel } from '../../../webviewPage/hostChannel';
import { t } from '../../../webviewPage/l10n';
import type { FilmState, FilmToHost, FilmView, HostToFilm, ShotView } from '../protocol';
import { lastFrame } from './lastFrame';

// Entry point of the storyboard editor's bundle (dist/webview/film.js). The host owns the film: each change is sent
// to it, and the page shows the film it sends back.

const channel = new HostChannel<FilmToHost, HostToFilm, Partial<FilmState>>(() => ({}));
const root = document.getElementById('film') ?? document.body;
const title = el('h1');
const meta = el('p', { className: 'meta' });
const total = el('p', { className: 'total', attrs: { role: 'status', id: 'total' } });
const warning = el('p', { className: 'warning', hidden: true });
const made = el('p', { className: 'made', hidden: true });
const playButton = button(t('Play the film'), { className: 'secondary' });
playButton.id = 'play';
playButton.hidden = true;
const shootButton = button('', { className: 'primary' });
shootButton.id = 'shoot';
const stopButton = button(t('Stop'), { className: 'secondary', ariaLabel: t('Stop: nothing more is sent') });
stopButton.hidden = true;
const chainNote = el('p', { className: 'meta', hidden: true, text: t('The shots are made one after another, each from the last frame of the one before.') });
const notice = el('p', { className: 'notice', attrs: { role: 'status', 'aria-live': 'polite' } });
const list = el('ol', { className: 'shots', attrs: { 'aria-label': t('Shots') } });
const addButton = button(t('Add Shot'), { className: 'secondary', ariaLabel: t('Add Shot: at the end') });
const modelSelect = el('select', { attrs: { id: 'film-model' } });
const resolutionSelect = el('select', { attrs: { id: 'film-resolution' } });
const ratioSelect = el('select', { attrs: { id: 'film-ratio' } });
const audioSelect = el('select', { attrs: { id: 'film-audio' } });
const settingsNote = el('p', { className: 'meta', text: t('A new model or setting is used for the shots sent from now on; shots already sent keep theirs.') });
const labelled = (text: string, control: HTMLSelectElement): HTMLElement =>
  el('span', { className: 'setting' }, [el('label', { text, attrs: { for: control.id } }), control]);
const settings = el('fieldset', { className: 'settings' }, [
  el('legend', { text: t('Model and settings') }),
  el('div', { className: 'row' }, [
    labelled(t('Video model'), modelSelect),
    labelled(t('Resolution'), resolutionSelect),
    labelled(t('Aspect ratio'), ratioSelect),
    labelled(t('Generate audio'), audioSelect),
  ]),
  settingsNote,
]);

root.removeAttribute('aria-busy');
root.replaceChildren(
  el('header', { className: 'toolbar' }, [
    el('div', {}, [title, meta, made, playButton]),
    el('div', { className: 'actions' }, [total, warning, shootButton, stopButton]),
  ]),
  settings,
  chainNote,
  notice,
  list,
  addButton,
);

shootButton.addEventListener('click', () => channel.post({ type: 'shoot' }));
stopButton.addEventListener('click', () => channel.post({ type: 'stop' }));
addButton.addEventListener('click', () => channel.post({ type: 'add' }));
playButton.addEventListener('click', () => channel.post({ type: 'play' }));
type SettingsMessage = Extract<FilmToHost, { type: 'settings' }>;
// The empty value is "From your settings": the setting leaves the file and the user's applies. The host checks each value.
modelSelect.addEventListener('change', () => channel.post({ type: 'settings', model: modelSelect.value }));
resolutionSelect.addEventListener('change', () =>
  channel.post({ type: 'settings', resolution: (resolutionSelect.value || null) as SettingsMessage['resolution'] }),
);
ratioSelect.addEventListener('change', () => channel.post({ type: 'settings', ratio: (ratioSelect.value || null) as SettingsMessage['ratio'] }));
audioSelect.addEventListener('change', () => channel.post({ type: 'settings', generateAudio: audioSelect.value === '' ? null : audioSelect.value === 'on' }));

channel.onMessage((message) => {
  if (message?.type === 'film') {
    if (channel.saved.file !== message.film.uri) channel.save({ file: message.film.uri });
    render(message.film);
  } else if (message?.type === 'notice') notice.textContent = message.text;
  else if (message?.type === 'takeFrame') {
    const { request } = message;
    lastFrame(message.src).then(
      (png) => channel.post({ type: 'frame', request, png }),
      (error: unknown) => channel.post({ type: 'frame', request, error: (error instanceof Error ? error.message : String(error)).slice(0, 500) }),
    );
  }
});
channel.post({ type: 'ready' });

function render(film: FilmView): void {
  // A re-render keeps the focused control (by its key) and the text being typed in it.
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
  const focusKey = active?.dataset.focusKey;
  const typing = active instanceof HTMLTextAreaElement ? active.value : undefined;
  title.textContent = film.name;
  meta.textContent = film.file;
  renderSettings(film);
  total.textContent = t('Total: {0}', film.total);
  warning.textContent = film.warning ?? '';
  warning.hidden = !film.warning;
  made.textContent = film.made ? t('Made into {0}', film.made) : '';
  made.hidden = !film.made;
  playButton.hidden = !film.made;
  shootButton.textContent = film.shoot;
  shootButton.disabled = film.busy;
  stopButton.hidden = !film.busy;
  chainNote.hidden = !film.chain;
  addButton.disabled = film.busy || !film.canAdd;
  list.setAttribute('aria-busy', String(film.busy));
  list.replaceChildren(...film.shots.map((shot, index) => shotItem(film, shot, index)));
  if (!focusKey) return;
  const again = list.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`);
  if (!again) return;
  if (again instanceof HTMLTextAreaElement && typing !== undefined) again.value = typing;
  again.focus();
}

/** The film's model and settings; a select's options are replaced only when they changed (an open one stays open). */
function renderSettings(film: FilmView): void {
  const own = (value: string) => ({ value, text: value });
  const fromSettings = (value: string) => ({ value: '', text: t('From your settings ({0})', value) });
  fill(modelSelect, film.models.map(own), film.model);
  fill(resolutionSelect, [fromSettings(film.defaults.resolution), ...film.resolutions.map(own)], film.settings.resolution ?? '');
  fill(ratioSelect, [fromSettings(film.defaults.ratio), ...film.ratios.map(own)], film.settings.ratio ?? '');
  const audio = (on: boolean) => (on ? t('On') : t('Off'));
  fill(
    audioSelect,
    [fromSettings(audio(film.defaults.generateAudio)), { value: 'on', text: audio(true) }, { value: 'off', text: audio(false) }],
    film.settings.generateAudio === undefined ? '' : film.settings.generateAudio ? 'on' : 'off',
  );
  for (const select of [modelSelect, resolutionSelect, ratioSelect, audioSelect]) select.disabled = film.busy;
}

function fill(select: HTMLSelectElement, options: { value: string; text: string }[], value: string): void {
  const signature = JSON.stringify(options);
  if (select.dataset.options !== signature) {
    select.replaceChildren(...options.map((option) => el('option', { text: option.text, attrs: { value: option.value } })));
    select.dataset.options = signature;
  }
  select.value = value;
}

function shotItem(film: FilmView, shot: ShotView, index: number): HTMLLIElement {
  const number = index + 1;
  const field = (name: 'prompt' | 'caption', label: string, maxLength?: number): HTMLElement => {
    const area = el('textarea', {
      text: shot[name],
      attrs: { id: `${shot.id}-${name}`, rows: name === 'prompt' ? '4' : '2', maxlength: maxLength ? String(maxLength) : undefined },
      dataset: { focusKey: `${shot.id}:${name}` },
    });
    area.disabled = film.busy;
    area.addEventListener('change', () => channel.post({ type: 'change', id: shot.id, [name]: area.value }));
    return el('div', { className: 'field' }, [el('label', { text: label, attrs: { for: area.id } }), area]);
  };
  const seconds = el('select', { attrs: { id: `${shot.id}-seconds` }, dataset: { focusKey: `${shot.id}:seconds` } });
  for (const duration of film.durations) seconds.append(el('option', { text: t('{0} s', duration), attrs: { value: String(duration) } }));
  seconds.value = String(shot.seconds);
  seconds.disabled = film.busy;
  seconds.addEventListener('change', () => channel.post({ type: 'change', id: shot.id, seconds: Number(seconds.value) }));
  const action = (label: string, ariaLabel: string, key: string, enabled: boolean, message: FilmToHost): HTMLButtonElement => {
    const control = button(label, { ariaLabel, dataset: { focusKey: `${shot.id}:${key}` } });
    control.disabled = film.busy || !enabled;
    control.addEventListener('click', () => channel.post(message));
    return control;
  };
  const last = index === film.shots.length - 1;
  return el('li', { className: 'shot', attrs: { 'aria-label': t('Shot {0}', number) } }, [
    el('h2', { text: t('Shot {0}', number) }),
    field('prompt', t('Visual prompt')),
    field('caption', t('Caption'), 200),
    el('div', { className: 'row' }, [
      el('label', { text: t('Duration'), attrs: { for: seconds.id } }),
      seconds,
      el('span', { className: 'cost', text: shot.cost ? t('Cost: {0}', shot.cost) : t('Cost: price not known') }),
      shot.taskId ? el('span', { className: 'task', text: t('Task {0}', shot.taskId) }) : undefined,
      el('span', { className: `state ${shot.state}`, text: shot.stateText }),
    ]),
    shot.problems ? el('p', { className: 'problems', text: shot.problems }) : undefined,
    el('div', { className: 'row buttons' }, [
      action(t('Move Up'), t('Move Up: shot {0}', number), 'up', index > 0, { type: 'move', id: shot.id, by: -1 }),
      action(t('Move Down'), t('Move Down: shot {0}', number), 'down', !last, { type: 'move', id: shot.id, by: 1 }),
      action(t('Add Shot After'), t('Add Shot After: shot {0}', number), 'add', film.canAdd, { type: 'add', after: shot.id }),
      action(t('Remove'), t('Remove: shot {0}', number), 'remove', film.canRemove, { type: 'remove', id: shot.id }),
      shot.canReshoot ? action(t('Shoot Again'), t('Shoot Again: shot {0}', number), 'reshoot', true, { type: 'reshoot', id: shot.id }) : undefined,
    ]),
  ]);
}
