import type { ModelLimits } from '../api/models';
import type { ModelCapabilities } from '../config/schema';

// What a model can take: the one answer every surface (the chat panel, the editor, VS Code's model list, the chat
// participant, the explainer) builds its requests from.

export interface ResolvedCapabilities {
  contextWindow: number;
  maxOutputTokens: number;
  tools: boolean;
  vision: boolean;
  developerRole: boolean;
  sampling: boolean;
}

/** What Promptreel assumes about a model the user has not described in `promptreel.models.capabilities`. */
export const DEFAULT_CAPABILITIES: Readonly<ResolvedCapabilities> = {
  contextWindow: 128_000,
  maxOutputTokens: 4_096,
  // Most OpenAI-compatible chat models accept `tools`; a model that does not says so with a 400 we show.
  tools: true,
  vision: false,
  developerRole: false,
  sampling: true,
};

/** What the settings say, else what the model list says (`listed`), else what Promptreel assumes. */
export function resolveCapabilities(declared: ModelCapabilities | undefined, listed?: ModelLimits): ResolvedCapabilities {
  return {
    contextWindow: declared?.contextWindow ?? listed?.contextWindow ?? DEFAULT_CAPABILITIES.contextWindow,
    maxOutputTokens: declared?.maxOutputTokens ?? listed?.maxOutputTokens ?? DEFAULT_CAPABILITIES.maxOutputTokens,
    tools: declared?.tools ?? listed?.tools ?? DEFAULT_CAPABILITIES.tools,
    vision: declared?.vision ?? listed?.vision ?? DEFAULT_CAPABILITIES.vision,
    developerRole: declared?.developerRole ?? DEFAULT_CAPABILITIES.developerRole,
    sampling: declared?.sampling ?? DEFAULT_CAPABILITIES.sampling,
  };
}
