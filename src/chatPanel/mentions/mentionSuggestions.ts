import * as vscode from 'vscode';
import type { MentionSuggestionView } from '../core/protocol';
import { fuzzyMatch, normalizeQuery } from './core/fuzzyMatch';
import { mentionKey, type MentionTarget } from './core/mentionTarget';
import { activeFileUri, openEditorUris, relativePath } from './fileMentions';
import { problemCounts } from './problemsMention';
import type { TerminalOutputRecorder } from './terminalOutput';
import type { WorkspaceFileIndex } from './workspaceFileIndex';

const MAX_FILES = 30;
const MAX_SYMBOLS = 15;
const MAX_ENTRIES = 50;
/** Workspace symbols come from language servers, which can be slow: they follow the other entries, or never. */
const SYMBOL_WAIT_MS = 1_500;

export interface SuggestionSources {
  files: WorkspaceFileIndex;
  terminal: TerminalOutputRecorder;
  /** The local branches other than the current one; undefined when the workspace has no Git repository. */
  branches(): Promise<readonly string[] | undefined>;
}

interface Candidate {
  target: MentionTarget;
  label: string;
  description?: string;
}

function entry(candidate: Candidate, matches?: number[]): MentionSuggestionView {
  return {
    key: mentionKey(candidate.target),
    kind: candidate.target.kind,
    label: candidate.label,
    ...(candidate.description ? { description: candidate.description } : {}),
    ...(matches?.length ? { matches } : {}),
  };
}

/** The entries that are not files: the current file, open editors, problems, Git changes, the terminal. */
async function contextCandidates(sources: SuggestionSources): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  const active = activeFileUri();
  if (active) candidates.push({ target: { kind: 'currentFile' }, label: 'Current file', description: relativePath(active) });
  for (const uri of openEditorUris()) {
    candidates.push({ target: { kind: 'openEditor', uri: uri.toString() }, label: `Open editor: ${relativePath(uri)}` });
  }
  if (active) candidates.push({ target: { kind: 'problems', scope: 'file' }, label: 'Problems in the current file', description: problemCounts('file') });
  candidates.push({ target: { kind: 'problems', scope: 'workspace' }, label: 'Problems in the workspace', description: problemCounts('workspace') });
  const branches = await sources.branches();
  if (branches) {
    candidates.push({ target: { kind: 'gitChanges', scope: 'unstaged' }, label: 'Git: unstaged changes' });
    candidates.push({ target: { kind: 'gitChanges', scope: 'staged' }, label: 'Git: staged changes' });
    for (const branch of branches.slice(0, 10)) {
      candidates.push({ target: { kind: 'gitChanges', scope: 'branch', ref: branch }, label: `Git: changes against ${branch}` });
    }
  }
  if (vscode.window.activeTerminal) candidates.push({ target: { kind: 'terminalSelection' }, label: 'Terminal: selection' });
  const last = sources.terminal.lastCommand();
  if (last) candidates.push({ target: { kind: 'terminalOutput' }, label: 'Terminal: last command output', description: last.commandLine });
  return candidates;
}

/**
 * The popup's entries for what the user typed after `@` or `#`: the matching context entries, then files and folders
 * (best match first). `later` brings matching workspace symbols when the language servers answer in time.
 */
export async function suggestMentions(
  query: string,
  sources: SuggestionSources,
): Promise<{ now: MentionSuggestionView[]; later?: Promise<MentionSuggestionView[]> }> {
  const needle = normalizeQuery(query);
  const context = await contextCandidates(sources);
  const matchingContext = context
    .map((candidate) => ({ candidate, match: fuzzyMatch(needle, candidate.label) }))
    .filter((found) => found.match !== undefined)
    .sort((a, b) => (needle ? b.match!.score - a.match!.score : 0))
    .map(({ candidate, match }) => entry(candidate, match!.matches));
  const files = (await sources.files.search(query, MAX_FILES)).flatMap((found) => {
    const uri = sources.files.uriOf(found.root, found.path);
    if (!uri) return [];
    // The path is the label (it is what the query matched); a description would repeat its folder.
    const candidate: Candidate = { target: { kind: found.kind, uri: uri.toString() }, label: found.kind === 'folder' ? `${found.path}/` : found.path };
    return [entry(candidate, found.matches)];
  });
  const now = [...matchingContext, ...files].slice(0, MAX_ENTRIES);
  return needle.length >= 2 ? { now, later: workspaceSymbols(query) } : { now };
}

async function workspaceSymbols(query: string): Promise<MentionSuggestionView[]> {
  const search = Promise.resolve(vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query));
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), SYMBOL_WAIT_MS));
  const symbols = (await Promise.race([search.catch(() => undefined), timeout])) ?? [];
  const needle = normalizeQuery(query);
  return symbols
    .map((symbol) => ({ symbol, match: fuzzyMatch(needle, symbol.name) }))
    .filter((found) => found.match !== undefined)
    .sort((a, b) => b.match!.score - a.match!.score)
    .slice(0, MAX_SYMBOLS)
    .map(({ symbol, match }) =>
      entry(
        {
          target: {
            kind: 'symbol',
            uri: symbol.location.uri.toString(),
            name: symbol.name,
            startLine: symbol.location.range.start.line + 1,
            endLine: symbol.location.range.end.line + 1,
          },
          label: symbol.name,
          description: `${vscode.SymbolKind[symbol.kind] ?? 'Symbol'} · ${relativePath(symbol.location.uri)}:${symbol.location.range.start.line + 1}`,
        },
        match!.matches,
      ),
    );
}
