import * as assert from 'node:assert/strict';
import {
  indexAt,
  planWindow,
  rangeBetween,
  renderOrder,
  slotOffsets,
  type IndexRange,
  type RenderStep,
} from '../../../../../src/chatPanel/webview/page/messageWindow';

/** 500 messages of 100 px: message i spans [100 i, 100 i + 100). */
const OFFSETS = slotOffsets(Array<number>(500).fill(100));
const NONE: IndexRange = { start: 0, end: 0 };

function steps(current: IndexRange, target: IndexRange, visible: IndexRange): RenderStep[] {
  return [...renderOrder(current, target, visible)];
}

/** What is rendered after taking the steps in order until the first optional one past `optionalAllowed`. */
function renderedAfter(current: IndexRange, target: IndexRange, visible: IndexRange, optionalAllowed: number): number[] {
  const rendered = new Set<number>();
  for (let index = current.start; index < current.end; index++) if (index >= target.start && index < target.end) rendered.add(index);
  let optional = 0;
  for (const step of renderOrder(current, target, visible)) {
    if (!step.required && optional++ >= optionalAllowed) break;
    rendered.add(step.index);
  }
  return [...rendered].sort((a, b) => a - b);
}

function isContiguous(indices: number[]): boolean {
  return indices.every((index, position) => position === 0 || index === indices[position - 1] + 1);
}

describe('messageWindow (which messages of a long chat the page renders)', () => {
  it('lays the slots end to end and finds the one holding a pixel, clamped to the list', () => {
    assert.deepEqual(slotOffsets([30, 50, 20]), [0, 30, 80, 100]);
    const offsets = slotOffsets([30, 50, 20]);
    assert.deepEqual(
      [-10, 0, 29, 30, 79, 80, 99, 100, 500].map((offset) => indexAt(offsets, offset)),
      [0, 0, 0, 1, 1, 2, 2, 2, 2],
    );
    assert.equal(indexAt(slotOffsets([]), 40), 0);
    assert.deepEqual(rangeBetween(offsets, 25, 85), { start: 0, end: 3 });
    assert.deepEqual(rangeBetween(offsets, 30, 79), { start: 1, end: 2 });
    assert.deepEqual(rangeBetween(slotOffsets([]), 0, 100), NONE);
  });

  it('opens a 500-message chat at its end with the last screen and a margin above it, not the 500', () => {
    const view = { top: 49_600, bottom: 50_000 };
    const target = planWindow({ current: NONE, offsets: OFFSETS, view, margin: 400 });
    assert.deepEqual(target, { start: 488, end: 500 }, 'the view and twice the margin above it');
    const visible = rangeBetween(OFFSETS, view.top, view.bottom);
    assert.deepEqual(visible, { start: 496, end: 500 });
    const order = steps(NONE, target, visible);
    assert.deepEqual(
      order.filter((step) => step.required).map((step) => step.index),
      [499, 498, 497, 496],
      'the messages in view first, all required',
    );
    assert.deepEqual(
      order.filter((step) => !step.required).map((step) => step.index),
      [495, 494, 493, 492, 491, 490, 489, 488],
      'then the margin above, which may wait',
    );
  });

  it('changes the page a few messages at a time while scrolling up: extends when under the margin, drops when over three', () => {
    const plan = (current: IndexRange, top: number) => planWindow({ current, offsets: OFFSETS, view: { top, bottom: top + 400 }, margin: 400 });
    let current: IndexRange = { start: 488, end: 500 };
    const changes: string[] = [];
    // Up 100 px a frame from the end to the top: 496 frames.
    for (let top = 49_500; top >= 0; top -= 100) {
      const next = plan(current, top);
      if (next.start !== current.start || next.end !== current.end) changes.push(`${next.start}-${next.end}`);
      current = next;
      const above = top - OFFSETS[current.start];
      const below = OFFSETS[current.end] - (top + 400);
      assert.ok(current.start === 0 || above >= 400, `at ${top}: ${above} px above the view`);
      assert.ok(above <= 1200 && below <= 1200, `at ${top}: at most three margins each way (${above}, ${below})`);
      assert.ok(current.end === 500 || below >= 400, `at ${top}: ${below} px below the view`);
    }
    assert.deepEqual(current, { start: 0, end: 15 });
    assert.ok(changes.length < 496 / 3, `${changes.length} changes of the page in 496 frames`);
  });

  it('starts again where the view jumped to (a drag of the scroll bar), keeping nothing of the old range', () => {
    const view = { top: 25_000, bottom: 25_400 };
    const target = planWindow({ current: { start: 488, end: 500 }, offsets: OFFSETS, view, margin: 400 });
    assert.deepEqual(target, { start: 242, end: 263 });
    const order = steps({ start: 488, end: 500 }, target, rangeBetween(OFFSETS, view.top, view.bottom));
    assert.deepEqual(
      order.filter((step) => step.required).map((step) => step.index),
      [254, 253, 252, 251, 250],
    );
    assert.deepEqual(
      order.map((step) => step.index).sort((a, b) => a - b),
      Array.from({ length: 21 }, (_, index) => 242 + index),
      'every message of the new range once',
    );
  });

  it('keeps a selection’s messages in the page wherever the view goes', () => {
    const target = planWindow({
      current: { start: 480, end: 500 },
      offsets: OFFSETS,
      view: { top: 30_000, bottom: 30_400 },
      margin: 400,
      pinned: { start: 470, end: 472 },
    });
    assert.deepEqual(target, { start: 292, end: 472 });
  });

  it('leaves a contiguous range wherever the budget stops the rendering, with everything in view rendered', () => {
    const cases: [IndexRange, IndexRange, IndexRange][] = [
      [NONE, { start: 490, end: 500 }, { start: 496, end: 500 }],
      [
        { start: 480, end: 500 },
        { start: 470, end: 495 },
        { start: 474, end: 478 },
      ],
      [
        { start: 480, end: 490 },
        { start: 475, end: 500 },
        { start: 488, end: 493 },
      ],
      [
        { start: 100, end: 110 },
        { start: 300, end: 320 },
        { start: 305, end: 309 },
      ],
    ];
    for (const [current, target, visible] of cases) {
      for (const allowed of [0, 1, 2, 5, 100]) {
        const rendered = renderedAfter(current, target, visible, allowed);
        const label = `${JSON.stringify({ current, target, visible })} with ${allowed} optional`;
        assert.ok(isContiguous(rendered), `contiguous: ${label}: ${rendered.join(',')}`);
        for (let index = visible.start; index < visible.end; index++) assert.ok(rendered.includes(index), `${index} in view is rendered: ${label}`);
        for (const index of rendered) assert.ok(index >= target.start && index < target.end, `${index} inside the target: ${label}`);
      }
      assert.deepEqual(
        renderedAfter(current, target, visible, 1_000),
        Array.from({ length: target.end - target.start }, (_, index) => target.start + index),
        'given the time, all of the target',
      );
    }
  });

  it('renders nothing for an empty chat', () => {
    const offsets = slotOffsets([]);
    assert.deepEqual(planWindow({ current: NONE, offsets, view: { top: 0, bottom: 400 }, margin: 400 }), NONE);
    assert.deepEqual(steps(NONE, NONE, NONE), []);
  });
});
