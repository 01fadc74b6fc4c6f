import type { ModelLimits } from '../api/models';
import type { ModelCapabilities } from '../config/schema';

// What a model can take: the one answer every surface (the chat panel, the editor, VS Code's model list, the chat
// participant, the explainer) builds its requests from. The user's settings win, then what the service's model list
// says, then what Promptreel assumes.

export interface ResolvedCapabilities {
  contextWindow: number;
  /** What the model writes at most, as VS Code's model list is told (Promptreel assumes 4096 when nothing says). */
  maxOutputTokens: number;
  /** The output limit the settings or the model list give: `max_tokens` never goes above it. */
  outputLimit?: number;
  /** Takes `tools` (assumed when nothing says: most OpenAI-compatible models do, and a refusal is shown). */
  tools: boolean;
  /** `tools` comes from the settings or the model list rather than from the assumption. */
  toolsKnown: boolean;
  maxTools?: number;
  strictToolSchemas: boolean;
  vision: boolean;
  developerRole: boolean;
  /** Takes sampling values (`temperature`, `top_p`, …); some reasoning models refuse them. */
  sampling: boolean;
  /** False when the settings say the model has no JSON mode. */
  jsonMode: boolean;
  /** How the model takes its reasoning switches (settings only). */
  reasoning: Pick<ModelCapabilities, 'reasoningFormat' | 'reasoningEffort' | 'thinking'>;
}

/** What Promptreel assumes about a model the user has not described in `promptreel.models.capabilities`. */
export const DEFAULT_CAPABILITIES = {
  contextWindow: 128_000,
  maxOutputTokens: 4_096,
  // Most OpenAI-compatible chat models accept `tools`; a model that does not says so with a 400 we show.
  tools: true,
  vision: false,
  developerRole: false,
  sampling: true,
} as const;

/** What the settings say (`declared`), else what the model list says (`listed`), else what Promptreel assumes. */
export function resolveCapabilities(declared: ModelCapabilities | undefined, listed?: ModelLimits): ResolvedCapabilities {
  const outputLimit = declared?.maxOutputTokens ?? listed?.maxOutputTokens;
  const tools = declared?.tools ?? listed?.tools;
  return {
    contextWindow: declared?.contextWindow ?? listed?.contextWindow ?? DEFAULT_CAPABILITIES.contextWindow,
    maxOutputTokens: outputLimit ?? DEFAULT_CAPABILITIES.maxOutputTokens,
    ...(outputLimit !== undefined ? { outputLimit } : {}),
    tools: tools ?? DEFAULT_CAPABILITIES.tools,
    toolsKnown: tools !== undefined,
    ...(declared?.maxTools !== undefined ? { maxTools: declared.maxTools } : {}),
    strictToolSchemas: declared?.strictToolSchemas === true,
    vision: declared?.vision ?? listed?.vision ?? DEFAULT_CAPABILITIES.vision,
    developerRole: declared?.developerRole ?? DEFAULT_CAPABILITIES.developerRole,
    sampling: declared?.sampling ?? DEFAULT_CAPABILITIES.sampling,
    jsonMode: declared?.jsonMode !== false,
    reasoning: {
      ...(declared?.reasoningFormat ? { reasoningFormat: declared.reasoningFormat } : {}),
      ...(declared?.reasoningEffort ? { reasoningEffort: declared.reasoningEffort } : {}),
      ...(declared?.thinking !== undefined ? { thinking: declared.thinking } : {}),
    },
  };
}
