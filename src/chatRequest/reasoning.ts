import type { ChatRequest } from '../api/chat/request';
import type { ModelCapabilities } from '../config/schema';

export type ReasoningEffort = NonNullable<ModelCapabilities['reasoningEffort']>;
export type ReasoningParameters = Pick<ChatRequest, 'reasoning_effort' | 'enable_thinking' | 'thinking'>;

/** What a chat (or a caller of `vscode.lm`) chose over the model's settings. */
export interface ReasoningChoice {
  effort?: ReasoningEffort;
  thinking?: boolean;
}

/**
 * The reasoning switches as the model expects them (`promptreel.models.capabilities`): `reasoning_effort`,
 * `enable_thinking` or `thinking: {type}`. Nothing is sent unless the user set something: a gateway that does not
 * know these fields is never bothered.
 */
export function reasoningParameters(
  declared: Pick<ModelCapabilities, 'reasoningFormat' | 'reasoningEffort' | 'thinking'> | undefined,
  choice: ReasoningChoice = {},
): ReasoningParameters {
  const effort = choice.effort ?? declared?.reasoningEffort;
  const thinking = choice.thinking ?? declared?.thinking;
  if (effort === undefined && thinking === undefined) return {};
  const format = declared?.reasoningFormat ?? (effort !== undefined ? 'reasoning_effort' : 'thinking');
  switch (format) {
    case 'reasoning_effort':
      // Thinking switched off is the least effort such a model offers.
      return thinking === false ? { reasoning_effort: 'minimal' } : effort ? { reasoning_effort: effort } : {};
    case 'enable_thinking':
      return { enable_thinking: thinking ?? true };
    case 'thinking':
      return { thinking: { type: thinking === false ? 'disabled' : 'enabled' } };
  }
}
