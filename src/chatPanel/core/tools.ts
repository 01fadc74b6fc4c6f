import type { ChatTool } from '../../api/chat/request';
import { sanitizeToolSchema } from '../../chatRequest/toolSchema';
import type { ToolSpec } from './toolbox';

/** The tools offered, in the request's shape: schemas cleaned as gateways take them (strictly, where declared). */
export function toChatTools(tools: readonly ToolSpec[], { strictSchemas = false }: { strictSchemas?: boolean } = {}): ChatTool[] {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: sanitizeToolSchema(tool.inputSchema, strictSchemas),
    },
  }));
}
