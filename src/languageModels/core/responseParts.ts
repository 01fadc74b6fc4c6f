import type { ChatStreamEvent, Usage } from '../../api/chat/events';
import { parseToolInput } from '../../chatRequest/messages';

export type ResponsePart =
  | { kind: 'text'; text: string }
  /** The model's reasoning, as it arrives (`reasoning_content`, `reasoning` or `<think>`): not part of the answer. */
  | { kind: 'reasoning'; text: string }
  | { kind: 'tool-call'; callId: string; name: string; input: Record<string, unknown> };

export interface ResponseSummary {
  finishReason?: string;
  /** All the reasoning of the reply (sent back with its tool calls to DeepSeek-style models). */
  reasoning?: string;
  /** The tokens the service counted, when it said. */
  usage?: Usage;
}

/**
 * Chat stream events to the parts VS Code wants: text as it arrives, each tool call once complete (the decoder
 * assembles the fragments and hands them over with the finish reason), reasoning as its own kind of part.
 */
export async function* responseParts(events: AsyncIterable<ChatStreamEvent>, summary: ResponseSummary = {}): AsyncGenerator<ResponsePart> {
  for await (const event of events) {
    switch (event.type) {
      case 'text':
        if (event.text) yield { kind: 'text', text: event.text };
        break;
      case 'reasoning':
        if (!event.text) break;
        summary.reasoning = (summary.reasoning ?? '') + event.text;
        yield { kind: 'reasoning', text: event.text };
        break;
      case 'tool-calls':
        for (const [index, call] of event.calls.entries()) {
          yield { kind: 'tool-call', callId: call.id || `call_${index}`, name: call.name, input: parseToolInput(call.name, call.arguments) };
        }
        break;
      case 'finish':
        summary.finishReason = event.reason;
        break;
      case 'usage':
        summary.usage = event.usage;
        break;
      default:
        break;
    }
  }
}
