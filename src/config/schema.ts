import * as z from 'zod/mini';
import { MAX_VIDEO_SECONDS, videoSecondsSchema, videoSeedSchema } from '../api/video/requestFields';
import { lazy } from '../api/lazy';
import { REASONING_EFFORTS } from '../api/chat/reasoningEffort';

// Plain data: the shape and defaults of the `promptreel.*` settings. package.json declares the same defaults
// (a host test compares them), and every value read is checked here, so a hand-edited settings.json can never
// hand the rest of the extension a wrong type.

// z.object drops unknown keys (classic zod's .strip()).
const capabilitiesSchema = lazy(() =>
  z.object({
    contextWindow: z.optional(z.int().check(z.gte(1))),
    maxOutputTokens: z.optional(z.int().check(z.gte(1))),
    tools: z.optional(z.boolean()),
    vision: z.optional(z.boolean()),
    developerRole: z.optional(z.boolean()),
    jsonMode: z.optional(z.boolean()),
    sampling: z.optional(z.boolean()),
    stream: z.optional(z.boolean()),
    maxTools: z.optional(z.int().check(z.gte(1), z.lte(1000))),
    strictToolSchemas: z.optional(z.boolean()),
    /** How the model takes its reasoning switches (SERVICE.md, "Reasoning models"). */
    reasoningFormat: z.optional(z.enum(['reasoning_effort', 'enable_thinking', 'thinking'])),
    reasoningEffort: z.optional(z.enum(REASONING_EFFORTS)),
    thinking: z.optional(z.boolean()),
    connectTimeoutSeconds: z.optional(z.int().check(z.gte(1), z.lte(600))),
    firstTokenTimeoutSeconds: z.optional(z.int().check(z.gte(1), z.lte(3600))),
    idleTimeoutSeconds: z.optional(z.int().check(z.gte(1), z.lte(3600))),
    /** Video models: the durations offered, the longest prompt, and whether an image can be the first frame. */
    durations: z.optional(z.array(z.int().check(z.gte(1), z.lte(MAX_VIDEO_SECONDS)))),
    maxPromptLength: z.optional(z.int().check(z.gte(1))),
    firstFrame: z.optional(z.boolean()),
  }),
);

export type ModelCapabilities = z.infer<ReturnType<typeof capabilitiesSchema>>;

/** One entry of `promptreel.models.prices`, in US dollars: per request, per second of video, or per 1M input and output tokens. */
const priceSettingSchema = lazy(() =>
  z.object({
    perRequest: z.optional(z.number().check(z.gte(0))),
    perSecond: z.optional(z.number().check(z.gte(0))),
    input: z.optional(z.number().check(z.gte(0))),
    output: z.optional(z.number().check(z.gte(0))),
  }),
);

export type PriceSetting = z.infer<ReturnType<typeof priceSettingSchema>>;

/** One entry of `promptreel.chat.tools`: a function the model may ask to call, with a JSON schema of its arguments. */
export const toolSettingSchema = lazy(() =>
  z.object({
    name: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
    description: z.optional(z.string()),
    parameters: z.optional(z.record(z.string(), z.unknown())),
  }),
);

export type ToolSetting = z.infer<ReturnType<typeof toolSettingSchema>>;

/** One entry of `promptreel.video.recipes` (and of `.promptreel/recipes.json`): a prompt with `{{placeholders}}`. */
export const recipeSettingSchema = lazy(() =>
  z.object({
    name: z.string().check(z.trim(), z.minLength(1)),
    prompt: z.string().check(z.trim(), z.minLength(1)),
    description: z.optional(z.string()),
    model: z.optional(z.string().check(z.trim(), z.minLength(1))),
    seconds: z.optional(videoSecondsSchema()),
    resolution: z.optional(z.string().check(z.minLength(1))),
    ratio: z.optional(z.string().check(z.minLength(1))),
  }),
);

export type RecipeSetting = z.infer<ReturnType<typeof recipeSettingSchema>>;

/** What the user adds to the requests to the service, or to one model's (`requestOptions`, `models.requestOptions`). */
export const requestOptionsSchema = lazy(() =>
  z.object({
    headers: z.optional(z.record(z.string(), z.string())),
    queryParameters: z.optional(z.record(z.string(), z.string())),
    extraBody: z.optional(z.record(z.string(), z.unknown())),
  }),
);

export type RequestOptionsSetting = z.infer<ReturnType<typeof requestOptionsSchema>>;

export const SETTING_SCHEMA_BUILDERS = {
  baseUrl: () => z.string(),
  requestOptions: () => requestOptionsSchema(),
  'chat.model': () => z.string(),
  'chat.temperature': () => z.number().check(z.gte(0), z.lte(2)),
  'chat.topP': () => z.number().check(z.gte(0), z.lte(1)),
  'chat.frequencyPenalty': () => z.number().check(z.gte(-2), z.lte(2)),
  'chat.presencePenalty': () => z.number().check(z.gte(-2), z.lte(2)),
  'chat.maxTokens': () => z.nullable(z.int().check(z.gte(1))),
  'chat.tools': () => z.array(toolSettingSchema()),
  'chat.rateLimitRetries': () => z.int().check(z.gte(0), z.lte(10)),
  'chat.toolsOffered': () => z.enum(['all', 'workspace', 'none']),
  'chat.excludedTools': () => z.array(z.string().check(z.minLength(1))),
  'chat.maxToolRounds': () => z.int().check(z.gte(1), z.lte(100)),
  'chat.rateLimitMaxWaitSeconds': () => z.int().check(z.gte(1), z.lte(600)),
  'editor.rewriteMode': () => z.enum(['inline', 'diff']),
  'models.capabilities': () => z.record(z.string(), capabilitiesSchema()),
  'models.prices': () => z.record(z.string(), priceSettingSchema()),
  'models.shown': () => z.array(z.string().check(z.minLength(1))),
  'models.requestOptions': () => z.record(z.string(), requestOptionsSchema()),
  'account.warnBelowShare': () => z.number().check(z.gte(0), z.lte(1)),
  'account.dailyBudget': () => z.number().check(z.gte(0)),
  'account.monthlyBudget': () => z.number().check(z.gte(0)),
  'tls.certificateAuthorities': () => z.array(z.string().check(z.minLength(1))),
  'tls.clientCertificate': () => z.string(),
  'tls.clientKey': () => z.string(),
  'video.model': () => z.string(),
  'video.seconds': videoSecondsSchema,
  'video.resolution': () => z.string().check(z.minLength(1)),
  'video.ratio': () => z.string().check(z.minLength(1)),
  'video.generateAudio': () => z.boolean(),
  'video.watermark': () => z.boolean(),
  'video.moderator': () => z.boolean(),
  'video.downloadFolder': () => z.string().check(z.minLength(1)),
  'video.pollIntervalSeconds': () => z.number().check(z.gte(2), z.lte(600)),
  'video.historySize': () => z.int().check(z.gte(1), z.lte(1000)),
  'video.staleAfterHours': () => z.number().check(z.gte(1), z.lte(720)),
  'video.autoDownload': () => z.boolean(),
  'video.seed': () => z.nullable(videoSeedSchema()),
  'video.maxVariants': () => z.int().check(z.gte(1), z.lte(20)),
  'video.recipes': () => z.array(recipeSettingSchema()),
} as const;

export type SettingKey = keyof typeof SETTING_SCHEMA_BUILDERS;
export type SettingValue<K extends SettingKey> = z.output<ReturnType<(typeof SETTING_SCHEMA_BUILDERS)[K]>>;

export const SETTING_DEFAULTS: { [K in SettingKey]: SettingValue<K> } = {
  baseUrl: '',
  requestOptions: {},
  'chat.model': '',
  'chat.temperature': 1,
  'chat.topP': 1,
  'chat.frequencyPenalty': 0,
  'chat.presencePenalty': 0,
  'chat.maxTokens': null,
  'chat.tools': [],
  'chat.rateLimitRetries': 3,
  'chat.toolsOffered': 'all',
  'chat.excludedTools': [],
  'chat.maxToolRounds': 20,
  'chat.rateLimitMaxWaitSeconds': 60,
  'editor.rewriteMode': 'inline',
  'models.capabilities': {},
  'models.prices': {},
  'models.shown': [],
  'models.requestOptions': {},
  'account.warnBelowShare': 0.1,
  'account.dailyBudget': 0,
  'account.monthlyBudget': 0,
  'tls.certificateAuthorities': [],
  'tls.clientCertificate': '',
  'tls.clientKey': '',
  'video.model': '',
  'video.seconds': '5',
  'video.resolution': '720p',
  'video.ratio': 'adaptive',
  'video.generateAudio': true,
  'video.watermark': false,
  'video.moderator': true,
  'video.downloadFolder': 'videos',
  'video.pollIntervalSeconds': 5,
  'video.historySize': 50,
  'video.staleAfterHours': 24,
  'video.autoDownload': false,
  'video.seed': null,
  'video.maxVariants': 4,
  'video.recipes': [],
};

export const SETTING_KEYS = Object.keys(SETTING_SCHEMA_BUILDERS) as SettingKey[];

/** Each setting's schema, built the first time that setting is read. */
const settingSchemas = new Map<SettingKey, z.ZodMiniType>();

/** Checks one raw value; undefined when it does not fit (the caller falls back to the default). */
export function parseSetting<K extends SettingKey>(key: K, raw: unknown): SettingValue<K> | undefined {
  let schema = settingSchemas.get(key);
  if (!schema) settingSchemas.set(key, (schema = SETTING_SCHEMA_BUILDERS[key]()));
  const parsed = schema.safeParse(raw);
  return parsed.success ? (parsed.data as SettingValue<K>) : undefined;
}

/** Where each level of `promptreel.baseUrl` stands, as `WorkspaceConfiguration.inspect` reports it. */
export interface BaseUrlLevels {
  defaultValue?: string;
  globalValue?: string;
  workspaceValue?: string;
  workspaceFolderValue?: string;
}
