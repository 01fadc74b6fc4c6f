import type { ChatTool } from '../../api/chat/request';
import { sanitizeToolSchema } from '../../chatRequest/toolSchema';
import type { ToolSpec } from './toolbox';

/** The tools offered, in the request's shape (the chat-request layer cleans the schemas as the model takes them). */
export function toChatTools(tools: readonly ToolSpec[]): ChatTool[] {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: sanitizeToolSchema(tool.inputSchema),
    },
  }));
}
