import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import { showMessage } from '../workbench/showMessage';

/** Markdown fence names that are not VS Code language ids. */
const LANGUAGE_ALIASES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  yml: 'yaml',
  md: 'markdown',
  cs: 'csharp',
  'c#': 'csharp',
  rs: 'rust',
  rb: 'ruby',
  kt: 'kotlin',
  html: 'html',
  xml: 'xml',
  ps1: 'powershell',
  dockerfile: 'dockerfile',
};

export function languageIdFor(fence: string | undefined): string {
  const name = (fence ?? '').trim().toLowerCase();
  if (!name) return 'plaintext';
  return LANGUAGE_ALIASES[name] ?? name;
}

/**
 * What the code blocks of a reply can do in the editor: insert at the cursor, replace the selection, open as a new
 * file, copy. The panel takes the focus away from the editor, so the last text editor the user had is remembered.
 */
export class CodeBlockActions extends Disposable {
  private lastEditor: vscode.TextEditor | undefined;

  constructor(private readonly log: ComponentLogger) {
    super();
    this.lastEditor = vscode.window.activeTextEditor;
    this._register(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor) this.lastEditor = editor;
      }),
    );
  }

  async copy(code: string): Promise<void> {
    await vscode.env.clipboard.writeText(code);
    vscode.window.setStatusBarMessage(t('$(check) Code copied'), 2000);
  }

  /** Inserts at each cursor of the editor (the selection is kept, not replaced). */
  async insertAtCursor(code: string): Promise<boolean> {
    const editor = await this.targetEditor(t('Open a file in the editor to insert the code.'));
    if (!editor) return false;
    const done = await editor.edit((builder) => {
      for (const selection of editor.selections) builder.insert(selection.active, code);
    });
    this.log.info(
      done ? `Inserted ${code.length} characters into ${editor.document.uri.fsPath || editor.document.uri.toString()}.` : 'The editor refused the insertion.',
    );
    return done;
  }

  async replaceSelection(code: string): Promise<boolean> {
    const editor = await this.targetEditor(t('Open a file in the editor to replace the selection.'));
    if (!editor) return false;
    return editor.edit((builder) => {
      for (const selection of editor.selections) builder.replace(selection, code);
    });
  }

  async newFile(code: string, fence?: string): Promise<vscode.TextEditor> {
    const document = await vscode.workspace.openTextDocument({ content: code, language: await this.knownLanguage(languageIdFor(fence)) });
    return vscode.window.showTextDocument(document, { preview: false });
  }

  /** `noEditor`: what the user is told when no editor can take the code. */
  private async targetEditor(noEditor: string): Promise<vscode.TextEditor | undefined> {
    const candidates = [vscode.window.activeTextEditor, this.lastEditor, ...vscode.window.visibleTextEditors];
    const editor = candidates.find((candidate) => candidate && !candidate.document.isClosed && isEditable(candidate));
    if (!editor) {
      showMessage('info', noEditor);
      return undefined;
    }
    // Show it (the focus is in the chat) so the user sees where the code went.
    return vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, selection: editor.selection, preserveFocus: false });
  }

  private async knownLanguage(languageId: string): Promise<string> {
    const known = await vscode.languages.getLanguages();
    return known.includes(languageId) ? languageId : 'plaintext';
  }
}

function isEditable(editor: vscode.TextEditor): boolean {
  const scheme = editor.document.uri.scheme;
  return scheme !== 'output' && scheme !== 'git' && !scheme.startsWith('vscode-');
}
