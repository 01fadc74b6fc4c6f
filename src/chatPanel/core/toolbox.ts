// The tools the chat panel can offer a model and run, as the controller sees them (no `vscode` here): Promptreel's
// read-only workspace tools and VS Code's registered tools (which include the MCP servers the user configured).

/** Where a tool comes from: it decides how the chat asks before running it. */
export type ToolSource = 'promptreel' | 'vscode';

export interface ToolSpec {
  /** The name the model calls (`^[A-Za-z0-9_-]{1,64}$`). */
  name: string;
  description: string;
  /** A JSON schema of the arguments. */
  inputSchema: Record<string, unknown>;
  /** It only reads: the user may allow it for the whole chat. Anything else asks every time. */
  readOnly: boolean;
  source: ToolSource;
}

/** What a run gave back to the model: its text, or why there is none. */
export type ToolRunResult = { ok: true; text: string } | { ok: false; text: string };

export interface Toolbox {
  /** The tools offered now, in the order they are offered. */
  list(): ToolSpec[];
  /** Runs a tool; the signal ends it (Stop). Never throws: a failure is a result the model reads. */
  run(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolRunResult>;
}

/** OpenAI's rule for function names; tools named otherwise are not offered. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A tool result longer than this is cut (it goes back to the model with every later request of the chat). */
export const MAX_TOOL_RESULT_CHARS = 40_000;

/** The result as it is kept and sent: cut to `MAX_TOOL_RESULT_CHARS`, saying how much was left out. */
export function boundedResult(text: string, limit = MAX_TOOL_RESULT_CHARS): string {
  if (text.length <= limit) return text;
  const cut = text.lastIndexOf('\n', limit);
  const kept = text.slice(0, cut > limit * 0.8 ? cut : limit);
  return `${kept}\n[… ${text.length - kept.length} more characters left out: ask for a narrower range]`;
}
