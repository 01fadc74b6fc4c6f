import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import type { WorkspaceBoundary } from '../../workspace/workspaceBoundary';
import type { MentionSuggestionView } from '../webview/protocol';
import { fuzzyMatch, normalizeQuery, type FuzzyMatch } from './core/fuzzyMatch';
import { english, type Words } from './core/mentionFormat';
import { mentionKey, type MentionTarget } from './core/mentionTarget';
import { activeFileUri, openEditorUris, relativePath } from './fileMentions';
import { isMentionable } from './mentionPlace';
import { problemCounts } from './problemsMention';
import { symbolKindName } from './symbolKindNames';
import type { TerminalOutputRecorder } from './terminalOutput';
import type { WorkspaceFileIndex } from './workspaceFileIndex';

const MAX_FILES = 30;
const MAX_SYMBOLS = 15;
const MAX_ENTRIES = 50;
/** Workspace symbols come from language servers, which can be slow: they follow the other entries, or never. */
const SYMBOL_WAIT_MS = 1_500;
/**
 * The language servers are asked once typing pauses this long, not at every keystroke: a workspace symbol search
 * keeps a language server busy for a while, and on few cores that slows the next keystroke's answer.
 */
export const SYMBOL_PAUSE_MS = 150;

export interface SuggestionSources {
  /** Only what can be mentioned is offered: inside the workspace, where it really is. */
  boundary: WorkspaceBoundary;
  files: WorkspaceFileIndex;
  terminal: TerminalOutputRecorder;
  /** The local branches other than the current one; undefined when the workspace has no Git repository. */
  branches(): Promise<readonly string[] | undefined>;
}

interface Candidate {
  target: MentionTarget;
  label: string;
  /** The English label, when the label is translated: what the user types finds the entry in either language. */
  alias?: string;
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

/** The entry for a target, named in the user's language; `name` is written once, with the writer as `t`. */
function named(target: MentionTarget, name: (t: Words) => string, description?: string): Candidate {
  const label = name(t);
  const alias = name(english);
  return { target, label, ...(alias !== label ? { alias } : {}), ...(description ? { description } : {}) };
}

/** The entries that are not files: the current file, open editors, problems, Git changes, the terminal. */
async function contextCandidates(sources: SuggestionSources): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  const activeUri = activeFileUri();
  const active = activeUri && (await isMentionable(sources.boundary, activeUri)) ? activeUri : undefined;
  if (active) candidates.push(named({ kind: 'currentFile' }, (t) => t('Current file'), relativePath(active)));
  const editors = openEditorUris();
  const mentionable = await Promise.all(editors.map((uri) => isMentionable(sources.boundary, uri)));
  for (const uri of editors.filter((_, index) => mentionable[index])) {
    candidates.push(named({ kind: 'openEditor', uri: uri.toString() }, (t) => t('Open editor: {0}', relativePath(uri))));
  }
  if (active) candidates.push(named({ kind: 'problems', scope: 'file' }, (t) => t('Problems in the current file'), problemCounts('file')));
  candidates.push(named({ kind: 'problems', scope: 'workspace' }, (t) => t('Problems in the workspace'), problemCounts('workspace')));
  const branches = await sources.branches();
  if (branches) {
    candidates.push(named({ kind: 'gitChanges', scope: 'unstaged' }, (t) => t('Git: unstaged changes')));
    candidates.push(named({ kind: 'gitChanges', scope: 'staged' }, (t) => t('Git: staged changes')));
    for (const branch of branches.slice(0, 10)) {
      candidates.push(named({ kind: 'gitChanges', scope: 'branch', ref: branch }, (t) => t('Git: changes against {0}', branch)));
    }
  }
  if (vscode.window.activeTerminal) candidates.push(named({ kind: 'terminalSelection' }, (t) => t('Terminal: selection')));
  const last = sources.terminal.lastCommand();
  if (last) candidates.push(named({ kind: 'terminalOutput' }, (t) => t('Terminal: last command output'), last.commandLine));
  return candidates;
}

/** The query against the label, else against its English name (nothing of the label is then marked as matched). */
function matchCandidate(needle: string, candidate: Candidate): FuzzyMatch | undefined {
  const match = fuzzyMatch(needle, candidate.label);
  if (match || candidate.alias === undefined) return match;
  const aliased = fuzzyMatch(needle, candidate.alias);
  return aliased && { score: aliased.score, matches: [] };
}

/**
 * The popup's entries for what the user typed after `@` or `#`: the matching context entries, then files and folders
 * (best match first). `later` asks for the matching workspace symbols (call it once typing pauses); they come when
 * the language servers answer in time.
 */
export async function suggestMentions(
  query: string,
  sources: SuggestionSources,
): Promise<{ now: MentionSuggestionView[]; later?: () => Promise<MentionSuggestionView[]> }> {
  const needle = normalizeQuery(query);
  const context = await contextCandidates(sources);
  const matchingContext = context
    .map((candidate) => ({ candidate, match: matchCandidate(needle, candidate) }))
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
  return needle.length >= 2 ? { now, later: () => workspaceSymbols(query, sources.boundary) } : { now };
}

async function workspaceSymbols(query: string, boundary: WorkspaceBoundary): Promise<MentionSuggestionView[]> {
  const search = Promise.resolve(vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query));
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), SYMBOL_WAIT_MS));
  const symbols = (await Promise.race([search.catch(() => undefined), timeout])) ?? [];
  const needle = normalizeQuery(query);
  const best = symbols
    .map((symbol) => ({ symbol, match: fuzzyMatch(needle, symbol.name) }))
    .filter((found) => found.match !== undefined)
    .sort((a, b) => b.match!.score - a.match!.score);
  const offered: typeof best = [];
  for (const found of best) {
    if (offered.length >= MAX_SYMBOLS) break;
    if (await isMentionable(boundary, found.symbol.location.uri)) offered.push(found);
  }
  return offered.map(({ symbol, match }) =>
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
        description: `${symbolKindName(symbol.kind)} · ${relativePath(symbol.location.uri)}:${symbol.location.range.start.line + 1}`,
      },
      match!.matches,
    ),
  );
}
