import { MAX_SHOTS, MIN_SHOTS, newShotId, storyboardSchema, type FilmSettings, type Shot, type Storyboard } from './storyboard';

// The storyboard editor's changes, one at a time: each gives a new storyboard the file can hold (3–8 shots, no empty
// text), or says why it cannot be made. A shot whose prompt or duration changes forgets its task: that task no longer
// shows it. The film's model and settings are what its next shots are sent with: a shot already sent keeps its task
// and the price its confirmation gave it (they say what was sent and charged), and Shoot sends it again only as Shoot
// always does.

/** The settings the editor changes; null: left out of the file, so the user's `promptreel.video.*` applies. */
export type FilmSettingsChange = { [K in 'resolution' | 'ratio' | 'generateAudio']?: FilmSettings[K] | null };

export type StoryboardEdit =
  | { kind: 'change'; id: string; prompt?: string; caption?: string; seconds?: number }
  | { kind: 'move'; id: string; by: -1 | 1 }
  | { kind: 'add'; after?: string; shot: Pick<Shot, 'prompt' | 'caption' | 'seconds'> }
  | { kind: 'remove'; id: string }
  | { kind: 'film'; model?: string; settings?: FilmSettingsChange };

export type EditRefusal = 'no-shot' | 'too-few' | 'too-many' | 'at-edge' | 'invalid' | 'invalid-setting';

export type EditResult = { ok: true; storyboard: Storyboard; shotId: string } | { ok: false; refusal: EditRefusal };

export function applyEdit(storyboard: Storyboard, edit: StoryboardEdit): EditResult {
  if (edit.kind === 'film') return changeFilm(storyboard, edit);
  const shots = [...storyboard.shots];
  const index = 'id' in edit ? shots.findIndex((shot) => shot.id === edit.id) : -1;
  if ('id' in edit && index < 0) return { ok: false, refusal: 'no-shot' };
  let shotId = 'id' in edit ? edit.id : '';
  switch (edit.kind) {
    case 'change': {
      const shot = shots[index];
      const prompt = edit.prompt?.trim() ?? shot.prompt;
      const caption = edit.caption?.trim() ?? shot.caption;
      const seconds = edit.seconds ?? shot.seconds;
      const reshoot = prompt !== shot.prompt || seconds !== shot.seconds;
      // A shot to be made again is not sent yet: its task and what that task cost go with it.
      const { taskId, priceUsd, chargedUsd, ...rest } = shot;
      const made = reshoot
        ? {}
        : { ...(taskId ? { taskId } : {}), ...(priceUsd !== undefined ? { priceUsd } : {}), ...(chargedUsd !== undefined ? { chargedUsd } : {}) };
      shots[index] = { ...rest, prompt, caption, seconds, ...made };
      break;
    }
    case 'move': {
      const target = index + edit.by;
      if (target < 0 || target >= shots.length) return { ok: false, refusal: 'at-edge' };
      [shots[index], shots[target]] = [shots[target], shots[index]];
      break;
    }
    case 'add': {
      if (shots.length >= MAX_SHOTS) return { ok: false, refusal: 'too-many' };
      const after = edit.after === undefined ? shots.length - 1 : shots.findIndex((shot) => shot.id === edit.after);
      if (edit.after !== undefined && after < 0) return { ok: false, refusal: 'no-shot' };
      shotId = newShotId(shots);
      shots.splice(after + 1, 0, { id: shotId, ...edit.shot });
      break;
    }
    case 'remove':
      if (shots.length <= MIN_SHOTS) return { ok: false, refusal: 'too-few' };
      shots.splice(index, 1);
      break;
  }
  const checked = storyboardSchema.safeParse({ ...storyboard, shots });
  return checked.success ? { ok: true, storyboard: checked.data, shotId } : { ok: false, refusal: 'invalid' };
}

function changeFilm(storyboard: Storyboard, edit: Extract<StoryboardEdit, { kind: 'film' }>): EditResult {
  const settings: Record<string, unknown> = { ...storyboard.settings };
  for (const [key, value] of Object.entries(edit.settings ?? {})) {
    if (value === null) delete settings[key];
    else if (value !== undefined) settings[key] = value;
  }
  const checked = storyboardSchema.safeParse({ ...storyboard, model: edit.model?.trim() ?? storyboard.model, settings });
  return checked.success ? { ok: true, storyboard: checked.data, shotId: '' } : { ok: false, refusal: 'invalid-setting' };
}

/** `name.json`, then `name-2.json`, `name-3.json`…: the names a new film's file may take, in order. */
export function filmFileNames(stem: string, count = 100): string[] {
  return Array.from({ length: count }, (_unused, index) => (index === 0 ? `${stem}.json` : `${stem}-${index + 1}.json`));
}
