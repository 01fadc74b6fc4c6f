import * as vscode from 'vscode';
import { describeError } from '../../common/logger';
import { TOOL_NAME, type ToolRunResult, type ToolSpec } from '../core/toolbox';

/** VS Code names the tools of MCP servers `mcp_<server>_<tool>`. */
const MCP_TOOL = /^mcp_/;

/**
 * The tools VS Code lists that other extensions contribute and the MCP servers the user configured, offered by the
 * chat panel. Nothing is known of what they change, so each call asks the user. VS Code's own tools are left out:
 * they serve its Chat view (its confirmations, its editing sessions) and do not work outside it.
 */
export class VsCodeTools {
  list(): ToolSpec[] {
    const contributed = contributedToolNames();
    return vscode.lm.tools
      .filter((tool) => TOOL_NAME.test(tool.name) && (contributed.has(tool.name) || MCP_TOOL.test(tool.name)))
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: isRecord(tool.inputSchema) ? tool.inputSchema : { type: 'object', properties: {} },
        readOnly: false,
        source: 'vscode' as const,
      }));
  }

  /**
   * Runs a tool outside a chat request (no invocation token): VS Code shows the tool's own confirmation, if it has
   * one, as a dialog. The signal cancels the tool's token.
   */
  async run(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolRunResult> {
    const cancellation = new vscode.CancellationTokenSource();
    const cancel = () => cancellation.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cancellation.token);
      return { ok: true, text: resultText(result) };
    } catch (error) {
      if (signal.aborted) return { ok: false, text: 'Stopped.' };
      return { ok: false, text: `The tool failed: ${describeError(error)}` };
    } finally {
      signal.removeEventListener('abort', cancel);
      cancellation.dispose();
    }
  }
}

/** The tools extensions declare (`contributes.languageModelTools`); read each time, as extensions come and go. */
function contributedToolNames(): Set<string> {
  const names = new Set<string>();
  for (const extension of vscode.extensions.all) {
    const contributes: unknown = (extension.packageJSON as { contributes?: unknown } | undefined)?.contributes;
    const tools = isRecord(contributes) ? contributes['languageModelTools'] : undefined;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) if (isRecord(tool) && typeof tool['name'] === 'string') names.add(tool['name']);
  }
  return names;
}

/** The text parts of a result as one text; a JSON part as its JSON, any other part by its kind. */
function resultText(result: vscode.LanguageModelToolResult): string {
  const parts = result.content.map((part) => {
    if (part instanceof vscode.LanguageModelTextPart) return part.value;
    if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value);
    const data = dataPart(part);
    if (data && /^(text\/|application\/json)/.test(data.mimeType)) return new TextDecoder().decode(data.data);
    return data ? `[${data.mimeType} data, ${data.data.length} bytes, not shown]` : '[a part that is not text, not shown]';
  });
  const text = parts.join('\n').trim();
  return text || 'The tool ran and returned no text.';
}

/** `LanguageModelDataPart` (VS Code 1.105+), recognised by its shape so older versions load this module too. */
function dataPart(part: unknown): { mimeType: string; data: Uint8Array } | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  const { mimeType, data } = part as { mimeType?: unknown; data?: unknown };
  return typeof mimeType === 'string' && data instanceof Uint8Array ? { mimeType, data } : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
