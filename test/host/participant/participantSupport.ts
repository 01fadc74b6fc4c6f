import type { PromptreelTestApi } from '../../../src/extension';
import * as vscode from 'vscode';
import { workspaceUri } from '../support/workspace';

export type RecordedPart =
  | { kind: 'markdown'; value: string }
  | { kind: 'progress'; value: string }
  | { kind: 'button'; command: vscode.Command }
  | { kind: 'reference'; value: vscode.Uri | vscode.Location }
  | { kind: 'anchor'; value: vscode.Uri | vscode.Location }
  | { kind: 'other'; value: unknown };

/** A `ChatResponseStream` that keeps what the participant sent, in order, as VS Code would receive it. */
export class RecordingStream implements vscode.ChatResponseStream {
  readonly parts: RecordedPart[] = [];

  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  anchor(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'anchor', value });
  }
  button(command: vscode.Command): void {
    this.parts.push({ kind: 'button', command });
  }
  filetree(value: vscode.ChatResponseFileTree[]): void {
    this.parts.push({ kind: 'other', value });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'reference', value });
  }
  push(part: vscode.ChatResponsePart): void {
    this.parts.push({ kind: 'other', value: part });
  }

  /** The answer's Markdown, without the line about its cost that ends it. */
  get answer(): string {
    return this.text.replace(/\n\n_Cost: [^\n]*_$/, '');
  }
  /** All Markdown, joined as the chat view shows it. */
  get text(): string {
    return this.parts.map((part) => (part.kind === 'markdown' ? part.value : '')).join('');
  }
  get markdownCount(): number {
    return this.parts.filter((part) => part.kind === 'markdown').length;
  }
  get progressMessages(): string[] {
    return this.parts.flatMap((part) => (part.kind === 'progress' ? [part.value] : []));
  }
  get buttons(): vscode.Command[] {
    return this.parts.flatMap((part) => (part.kind === 'button' ? [part.command] : []));
  }
}

export interface RequestInit {
  prompt: string;
  command?: string;
  references?: vscode.ChatPromptReference[];
  model?: vscode.LanguageModelChat;
}

/** A `ChatRequest` as VS Code builds it (the tool invocation token is opaque and unused by Promptreel). */
export function chatRequest(init: RequestInit): vscode.ChatRequest {
  return {
    prompt: init.prompt,
    command: init.command,
    references: init.references ?? [],
    toolReferences: [],
    toolInvocationToken: undefined as never,
    model: init.model ?? (undefined as unknown as vscode.LanguageModelChat),
  };
}

type RequestTurnConstructor = new (
  prompt: string,
  command: string | undefined,
  references: vscode.ChatPromptReference[],
  participant: string,
  toolReferences: vscode.ChatLanguageModelToolReference[],
) => vscode.ChatRequestTurn;
type ResponseTurnConstructor = new (
  response: vscode.ChatResponseMarkdownPart[],
  result: vscode.ChatResult,
  participant: string,
  command?: string,
) => vscode.ChatResponseTurn;

/** History turns made with VS Code's own classes (their constructors are hidden from the typings, not from the API). */
export function requestTurn(prompt: string, command?: string): vscode.ChatRequestTurn {
  const RequestTurn = vscode.ChatRequestTurn as unknown as RequestTurnConstructor;
  return new RequestTurn(prompt, command, [], 'promptreel.participant', []);
}

export function responseTurn(markdown: string, command?: string, result: vscode.ChatResult = {}): vscode.ChatResponseTurn {
  const ResponseTurn = vscode.ChatResponseTurn as unknown as ResponseTurnConstructor;
  return new ResponseTurn([new vscode.ChatResponseMarkdownPart(markdown)], result, 'promptreel.participant', command);
}

/**
 * The history after `/video <prompt>` really showed its price (the participant's own answer, with the quote it
 * made): the next `/video <prompt>` with it is the user's confirmation.
 */
export async function confirmedVideo(api: PromptreelTestApi, prompt: string): Promise<vscode.ChatContext> {
  const token = new vscode.CancellationTokenSource().token;
  const asked = await api.participant.handle(chatRequest({ prompt, command: 'video' }), { history: [] }, new RecordingStream(), token);
  if (asked.metadata.kind !== 'video-confirm') throw new Error(`/video did not ask to confirm: ${JSON.stringify(asked.metadata)}`);
  return { history: [requestTurn(prompt, 'video'), responseTurn('Generate this video?', 'video', asked)] };
}

/** Opens the sample file and selects the given lines (1-based, inclusive). */
export async function selectLines(relativePath: string, first: number, last: number): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceUri(...relativePath.split('/')));
  const editor = await vscode.window.showTextDocument(document);
  editor.selection = new vscode.Selection(first - 1, 0, last - 1, document.lineAt(last - 1).text.length);
  return editor;
}
