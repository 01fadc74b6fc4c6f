import { usableHeaders, type RequestExtras } from '../../api/requestExtras';
import type { RequestOptionsSetting } from '../../config/schema';
import { t } from '../../api/l10n';

export interface MergedExtras {
  extras: RequestExtras;
  /** Headers that are not sent, and why (a protected or invalid name, a line break in the value). */
  dropped: string[];
}

/**
 * The service's request options, the model's over them, and the service's secret headers over both: what a request
 * to the service carries besides Promptreel's own fields.
 */
export function mergeRequestExtras(
  service: RequestOptionsSetting,
  model: RequestOptionsSetting | undefined,
  secretHeaders: Record<string, string>,
): MergedExtras {
  const { headers, dropped } = usableHeaders(service.headers, model?.headers, secretHeaders);
  const query = { ...service.queryParameters, ...model?.queryParameters };
  const body = { ...service.extraBody, ...model?.extraBody };
  const secrets = Object.values(secretHeaders).filter((value) => value.length > 0);
  return {
    extras: {
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(Object.keys(query).length ? { query } : {}),
      ...(Object.keys(body).length ? { body } : {}),
      ...(secrets.length ? { secrets } : {}),
    },
    dropped,
  };
}

/** `X-Org, X-Gateway-Token (secret)`: the names a request carries, for Test Connection and the logs (never a value). */
export function describeExtraHeaders(service: RequestOptionsSetting, secretHeaders: Record<string, string>): string[] {
  const secret = new Set(Object.keys(secretHeaders).map((name) => name.toLowerCase()));
  const plain = Object.keys(service.headers ?? {}).filter((name) => !secret.has(name.toLowerCase()));
  return [...plain, ...Object.keys(secretHeaders).map((name) => t('{0} (secret)', name))];
}
