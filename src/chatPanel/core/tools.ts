import type { ChatTool } from '../../api/chat/request';
import type { ToolSetting } from '../../config/schema';

/** The tools of `promptreel.chat.tools` in the request's shape (an empty object schema when none is given). */
export function toChatTools(settings: readonly ToolSetting[]): ChatTool[] {
  return settings.map((tool) => ({
    type: 'function' as const,
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.parameters ?? { type: 'object', properties: {} },
    },
  }));
}
