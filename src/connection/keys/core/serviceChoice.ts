import { normalizeBaseUrl } from '../../../api/baseUrl';
import type { BaseUrlLevels } from '../../../config/schema';

export type { BaseUrlLevels };

/**
 * Who chose the service a key would go to: the user (their own settings), the user by an earlier confirmation, or
 * only a workspace's settings (a cloned repository's `.vscode/settings.json` can name any host).
 */
export type ServiceChoice = 'user' | 'confirmed' | 'workspace-only';

/** `https://host:port` of a base URL, or undefined when it is not one. */
export function originOf(baseUrl: string | undefined): string | undefined {
  if (!baseUrl?.trim()) return undefined;
  try {
    return new URL(normalizeBaseUrl(baseUrl)).origin;
  } catch {
    return undefined;
  }
}

/**
 * Decides for the base URL in effect (`scope`, normalized). It is the user's when no workspace level sets one (in
 * Restricted Mode VS Code ignores those anyway) or when it is on the origin of the user's (or the default) value;
 * otherwise it counts only once its origin was confirmed.
 */
export function serviceChoice(scope: string, levels: BaseUrlLevels, confirmedOrigins: readonly string[]): ServiceChoice {
  const origin = originOf(scope);
  const workspaceSet = [levels.workspaceFolderValue, levels.workspaceValue].some((value) => value !== undefined && value.trim() !== '');
  if (!workspaceSet) return 'user';
  if (origin && [levels.globalValue, levels.defaultValue].some((value) => originOf(value) === origin)) return 'user';
  if (origin && confirmedOrigins.includes(origin)) return 'confirmed';
  return 'workspace-only';
}
