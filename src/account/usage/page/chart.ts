import { el } from '../../../webviewPage/dom';
import type { UsageSnapshot } from '../protocol';
import { Text } from './text';

// The usage page's charts, drawn as inline SVG from the snapshot's numbers (no remote content, no inline style: the
// colours are the theme's chart colours through classes, one per model in the order of `snapshot.models`).

const SVG = 'http://www.w3.org/2000/svg';
const SERIES_COLOURS = 8;

const WIDTH = 720;
const HEIGHT = 220;
const LEFT = 60;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 26;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, children: Node[] = []): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** The class that colours a model's bars and its legend swatch. */
export function seriesClass(snapshot: UsageSnapshot, model: string): string {
  const index = snapshot.models.indexOf(model);
  return `series-${(index < 0 ? 0 : index) % SERIES_COLOURS}`;
}

/** Spend per day as stacked bars per model, with gridlines, an axis label every few days and an aria-label per bar. */
export function dailyChart(snapshot: UsageSnapshot): SVGSVGElement {
  const chart = svg('svg', { class: 'daily-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'group', 'aria-label': Text.perDay });
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const top = snapshot.ticks[snapshot.ticks.length - 1]?.usd ?? 0;
  const y = (usd: number) => TOP + plotHeight - (top > 0 ? (usd / top) * plotHeight : 0);
  for (const tick of snapshot.ticks) {
    chart.append(
      svg('line', { class: 'grid', x1: LEFT, x2: WIDTH - RIGHT, y1: y(tick.usd), y2: y(tick.usd) }),
      svg('text', { class: 'tick', x: LEFT - 6, y: y(tick.usd) + 4, 'text-anchor': 'end' }, [document.createTextNode(tick.text)]),
    );
  }
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, snapshot.days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const labelEvery = Math.max(1, Math.ceil(snapshot.days.length / 8));
  snapshot.days.forEach((day, index) => {
    const x = LEFT + index * slot + (slot - barWidth) / 2;
    const parts = day.byModel.map((part) => `${part.model} ${part.usdText}`).join(', ');
    const label = Text.barLabel(day.label, day.usdText, parts);
    const group = svg('g', { class: 'day', role: 'img', 'aria-label': label, 'data-day': day.day, 'data-usd': day.usd }, [
      svg('title', {}, [document.createTextNode(label)]),
      // The whole slot answers the pointer, so a day without spend still shows its tooltip.
      svg('rect', { class: 'hit', x: LEFT + index * slot, y: TOP, width: slot, height: plotHeight }),
    ]);
    let base = 0;
    for (const part of day.byModel) {
      const from = y(base);
      const to = y(base + part.usd);
      group.append(
        svg('rect', {
          class: `bar ${seriesClass(snapshot, part.model)}`,
          x,
          y: to,
          width: barWidth,
          height: Math.max(part.usd > 0 ? 1 : 0, from - to),
          'data-model': part.model,
        }),
      );
      base += part.usd;
    }
    chart.append(group);
    // Counted back from today, so the last label is today's and none crowds it.
    if ((snapshot.days.length - 1 - index) % labelEvery === 0) {
      chart.append(
        svg('text', { class: 'axis', x: LEFT + index * slot + slot / 2, y: HEIGHT - 8, 'text-anchor': 'middle' }, [document.createTextNode(day.label)]),
      );
    }
  });
  chart.append(svg('line', { class: 'baseline', x1: LEFT, x2: WIDTH - RIGHT, y1: y(0), y2: y(0) }));
  return chart;
}

/** The models of the chart, each with its colour. */
export function legend(snapshot: UsageSnapshot): HTMLElement {
  return el(
    'ul',
    { className: 'legend', attrs: { 'aria-label': Text.model } },
    snapshot.models.map((model) =>
      el('li', {}, [el('span', { className: `swatch ${seriesClass(snapshot, model)}`, attrs: { 'aria-hidden': 'true' } }), model]),
    ),
  );
}

/** Spend per model as horizontal bars, the most spent first. */
export function modelChart(snapshot: UsageSnapshot): HTMLElement {
  const most = Math.max(0, ...snapshot.perModel.map((model) => model.usd));
  return el(
    'ul',
    { className: 'model-chart', attrs: { 'aria-label': Text.perModel } },
    snapshot.perModel.map((model) => {
      const share = most > 0 ? (model.usd / most) * 100 : 0;
      const bar = svg('svg', { class: 'model-bar', viewBox: '0 0 100 10', preserveAspectRatio: 'none', 'aria-hidden': 'true' }, [
        svg('rect', { class: `bar ${seriesClass(snapshot, model.model)}`, x: 0, y: 0, width: Math.max(model.usd > 0 ? 0.5 : 0, share), height: 10 }),
      ]);
      return el('li', { attrs: { 'aria-label': Text.modelLabel(model.model, model.usdText, model.requests), 'data-model': model.model } }, [
        el('span', { className: 'name', text: model.model, attrs: { title: model.model } }),
        bar,
        el('span', { className: 'value', text: model.usdText }),
      ]);
    }),
  );
}

/** The chart's days as a table, for those who would rather read (and for screen readers that skip SVG). */
export function dayTable(snapshot: UsageSnapshot): HTMLElement {
  const rows = snapshot.days.filter((day) => day.requests > 0);
  return el('details', { className: 'day-table' }, [
    el('summary', { text: Text.showTable }),
    el('table', {}, [
      el('thead', {}, [
        el(
          'tr',
          {},
          [Text.day, Text.total, Text.model].map((text) => el('th', { text, attrs: { scope: 'col' } })),
        ),
      ]),
      el(
        'tbody',
        {},
        rows.map((day) =>
          el('tr', {}, [
            el('th', { text: day.label, attrs: { scope: 'row' } }),
            el('td', { className: 'number', text: day.usdText }),
            el('td', { text: day.byModel.map((part) => `${part.model} ${part.usdText}`).join(', ') }),
          ]),
        ),
      ),
    ]),
  ]);
}
