import { z } from 'zod';

// Plain data: the shape and defaults of the `promptreel.*` settings. package.json declares the same defaults
// (a host test compares them), and every value read is checked here, so a hand-edited settings.json can never
// hand the rest of the extension a wrong type.

const capabilitiesSchema = z
  .object({
    contextWindow: z.number().int().min(1).optional(),
    maxOutputTokens: z.number().int().min(1).optional(),
    tools: z.boolean().optional(),
    vision: z.boolean().optional(),
    developerRole: z.boolean().optional(),
    jsonMode: z.boolean().optional(),
    sampling: z.boolean().optional(),
  })
  .strip();

export type ModelCapabilities = z.infer<typeof capabilitiesSchema>;

/** One entry of `promptreel.chat.tools`: a function the model may ask to call, with a JSON schema of its arguments. */
export const toolSettingSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
});

export type ToolSetting = z.infer<typeof toolSettingSchema>;

export const SETTING_SCHEMAS = {
  baseUrl: z.string(),
  'chat.model': z.string(),
  'chat.temperature': z.number().min(0).max(2),
  'chat.topP': z.number().min(0).max(1),
  'chat.frequencyPenalty': z.number().min(-2).max(2),
  'chat.presencePenalty': z.number().min(-2).max(2),
  'chat.maxTokens': z.number().int().min(1).nullable(),
  'chat.tools': z.array(toolSettingSchema),
  'editor.rewriteMode': z.enum(['inline', 'diff']),
  'models.capabilities': z.record(z.string(), capabilitiesSchema),
  'video.model': z.string(),
  'video.seconds': z.union([z.string().regex(/^\d+$/), z.number().int().min(1)]).transform(String),
  'video.resolution': z.string().min(1),
  'video.ratio': z.string().min(1),
  'video.generateAudio': z.boolean(),
  'video.watermark': z.boolean(),
  'video.moderator': z.boolean(),
  'video.downloadFolder': z.string().min(1),
  'video.pollIntervalSeconds': z.number().min(2).max(600),
  'video.historySize': z.number().int().min(1).max(1000),
  'video.staleAfterHours': z.number().min(1).max(720),
  'video.autoDownload': z.boolean(),
  'video.seed': z.number().int().min(0).max(4294967295).nullable(),
} as const;

export type SettingKey = keyof typeof SETTING_SCHEMAS;
export type SettingValue<K extends SettingKey> = z.output<(typeof SETTING_SCHEMAS)[K]>;

export const SETTING_DEFAULTS: { [K in SettingKey]: SettingValue<K> } = {
  baseUrl: '',
  'chat.model': '',
  'chat.temperature': 1,
  'chat.topP': 1,
  'chat.frequencyPenalty': 0,
  'chat.presencePenalty': 0,
  'chat.maxTokens': null,
  'chat.tools': [],
  'editor.rewriteMode': 'inline',
  'models.capabilities': {},
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
};

export const SETTING_KEYS = Object.keys(SETTING_SCHEMAS) as SettingKey[];

/** Checks one raw value; undefined when it does not fit (the caller falls back to the default). */
export function parseSetting<K extends SettingKey>(key: K, raw: unknown): SettingValue<K> | undefined {
  const parsed = SETTING_SCHEMAS[key].safeParse(raw);
  return parsed.success ? (parsed.data as SettingValue<K>) : undefined;
}
