import { el } from '../../../webviewPage/dom';
import { HostChannel } from '../../../webviewPage/hostChannel';
import type { HostToUsage, UsageRow, UsageSnapshot, UsageToHost } from '../protocol';
import { dailyChart, dayTable, legend, modelChart } from './chart';
import { Text } from './text';

// Entry point of the usage page's bundle (dist/webview/usage.js). The host owns every figure; the page draws them.

const channel = new HostChannel<UsageToHost, HostToUsage, object>(() => ({}));
const root = document.getElementById('usage') ?? document.body;

const refreshButton = el('button', { className: 'secondary', text: Text.refresh, attrs: { type: 'button', id: 'refresh', title: Text.refreshHint } });
const exportButton = el('button', { className: 'primary', text: Text.exportCsv, attrs: { type: 'button', id: 'export', title: Text.exportHint } });
const source = el('p', { className: 'source', attrs: { id: 'source', role: 'status' } });
const totals = el('div', { className: 'totals' });
const daily = el('section', { className: 'panel', attrs: { 'aria-labelledby': 'per-day' } });
const perModel = el('section', { className: 'panel', attrs: { 'aria-labelledby': 'per-model' } });
const requests = el('section', { className: 'panel', attrs: { 'aria-labelledby': 'last-requests' } });

refreshButton.addEventListener('click', () => channel.post({ type: 'refresh' }));
exportButton.addEventListener('click', () => channel.post({ type: 'exportCsv' }));

root.removeAttribute('aria-busy');
root.replaceChildren(el('header', { className: 'toolbar' }, [source, refreshButton, exportButton]), totals, daily, perModel, requests);

channel.onMessage((message) => {
  if (message?.type === 'busy') {
    refreshButton.disabled = message.busy;
    root.setAttribute('aria-busy', String(message.busy));
    return;
  }
  if (message?.type === 'snapshot') render(message.snapshot);
});
channel.post({ type: 'ready' });

function render(snapshot: UsageSnapshot): void {
  root.dataset.source = snapshot.source;
  source.textContent = snapshot.sourceText;
  totals.replaceChildren(
    figure(Text.today, snapshot.todayText, 'today'),
    figure(Text.thisMonth, snapshot.monthText, 'month'),
    ...snapshot.budgets.map((budget) => {
      const share = budget.limitUsd > 0 ? budget.spentUsd / budget.limitUsd : 0;
      const meter = el('meter', {
        attrs: { min: '0', max: String(budget.limitUsd), value: String(Math.min(budget.spentUsd, budget.limitUsd)), 'aria-label': budget.text },
      });
      return el('div', { className: `budget${share >= 1 ? ' spent' : ''}`, dataset: { period: budget.period } }, [el('span', { text: budget.text }), meter]);
    }),
    ...(snapshot.unpricedText ? [el('p', { className: 'note', text: snapshot.unpricedText })] : []),
  );
  const spent = snapshot.days.some((day) => day.usd > 0);
  daily.replaceChildren(
    el('h2', { text: Text.perDay, attrs: { id: 'per-day' } }),
    ...(spent ? [legend(snapshot), dailyChart(snapshot), dayTable(snapshot)] : [el('p', { className: 'empty', text: Text.nothingSpent })]),
  );
  perModel.replaceChildren(
    el('h2', { text: Text.perModel, attrs: { id: 'per-model' } }),
    spent ? modelChart(snapshot) : el('p', { className: 'empty', text: Text.nothingSpent }),
  );
  requests.replaceChildren(
    el('h2', { text: Text.lastRequests, attrs: { id: 'last-requests' } }),
    el('p', { className: 'count', text: Text.shownOf(snapshot.rows.length, snapshot.requestCount) }),
    snapshot.rows.length > 0 ? requestTable(snapshot.rows) : el('p', { className: 'empty', text: Text.noRequests }),
  );
  exportButton.disabled = snapshot.requestCount === 0;
}

function figure(label: string, value: string, id: string): HTMLElement {
  return el('div', { className: 'figure', dataset: { figure: id } }, [
    el('span', { className: 'label', text: label }),
    el('span', { className: 'value', text: value }),
  ]);
}

function requestTable(rows: readonly UsageRow[]): HTMLElement {
  const head = [Text.time, Text.model, Text.tokensIn, Text.tokensOut, Text.charged, Text.latency, Text.stream, Text.from];
  return el('div', { className: 'table-scroll' }, [
    el('table', { className: 'requests' }, [
      el('thead', {}, [
        el(
          'tr',
          {},
          head.map((text) => el('th', { text, attrs: { scope: 'col' } })),
        ),
      ]),
      el('tbody', {}, rows.map(requestRow)),
    ]),
  ]);
}

function requestRow(row: UsageRow): HTMLElement {
  const tokensIn = row.promptTokens === undefined ? Text.unknown : Text.count(row.promptTokens);
  return el(
    'tr',
    {
      className: row.fromThisMachine ? 'mine' : undefined,
      dataset: { mine: String(row.fromThisMachine), ...(row.requestId ? { requestId: row.requestId } : {}) },
    },
    [
      el('td', { text: row.time, attrs: { title: new Date(row.at).toISOString() } }),
      el('td', { text: row.model }),
      el('td', { className: 'number', text: tokensIn, attrs: { title: row.cachedTokens ? Text.cached(row.cachedTokens) : undefined } }),
      el('td', { className: 'number', text: row.completionTokens === undefined ? Text.unknown : Text.count(row.completionTokens) }),
      el('td', { className: 'number', text: row.usdText ?? Text.notPriced }),
      el('td', { className: 'number', text: row.latencySeconds === undefined ? Text.unknown : Text.seconds(row.latencySeconds) }),
      el('td', { text: row.stream === undefined ? Text.unknown : row.stream ? Text.yes : Text.no }),
      el('td', {}, [
        row.fromThisMachine ? el('span', { className: 'badge', text: Text.thisMachine }) : el('span', { className: 'muted', text: Text.elsewhere }),
      ]),
    ],
  );
}
