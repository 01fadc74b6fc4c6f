import { pageLocale, t } from '../../../webviewPage/l10n';

// The words of the usage page, in one place (read when the script starts: the translations are already in the page).

/** Counts as the page's language writes them. */
const numbers = new Intl.NumberFormat(pageLocale());
const seconds = new Intl.NumberFormat(pageLocale(), { maximumFractionDigits: 1 });

export const Text = {
  refresh: t('Refresh'),
  refreshHint: t("Read the service's log of the key again"),
  exportCsv: t('Export CSV…'),
  exportHint: t('Save every request as a CSV file'),
  today: t('Today'),
  thisMonth: t('This month'),
  perDay: t('Spend per day, last 30 days'),
  perModel: t('Spend per model, last 30 days'),
  lastRequests: t('Last requests'),
  nothingSpent: t('Nothing was spent in the last 30 days.'),
  noRequests: t('No requests yet.'),
  showTable: t('Show the days as a table'),
  day: t('Day'),
  total: t('Total'),
  time: t('Time'),
  model: t('Model'),
  tokensIn: t('Tokens in'),
  tokensOut: t('Tokens out'),
  charged: t('Charged'),
  latency: t('Latency'),
  stream: t('Stream'),
  from: t('From'),
  thisMachine: t('This machine'),
  elsewhere: t('Elsewhere'),
  yes: t('Yes'),
  no: t('No'),
  unknown: '—',
  notPriced: t('Price not known'),
  count: (value: number) => numbers.format(value),
  seconds: (value: number) => t('{0} s', seconds.format(value)),
  cached: (value: number) => t('{0} cached', numbers.format(value)),
  barLabel: (day: string, total: string, parts: string) => (parts ? t('{0}: {1} ({2})', day, total, parts) : t('{0}: {1}', day, total)),
  modelLabel: (model: string, usd: string, requests: number) =>
    requests === 1 ? t('{0}: {1}, 1 request', model, usd) : t('{0}: {1}, {2} requests', model, usd, numbers.format(requests)),
  shownOf: (shown: number, total: number) =>
    shown === total
      ? total === 1
        ? t('1 request')
        : t('{0} requests', numbers.format(total))
      : t('The last {0} of {1} requests', numbers.format(shown), numbers.format(total)),
};
