import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';

/** The last this many characters of a command's output are kept. */
const MAX_OUTPUT_CHARS = 64 * 1024;

export interface RecordedCommand {
  commandLine: string;
  output: string;
  exitCode: number | undefined;
  /** More came than was kept (the start was dropped). */
  truncated: boolean;
  terminal: vscode.Terminal;
  /** Resolves when the output has been read to its end (it can trail the end of the command a little). */
  read: Promise<void>;
}

/** How long a mention waits for the output of a command that ended but whose output is still being read. */
const TRAILING_OUTPUT_MS = 1_000;

/**
 * The output of the last command run in each terminal with shell integration (VS Code only gives a command's output
 * to readers that started reading when it started, so every command is read, and the last one kept).
 */
export class TerminalOutputRecorder extends Disposable {
  private readonly last = new Map<vscode.Terminal, RecordedCommand>();

  constructor() {
    super();
    this._register(vscode.window.onDidStartTerminalShellExecution((event) => this.record(event.terminal, event.execution)));
    this._register(
      vscode.window.onDidEndTerminalShellExecution((event) => {
        const recorded = this.last.get(event.terminal);
        if (recorded) recorded.exitCode = event.exitCode;
      }),
    );
    this._register(vscode.window.onDidCloseTerminal((terminal) => this.last.delete(terminal)));
  }

  /** The last command of the active terminal, else of any terminal. */
  lastCommand(): RecordedCommand | undefined {
    const active = vscode.window.activeTerminal;
    return (active && this.last.get(active)) ?? [...this.last.values()].pop();
  }

  /** The last command, once its output is read to the end (or after a short wait, for one still running). */
  async settledLastCommand(): Promise<RecordedCommand | undefined> {
    const last = this.lastCommand();
    if (last) await Promise.race([last.read, new Promise((resolve) => setTimeout(resolve, TRAILING_OUTPUT_MS))]);
    return last;
  }

  private record(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): void {
    // Read at once: VS Code gives a reader only what is written after it started reading.
    const stream = execution.read();
    const recorded: RecordedCommand = {
      commandLine: execution.commandLine.value,
      output: '',
      exitCode: undefined,
      truncated: false,
      terminal,
      read: Promise.resolve(),
    };
    recorded.read = this.readAll(stream, recorded).catch(() => undefined);
    this.last.delete(terminal);
    this.last.set(terminal, recorded);
  }

  private async readAll(stream: AsyncIterable<string>, recorded: RecordedCommand): Promise<void> {
    for await (const data of stream) {
      recorded.output += data;
      if (recorded.output.length > MAX_OUTPUT_CHARS * 2) {
        recorded.output = recorded.output.slice(-MAX_OUTPUT_CHARS);
        recorded.truncated = true;
      }
    }
    if (recorded.output.length > MAX_OUTPUT_CHARS) {
      recorded.output = recorded.output.slice(-MAX_OUTPUT_CHARS);
      recorded.truncated = true;
    }
  }
}
