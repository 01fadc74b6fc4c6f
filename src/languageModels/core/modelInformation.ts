import type { ModelInfo } from '../../api/models';
import { describePrice } from '../../api/account/prices';
import type { PriceQuote } from '../../connection/account/core/priceBook';
import type { ModelCapabilities } from '../../config/schema';
import { REASONING_EFFORTS } from '../../api/chat/reasoningEffort';
import { t } from '../../api/l10n';
import { resolveCapabilities } from '../../chatRequest/capabilities';

/** The shape of `vscode.LanguageModelChatInformation`, kept free of `vscode` so it can be unit-tested in Node. */
export interface ModelInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly tooltip: string;
  readonly detail: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly imageInput: boolean; readonly toolCalling: boolean | number };
  /**
   * The choices VS Code's model picker offers for this model (newer VS Code versions read it; older ones ignore it).
   * Only for a model declared as a reasoning model in `promptreel.models.capabilities`.
   */
  readonly configurationSchema?: ReasoningConfigurationSchema;
}

export interface ReasoningConfigurationSchema {
  readonly type: 'object';
  readonly properties: Record<string, { type: 'string' | 'boolean'; title: string; description: string; enum?: readonly string[]; default?: string | boolean }>;
}

/** A model declared with a reasoning format, effort or thinking switch gets them in VS Code's model picker. */
export function reasoningConfigurationSchema(declared: ModelCapabilities | undefined): ReasoningConfigurationSchema | undefined {
  if (!declared?.reasoningFormat && !declared?.reasoningEffort && declared?.thinking === undefined) return undefined;
  return {
    type: 'object',
    properties: {
      reasoningEffort: {
        type: 'string',
        title: t('Reasoning effort'),
        description: t('How hard the model thinks before it answers.'),
        enum: REASONING_EFFORTS,
        ...(declared.reasoningEffort ? { default: declared.reasoningEffort } : {}),
      },
      thinking: {
        type: 'boolean',
        title: t('Thinking'),
        description: t('Lets the model think before it answers.'),
        ...(declared.thinking !== undefined ? { default: declared.thinking } : {}),
      },
    },
  };
}

/**
 * One listed model as VS Code sees it. The context window holds prompt and reply, so the input may use what the
 * reply does not reserve (never less than a quarter of the window, for a setting with a huge max output). The price,
 * where known, goes beside the name in VS Code's model picker and, with its origin, into the tooltip.
 */
export function modelInformation(model: ModelInfo, declared: ModelCapabilities | undefined, serviceUrl: string, price?: PriceQuote): ModelInformation {
  const capabilities = resolveCapabilities(declared, model.limits);
  const maxOutputTokens = Math.min(capabilities.maxOutputTokens, capabilities.contextWindow);
  const fromWindow = Math.max(Math.floor(capabilities.contextWindow / 4), capabilities.contextWindow - maxOutputTokens, 1);
  // A published input limit counts unless the settings describe the window.
  const maxInputTokens = declared?.contextWindow === undefined && model.limits?.maxInputTokens ? model.limits.maxInputTokens : fromWindow;
  const name = model.ownedBy ? `${model.id} (${model.ownedBy})` : model.id;
  const where =
    declared || model.limits
      ? t('{0} on {1}', name, serviceUrl)
      : t('{0} on {1} — capabilities assumed: describe them in promptreel.models.capabilities', name, serviceUrl);
  return {
    id: model.id,
    name: model.id,
    family: model.id,
    version: model.created ? String(model.created) : model.id,
    detail: price ? `Promptreel · ${describePrice(price)}` : 'Promptreel',
    tooltip: price ? `${where}\n${priceLine(price)}` : where,
    maxInputTokens,
    maxOutputTokens,
    // A number tells VS Code the most tools the model takes.
    capabilities: { imageInput: capabilities.vision, toolCalling: capabilities.tools ? (declared?.maxTools ?? true) : false },
    ...optionalSchema(reasoningConfigurationSchema(declared)),
  };
}

/** The price in the tooltip, with where it comes from. */
function priceLine(price: PriceQuote): string {
  return price.source === 'service'
    ? t("Price: {0}, from the service's price list.", describePrice(price))
    : t('Price: {0}, from the promptreel.models.prices setting.', describePrice(price));
}

function optionalSchema(schema: ReasoningConfigurationSchema | undefined): { configurationSchema?: ReasoningConfigurationSchema } {
  return schema ? { configurationSchema: schema } : {};
}
