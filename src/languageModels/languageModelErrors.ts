import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { t } from '../api/l10n';
import { describeError } from '../common/logger';
import { recoveryFor } from '../connection/core/recovery';

/**
 * What a caller of `sendRequest` receives when a Promptreel request fails: the server's own words plus what to
 * do, as a `LanguageModelError` where VS Code has a matching code (refused key, unknown model, quota), else an
 * Error. Cancellation becomes VS Code's CancellationError.
 */
export function toLanguageModelError(error: unknown, model: string, serviceUrl: string | undefined): Error {
  if (!isApiError(error)) return new Error(t('Promptreel ({0}): {1}', model, describeError(error)));
  if (error.kind === 'aborted') return new vscode.CancellationError();
  if (error.kind === 'no-key') {
    return vscode.LanguageModelError.NoPermissions(
      serviceUrl
        ? t('Promptreel ({0}): there is no API key for {1}. Run "Promptreel: Set API Key".', model, serviceUrl)
        : t('Promptreel ({0}): there is no API key for the service. Run "Promptreel: Set API Key".', model),
    );
  }
  const text = t('Promptreel ({0}): {1}', model, recoveryFor(error, { what: t('The request'), request: 'chat' }).message).trim();
  if (error.status === 401) return vscode.LanguageModelError.NoPermissions(text);
  if (error.code === 'model_not_found' || (error.status === 404 && error.param === 'model')) return vscode.LanguageModelError.NotFound(text);
  if (error.status === 402 || error.status === 403 || error.status === 429) return vscode.LanguageModelError.Blocked(text);
  return new Error(text);
}

/** Failures only a new key fixes: worth a notification with "Set API Key" besides the error the caller shows. */
export function needsNewKey(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'no-key' || error.status === 401);
}
