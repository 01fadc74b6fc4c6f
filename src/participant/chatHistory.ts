import * as vscode from 'vscode';
import type { PastTurn } from './core/participantMessages';

/** VS Code's history of this participant's chat as plain turns: prompts, and the Markdown of the answers. */
export function pastTurns(history: vscode.ChatContext['history']): PastTurn[] {
  const turns: PastTurn[] = [];
  for (const turn of history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      turns.push({ role: 'user', text: turn.prompt, ...(turn.command ? { command: turn.command } : {}) });
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join('');
      turns.push({ role: 'assistant', text, ...(turn.command ? { command: turn.command } : {}), ...(turn.result.errorDetails ? { failed: true } : {}) });
    }
  }
  return turns;
}
