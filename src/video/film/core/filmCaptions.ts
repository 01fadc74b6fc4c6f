// The film's captions: one cue per shot, from where the shot starts in the film to where the next one starts, timed
// by the shots' real durations (read from the files, not the storyboard's plan). Written as WebVTT: the `.vtt` beside
// the film (the player's <track>) and the subtitle track inside the MP4 are the same text.

export interface FilmCue {
  /** Seconds from the start of the film. */
  start: number;
  end: number;
  text: string;
}

/** The shots one after the other, each cue as long as its shot. */
export function filmCues(shots: readonly { seconds: number; caption: string }[]): FilmCue[] {
  const cues: FilmCue[] = [];
  let start = 0;
  for (const shot of shots) {
    const end = start + shot.seconds;
    cues.push({ start, end, text: shot.caption });
    start = end;
  }
  return cues;
}

/** A WebVTT file of the cues; a caption's text cannot end its cue early or be read as markup. */
export function webVtt(cues: readonly FilmCue[]): string {
  const blocks = cues
    .filter((cue) => cue.end > cue.start && cue.text.trim())
    .map((cue) => `${vttTime(cue.start)} --> ${vttTime(cue.end)}\n${cueText(cue.text)}`);
  return `WEBVTT\n\n${blocks.map((block) => `${block}\n\n`).join('')}`;
}

/** `HH:MM:SS.mmm`, rounded to the millisecond (one cue's end and the next one's start round alike). */
export function vttTime(seconds: number): string {
  const total = Math.max(0, Math.round(seconds * 1000));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const secs = Math.floor(total / 1000) % 60;
  const millis = total % 1000;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(secs, 2)}.${pad(millis, 3)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `&`, `<` and `>` as entities (so `-->` cannot appear either), and no empty line (it would end the cue). */
function cueText(text: string): string {
  return text
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[^\S\n]*\n\s*/g, '\n');
}
