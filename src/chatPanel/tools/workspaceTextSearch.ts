import * as vscode from 'vscode';
import type { ToolRunResult } from '../core/toolbox';
import { globToRegExpSource } from '../mentions/core/globPattern';
import { readDocumentText } from '../mentions/fileMentions';
import type { WorkspaceFileIndex } from '../mentions/workspaceFileIndex';
import { compileQuery, formatMatches, matchLines, type TextMatch } from './core/textSearch';
import type { WorkspaceToolInput } from './core/workspaceToolSpecs';

const MAX_MATCHES = 200;
/** Files read at once: enough to keep the disk busy, few enough to leave the extension host responsive. */
const PARALLEL_READS = 16;

/**
 * Searches the text of the workspace's files (those the chat sees: the exclude settings and `.gitignore` files
 * apply), open editors' unsaved text included. Stops at `MAX_MATCHES`, or at once when the signal aborts.
 */
export async function searchWorkspaceText(
  files: WorkspaceFileIndex,
  { query, isRegExp, caseSensitive, include }: WorkspaceToolInput<'promptreel_search_text'>,
  signal: AbortSignal,
): Promise<ToolRunResult> {
  const pattern = compileQuery({ query, ...(isRegExp !== undefined ? { isRegExp } : {}), ...(caseSensitive !== undefined ? { caseSensitive } : {}) });
  if (typeof pattern === 'string') return { ok: false, text: pattern };
  const included = include ? new RegExp(`^(?:${globToRegExpSource(include.replace(/^\.\//, ''))})$`) : undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const targets: { uri: vscode.Uri; path: string }[] = [];
  for (const folder of folders) {
    for (const path of await files.filesOf(folder.index)) {
      if (included && !included.test(path)) continue;
      const uri = files.uriOf(folder.index, path);
      if (uri) targets.push({ uri, path: folders.length > 1 ? `${folder.name}/${path}` : path });
    }
  }
  const matches: TextMatch[] = [];
  let next = 0;
  let searched = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length && matches.length < MAX_MATCHES && !signal.aborted) {
      const target = targets[next++]!;
      const text = await readDocumentText(target.uri).then(
        (read) => read.text,
        () => undefined,
      );
      searched++;
      if (text !== undefined) matches.push(...matchLines(target.path, text, pattern, MAX_MATCHES - matches.length));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_READS }, worker));
  if (signal.aborted) return { ok: false, text: 'The search was stopped.' };
  matches.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  const truncated = matches.length >= MAX_MATCHES;
  return { ok: true, text: formatMatches(query, matches.slice(0, MAX_MATCHES), { filesSearched: searched, truncated }) };
}
