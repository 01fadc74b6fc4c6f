import * as vscode from 'vscode';
import { describeError } from '../../common/logger';
import { isRefusal, type WorkspacePlace } from '../../workspace/workspaceBoundary';
import type { ToolRunResult } from '../core/toolbox';
import { english } from '../mentions/core/mentionFormat';
import { readDocumentText, relativePath } from '../mentions/fileMentions';
import { problemsReport } from '../mentions/problemsMention';
import type { WorkspaceFileIndex } from '../mentions/workspaceFileIndex';
import { numberedLines } from './core/fileLines';
import { listFolder } from './core/folderListing';
import { parseWorkspaceToolInput, type WorkspaceToolInput, type WorkspaceToolName } from './core/workspaceToolSpecs';
import { searchWorkspaceText } from './workspaceTextSearch';

/** A file the read tool takes whole or in ranges (the model reads large files a range at a time). */
const MAX_READ_BYTES = 8 * 1024 * 1024;
const MAX_SYMBOLS = 200;

/** Promptreel's read-only workspace tools, run for the chat panel's tool loop. */
export class WorkspaceTools {
  constructor(private readonly files: WorkspaceFileIndex) {}

  async run(name: WorkspaceToolName, rawInput: unknown, signal: AbortSignal): Promise<ToolRunResult> {
    const input = parseWorkspaceToolInput(name, rawInput);
    if (typeof input === 'string') return { ok: false, text: input };
    try {
      switch (name) {
        case 'promptreel_read_file':
          return await this.readFile(input as WorkspaceToolInput<'promptreel_read_file'>);
        case 'promptreel_list_folder':
          return await this.listFolder(input as WorkspaceToolInput<'promptreel_list_folder'>);
        case 'promptreel_search_text':
          return await searchWorkspaceText(this.files, input as WorkspaceToolInput<'promptreel_search_text'>, signal);
        case 'promptreel_find_symbols':
          return await this.findSymbols(input as WorkspaceToolInput<'promptreel_find_symbols'>);
        case 'promptreel_read_problems':
          return await this.readProblems(input as WorkspaceToolInput<'promptreel_read_problems'>);
      }
    } catch (error) {
      return { ok: false, text: describeError(error) };
    }
  }

  private async readFile({ path, startLine, endLine }: WorkspaceToolInput<'promptreel_read_file'>): Promise<ToolRunResult> {
    const location = await this.visible(path);
    if (typeof location === 'string') return { ok: false, text: location };
    const { text } = await readDocumentText(location, {
      maxBytes: MAX_READ_BYTES,
      tooLarge: (file, size, limit) => `${file} is ${size}, over the ${limit} this tool reads: search it with promptreel_search_text instead.`,
      // The model reads why a file cannot be read: in English, as every tool result.
      t: english,
    });
    return { ok: true, text: numberedLines(location.label, text, { ...(startLine ? { startLine } : {}), ...(endLine ? { endLine } : {}) }) };
  }

  private async listFolder({ path = '' }: WorkspaceToolInput<'promptreel_list_folder'>): Promise<ToolRunResult> {
    const location = await this.visible(path);
    if (typeof location === 'string') return { ok: false, text: location };
    if (!location.isFolder) return { ok: false, text: `${location.label} is a file: read it with promptreel_read_file.` };
    const files = (await this.files.visibleFiles(location.root, location.relative)).map((file) => file.path);
    const label = location.relative ? `${location.label}/` : 'The workspace folder';
    return { ok: true, text: listFolder(label, location.relative, files) };
  }

  private async findSymbols({ query, path }: WorkspaceToolInput<'promptreel_find_symbols'>): Promise<ToolRunResult> {
    if (path) {
      const location = await this.visible(path);
      if (typeof location === 'string') return { ok: false, text: location };
      const symbols = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
        'vscode.executeDocumentSymbolProvider',
        location.uri,
      );
      const lines = flattenSymbols(symbols ?? []).slice(0, MAX_SYMBOLS);
      return { ok: true, text: lines.length ? `Symbols of ${location.label}:\n${lines.join('\n')}` : `No symbols are known for ${location.label}.` };
    }
    if (!query?.trim()) return { ok: false, text: 'Give a query (part of a symbol name), or a path to list the symbols of a file.' };
    const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
    const visible: string[] = [];
    for (const symbol of found) {
      if (visible.length >= MAX_SYMBOLS) break;
      if (await this.files.isHidden(symbol.location.uri)) continue;
      const container = symbol.containerName ? ` in ${symbol.containerName}` : '';
      visible.push(`${symbol.name} (${symbolKind(symbol.kind)}${container}) ${relativePath(symbol.location.uri)}:${symbol.location.range.start.line + 1}`);
    }
    return {
      ok: true,
      text: visible.length ? `Symbols matching "${query}":\n${visible.join('\n')}` : `No symbol matches "${query}" (a language extension must know the files).`,
    };
  }

  private async readProblems({ path }: WorkspaceToolInput<'promptreel_read_problems'>): Promise<ToolRunResult> {
    if (!path) {
      const entries = [];
      for (const entry of vscode.languages.getDiagnostics()) if (!(await this.files.isHidden(entry[0]))) entries.push(entry);
      return { ok: true, text: `Problems in the workspace:\n${problemsReport(entries).text}` };
    }
    const location = await this.visible(path);
    if (typeof location === 'string') return { ok: false, text: location };
    return { ok: true, text: `Problems in ${location.label}:\n${problemsReport([[location.uri, vscode.languages.getDiagnostics(location.uri)]]).text}` };
  }

  /**
   * Where a path the model gave really is, when the chat may see it; else why not, in words for the model. The
   * workspace boundary decides: a link out of the workspace is named as such and left out as hidden files are.
   */
  private async visible(path: string): Promise<WorkspacePlace | string> {
    const place = await this.files.boundary.locatePath(path);
    if (isRefusal(place)) {
      switch (place.refused) {
        case 'noFolder':
          return 'No folder is open in VS Code: there are no workspace files to read.';
        case 'outside':
          return `${place.label} is outside the workspace: only its files can be read.`;
        case 'link':
          return place.link === place.label
            ? `${place.label} is a link to a place outside the workspace: it is left out of the chat, as hidden files are.`
            : `${place.label} is inside ${place.link}, a link to a place outside the workspace: it is left out of the chat, as hidden files are.`;
        case 'absent':
          return `There is no ${place.label} in the workspace.`;
      }
    }
    if (place.hidden === 'git') return `${place.label} is in a .git folder: Git's own files are left out of the chat.`;
    if (place.hidden) return `${place.label} is left out of the chat by files.exclude, search.exclude or a .gitignore file (the user can still mention it).`;
    return place;
  }
}

function flattenSymbols(symbols: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[], depth = 0): string[] {
  return symbols.flatMap((symbol) => {
    const line = 'range' in symbol ? symbol.range.start.line + 1 : symbol.location.range.start.line + 1;
    const own = `${'  '.repeat(depth)}${symbol.name} (${symbolKind(symbol.kind)}) line ${line}`;
    return 'children' in symbol ? [own, ...flattenSymbols(symbol.children, depth + 1)] : [own];
  });
}

function symbolKind(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? 'Symbol').toLowerCase();
}
