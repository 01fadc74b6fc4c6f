import type { ComponentLogger } from '../../common/logger';
import type { Settings } from '../../config/settings';
import type { ToolRunResult, ToolSpec, Toolbox } from '../core/toolbox';
import type { WorkspaceFileIndex } from '../mentions/workspaceFileIndex';
import { isExcludedTool } from './core/toolFilter';
import { WORKSPACE_TOOLS, isWorkspaceTool } from './core/workspaceToolSpecs';
import { VsCodeTools } from './vscodeTools';
import { WorkspaceTools } from './workspaceTools';

/**
 * The tools the chat panel offers, as `promptreel.chat.toolsOffered` and `promptreel.chat.excludedTools` say:
 * Promptreel's read-only workspace tools, then VS Code's registered tools (MCP servers' included).
 */
export class ChatToolbox implements Toolbox {
  private readonly workspace: WorkspaceTools;
  private readonly vscodeTools = new VsCodeTools();

  constructor(
    private readonly settings: Settings,
    files: WorkspaceFileIndex,
    private readonly log: ComponentLogger,
  ) {
    this.workspace = new WorkspaceTools(files);
  }

  list(): ToolSpec[] {
    const offered = this.settings.get('chat.toolsOffered');
    if (offered === 'none') return [];
    const tools = offered === 'all' ? [...WORKSPACE_TOOLS, ...this.vscodeTools.list().filter((tool) => !isWorkspaceTool(tool.name))] : [...WORKSPACE_TOOLS];
    const excluded = this.settings.get('chat.excludedTools');
    return tools.filter((tool) => !isExcludedTool(tool.name, excluded));
  }

  async run(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolRunResult> {
    this.log.debug(`Running tool ${name}.`);
    if (isWorkspaceTool(name)) return this.workspace.run(name, input, signal);
    return this.vscodeTools.run(name, input, signal);
  }
}
