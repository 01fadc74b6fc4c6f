import * as vscode from 'vscode';
import { compileGlob } from '../../workspace/core/globMatcher';
import type { ToolRunResult } from '../core/toolbox';
import { readDocumentText } from '../mentions/fileMentions';
import type { VisibleFile, WorkspaceFileIndex } from '../mentions/workspaceFileIndex';
import { RegExpLineSearch } from './core/regExpSearch';
import { compileQuery, formatMatches, matchLines, type TextMatch } from './core/textSearch';
import type { WorkspaceToolInput } from './core/workspaceToolSpecs';

const MAX_MATCHES = 200;
/** Files read at once: enough to keep the disk busy, few enough to leave the extension host responsive. */
const PARALLEL_READS = 16;

/**
 * Searches the text of the workspace's files (those the chat sees: inside the workspace where they really are, not
 * hidden by the exclude settings and `.gitignore` files), open editors' unsaved text included. Stops at `MAX_MATCHES`,
 * or at once when the signal aborts. A plain query is matched here; a regular expression on a worker thread, within a
 * time budget.
 */
export async function searchWorkspaceText(
  files: WorkspaceFileIndex,
  { query, isRegExp, caseSensitive, include }: WorkspaceToolInput<'promptreel_search_text'>,
  signal: AbortSignal,
): Promise<ToolRunResult> {
  const pattern = compileQuery({ query, ...(isRegExp !== undefined ? { isRegExp } : {}), ...(caseSensitive !== undefined ? { caseSensitive } : {}) });
  if (typeof pattern === 'string') return { ok: false, text: pattern };
  const included = include ? compileGlob(include.replace(/^\.\//, '')) : undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const targets: (VisibleFile & { shown: string })[] = [];
  for (const folder of folders) {
    for (const file of await files.visibleFiles(folder.index)) {
      if (included && !included.matches(file.path)) continue;
      targets.push({ ...file, shown: folders.length > 1 ? `${folder.name}/${file.path}` : file.path });
    }
  }
  const regExp = isRegExp ? new RegExpLineSearch(pattern) : undefined;
  const stop = () => regExp?.dispose();
  signal.addEventListener('abort', stop, { once: true });
  const matches: TextMatch[] = [];
  let stopped: string | undefined;
  let next = 0;
  let searched = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length && matches.length < MAX_MATCHES && !signal.aborted && !stopped) {
      const target = targets[next++]!;
      const text = await readDocumentText(target.place).then(
        (read) => read.text,
        () => undefined,
      );
      searched++;
      if (text === undefined) continue;
      const found = regExp
        ? await regExp.matchLines(target.shown, text, MAX_MATCHES - matches.length)
        : matchLines(target.shown, text, pattern, MAX_MATCHES - matches.length);
      if (typeof found === 'string') stopped ??= found;
      else matches.push(...found);
    }
  };
  try {
    await Promise.all(Array.from({ length: PARALLEL_READS }, worker));
  } finally {
    signal.removeEventListener('abort', stop);
    regExp?.dispose();
  }
  if (signal.aborted) return { ok: false, text: 'The search was stopped.' };
  if (stopped) return { ok: false, text: stopped };
  matches.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  const truncated = matches.length >= MAX_MATCHES;
  return { ok: true, text: formatMatches(query, matches.slice(0, MAX_MATCHES), { filesSearched: searched, truncated }) };
}
