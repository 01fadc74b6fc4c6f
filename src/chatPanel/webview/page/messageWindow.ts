// Pinned by `npm run bench -- --only chat`: frames over 50 ms while streaming, and a 500-message chat's last screen and scroll.
// Which messages of a long conversation the page renders: those in view and a margin around them; the others stand in
// a spacer above and one below, each as tall as the messages it replaces (measured once rendered, estimated before).
// Plain geometry without the DOM (unit-tested); messageListView.ts applies it to the page.

/** Messages `start` (included) to `end` (excluded). */
export interface IndexRange {
  start: number;
  end: number;
}

/** The part of the list on screen, in pixels from the top of the first message's slot. */
export interface Viewport {
  top: number;
  bottom: number;
}

/** The top of each message's slot (its article and the gap below it), and the total height after the last one. */
export function slotOffsets(heights: readonly number[]): number[] {
  const offsets = new Array<number>(heights.length + 1);
  offsets[0] = 0;
  for (let index = 0; index < heights.length; index++) offsets[index + 1] = offsets[index] + heights[index];
  return offsets;
}

/** The message whose slot holds the pixel `offset` (the first or the last one outside the list); 0 with no messages. */
export function indexAt(offsets: readonly number[], offset: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (offsets[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The messages any part of which lies between `top` and `bottom`. */
export function rangeBetween(offsets: readonly number[], top: number, bottom: number): IndexRange {
  const count = offsets.length - 1;
  if (count <= 0 || bottom < top) return { start: 0, end: 0 };
  return { start: indexAt(offsets, top), end: Math.min(count, indexAt(offsets, bottom) + 1) };
}

export interface WindowPlan {
  /** Rendered now (`start === end`: none). */
  current: IndexRange;
  offsets: readonly number[];
  view: Viewport;
  /** What the page holds beyond the view, above and below: at least `margin`, rendered up to twice it in one go, and
   * dropped down to twice it once over three times it (each time on both sides). Changing the page a few
   * messages at a time, rather than one message every frame of a scroll, leaves most frames nothing to do. */
  margin: number;
  /** Messages that must stay rendered wherever the view is (those a text selection spans). */
  pinned?: IndexRange;
}

/**
 * The messages to render: a contiguous range (as the spacers need) that holds the view and between `margin` and three
 * times it beyond it on each side where there are messages; and the pinned ones. When what is rendered is nowhere
 * near the view (a jump), the view and twice the margin around it.
 */
export function planWindow({ current, offsets, view, margin, pinned }: WindowPlan): IndexRange {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const full = rangeBetween(offsets, view.top - 2 * margin, view.bottom + 2 * margin);
  const near = current.end > current.start && offsets[current.start] <= view.bottom + margin && offsets[current.end] >= view.top - margin;
  let range = full;
  if (near) {
    const renderedAbove = view.top - offsets[current.start];
    const renderedBelow = offsets[current.end] - view.bottom;
    const startMoves = (renderedAbove < margin && current.start > 0) || renderedAbove > 3 * margin;
    const endMoves = (renderedBelow < margin && current.end < count) || renderedBelow > 3 * margin;
    // Either side moving sets both to twice the margin: a scroll then reaches the next limit on both sides at once.
    range = startMoves || endMoves ? full : current;
  }
  if (pinned && pinned.end > pinned.start) range = { start: Math.min(range.start, pinned.start), end: Math.max(range.end, pinned.end) };
  return { start: Math.max(0, range.start), end: Math.min(count, range.end) };
}

/** One message to render, and whether it must be this frame (it is in view) or may wait for the next one. */
export interface RenderStep {
  index: number;
  required: boolean;
}

/**
 * The order in which to render the messages of `target` not rendered yet: outward from what is rendered (or, when the
 * view jumped away from it, from the messages in view), so that stopping anywhere leaves a contiguous range. First
 * those required this frame: the messages in view, and those between them and what is rendered; then the others,
 * above and below in turn, which the caller renders while its frame budget lasts.
 */
export function* renderOrder(current: IndexRange, target: IndexRange, visible: IndexRange): Generator<RenderStep> {
  if (target.end <= target.start) return;
  const overlaps = current.end > current.start && current.start < target.end && current.end > target.start;
  let core: IndexRange;
  if (overlaps) {
    core = { start: Math.max(current.start, target.start), end: Math.min(current.end, target.end) };
  } else {
    core = { start: Math.max(target.start, visible.start), end: Math.min(target.end, visible.end) };
    if (core.end <= core.start) core = { start: target.start, end: target.start + 1 };
    for (let index = core.end - 1; index >= core.start; index--) yield { index, required: true };
  }
  const must = { start: Math.max(target.start, Math.min(core.start, visible.start)), end: Math.min(target.end, Math.max(core.end, visible.end)) };
  let above = core.start - 1;
  let below = core.end;
  for (; above >= must.start; above--) yield { index: above, required: true };
  for (; below < must.end; below++) yield { index: below, required: true };
  while (above >= target.start || below < target.end) {
    if (above >= target.start) yield { index: above--, required: false };
    if (below < target.end) yield { index: below++, required: false };
  }
}
