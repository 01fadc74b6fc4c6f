import * as vscode from 'vscode';
import { describeError } from '../../common/logger';
import type { ToolRunResult } from '../core/toolbox';
import { english } from '../mentions/core/mentionFormat';
import { readDocumentText, relativePath } from '../mentions/fileMentions';
import { problemsReport } from '../mentions/problemsMention';
import type { WorkspaceFileIndex } from '../mentions/workspaceFileIndex';
import { numberedLines } from './core/fileLines';
import { listFolder } from './core/folderListing';
import { parseWorkspaceToolInput, type WorkspaceToolInput, type WorkspaceToolName } from './core/workspaceToolSpecs';
import { resolveWorkspacePath, type WorkspaceLocation } from './workspaceLocation';
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
    const { text } = await readDocumentText(location.uri, {
      maxBytes: MAX_READ_BYTES,
      tooLarge: (file, size, limit) => `${file} is ${size}, over the ${limit} this tool reads: search it with promptreel_search_text instead.`,
      // The model reads why a file cannot be read: in English, as every tool result.
      t: english,
    });
    return { ok: true, text: numberedLines(location.label, text, { ...(startLine ? { startLine } : {}), ...(endLine ? { endLine } : {}) }) };
  }

  private async listFolder({ path = '' }: WorkspaceToolInput<'promptreel_list_folder'>): Promise<ToolRunResult> {
    const location = path.trim() && path.trim() !== '.' ? await this.visible(path) : resolveWorkspacePath('');
    if (typeof location === 'string') return { ok: false, text: location };
    const files = await this.files.filesOf(location.root);
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

  /** The location of a path the chat may see, or why not (outside the workspace, left out by the settings, absent). */
  private async visible(path: string): Promise<WorkspaceLocation | string> {
    const location = resolveWorkspacePath(path);
    if (typeof location === 'string') return location;
    const exists = await Promise.resolve(vscode.workspace.fs.stat(location.uri)).then(
      () => true,
      () => false,
    );
    if (!exists) return `There is no ${location.label} in the workspace.`;
    if (await this.files.isHidden(location.uri)) {
      return `${location.label} is left out of the chat by files.exclude, search.exclude or a .gitignore file (the user can still mention it).`;
    }
    return location;
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
