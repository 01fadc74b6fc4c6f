import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import type { Mention } from '../core/model';
import { fileCount } from './core/mentionFormat';
import { withTokens } from './fileMentions';
import { MentionError } from './mentionError';

// Git through VS Code's built-in Git extension (its API, version 1), so it works wherever that extension runs
// (remote hosts included). Only the few members used here are described; each is checked before use.

interface GitRef {
  readonly type?: number;
  readonly name?: string;
}

interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly HEAD?: GitRef; readonly refs?: readonly GitRef[] };
  diff(cached?: boolean): Promise<string>;
  diffWith(ref: string): Promise<string>;
  getRefs?(query: { pattern?: string }): Promise<GitRef[]>;
}

interface GitApi {
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

interface GitExtension {
  readonly enabled?: boolean;
  getAPI(version: 1): GitApi;
}

/** A local branch in the API's `RefType` (Head = 0). */
const HEAD_REF = 0;
/** A diff larger than this is cut (the budget would cut it anyway; this keeps memory bounded). */
const MAX_DIFF_CHARS = 2_000_000;

function isGitExtension(value: unknown): value is GitExtension {
  return typeof value === 'object' && value !== null && typeof (value as { getAPI?: unknown }).getAPI === 'function';
}

async function gitApi(): Promise<GitApi | undefined> {
  const extension = vscode.extensions.getExtension('vscode.git');
  if (!extension) return undefined;
  const exports: unknown = extension.isActive ? extension.exports : await extension.activate();
  if (!isGitExtension(exports) || exports.enabled === false) return undefined;
  return exports.getAPI(1);
}

/** The repository of the workspace's first folder, else the first one Git found in the workspace. */
export async function workspaceRepository(): Promise<GitRepository | undefined> {
  const api = await gitApi().catch(() => undefined);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!api || !folder) return undefined;
  return api.getRepository(folder.uri) ?? api.repositories[0] ?? undefined;
}

/** The local branches other than the current one, for "changes against a branch". */
export async function otherBranches(repository: GitRepository): Promise<string[]> {
  const refs = repository.getRefs ? await repository.getRefs({}).catch(() => []) : (repository.state.refs ?? []);
  const current = repository.state.HEAD?.name;
  return refs.filter((ref) => ref.type === HEAD_REF && ref.name && ref.name !== current).map((ref) => ref.name!);
}

export async function gitChangesMention(scope: 'staged' | 'unstaged' | 'branch', ref?: string): Promise<Mention> {
  const repository = await workspaceRepository();
  if (!repository) throw new MentionError(t('No Git repository was found in this workspace (or the Git extension is disabled).'));
  if (scope === 'branch' && !ref) throw new MentionError(t('Name the branch to compare with.'));
  const diff = scope === 'branch' ? await repository.diffWith(ref!) : await repository.diff(scope === 'staged');
  const files = (diff.match(/^diff --git /gm) ?? []).length;
  const content = diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS} characters)` : diff;
  return withTokens({ kind: 'gitChanges', content: content.trim() ? content : 'No changes.' }, (t) => ({
    label: scope === 'staged' ? t('Git: staged changes') : scope === 'unstaged' ? t('Git: unstaged changes') : t('Git: changes against {0}', ref!),
    detail: files ? fileCount(files, t) : t('no changes'),
  }));
}
