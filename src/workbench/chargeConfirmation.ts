import * as vscode from 'vscode';
import { formatUsd } from '../api/account/prices';
import { t } from '../api/l10n';
import { describeQuote, describeQuotePrice, type Approval, type ChargedRequest, type ChargeGate, type Quote } from '../connection/core/chargeGate';

export interface ModalWording {
  /** The question, e.g. "Generate this video again?". */
  title: string;
  /** What is sent, before the price. */
  lines: readonly (string | undefined)[];
  /** The button. */
  action: string;
}

/**
 * A modal confirmation of exactly `requests`, with the price (or that it is not known) and what the key keeps: the
 * approval to send them, or undefined when the user dismissed it.
 */
export async function confirmChargeInModal<R extends ChargedRequest>(
  gate: ChargeGate<R>,
  requests: readonly R[],
  wording: ModalWording,
  fromFolder: readonly string[] = [],
): Promise<Approval<R> | undefined> {
  return confirmQuoteInModal(gate, await gate.quote(requests, fromFolder), wording);
}

/** The same modal for a quote the gate made before (held while a confirmation elsewhere was expected). */
export async function confirmQuoteInModal<R extends ChargedRequest>(
  gate: ChargeGate<R>,
  quote: Quote<R>,
  wording: ModalWording,
): Promise<Approval<R> | undefined> {
  const count = quote.requests.length;
  const price =
    count > 1 && quote.charge.priceUsd !== undefined
      ? t('Price: {0} ({1} × {2}).', describeQuotePrice(quote), count, formatUsd(quote.charge.priceUsd / count))
      : t('Price: {0}.', describeQuotePrice(quote));
  const detail = [...wording.lines, price, describeQuote(quote)].filter((line): line is string => !!line).join('\n\n');
  const answer = await vscode.window.showWarningMessage(wording.title, { modal: true, detail }, wording.action);
  return answer === wording.action ? gate.approve(quote) : undefined;
}
