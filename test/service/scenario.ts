import { z } from 'zod';
import { FILM_CLIPS } from './filmClips';

/**
 * What the local service plays. The service keeps one default scenario plus an optional patch per key;
 * a request is answered with `default + patch of its key`, read at the time of the request (so a test
 * can change the outcome of a task that already exists).
 */

const faultSchema = z.strictObject({
  status: z.number().int().min(100).max(599),
  /** Default 'openai'. */
  body: z.enum(['openai', 'task', 'empty', 'html']).optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  type: z.string().optional(),
  param: z.string().optional(),
  /** Default true: append ' (request id: …)' to the message. */
  requestId: z.boolean().optional(),
  retryAfter: z.string().optional(),
  /** How many matching requests fail; then the fault clears itself. Absent: unlimited. */
  times: z.number().int().min(1).optional(),
  method: z.string().optional(),
  /** A regular expression source tested against the path. */
  path: z.string().optional(),
  /** The message repeats the request's key, as some gateways do ("invalid token sk-…"). */
  echoKey: z.boolean().optional(),
});

const modelEntrySchema = z.strictObject({
  id: z.string(),
  owned_by: z.string().optional(),
  created: z.number().int().optional(),
  supported_endpoint_types: z.array(z.string()).optional(),
  // SERVICE.md, "gateway quirks": the limits some gateways publish per model.
  context_length: z.number().int().optional(),
  max_model_len: z.number().int().optional(),
  max_input_tokens: z.number().int().optional(),
  max_output_tokens: z.number().int().optional(),
  input_modalities: z.array(z.string()).optional(),
  supported_parameters: z.array(z.string()).optional(),
});

const videoSchema = z.strictObject({
  createShape: z.enum(['openai', 'task-id-only', 'data-envelope']),
  statusCase: z.enum(['lower', 'upper']),
  customRunningStatus: z.string().nullable(),
  pollsToRunning: z.number().int().min(0),
  pollsToDone: z.number().int().min(0),
  durationMs: z.number().min(0).nullable(),
  outcome: z.enum(['completed', 'failed']),
  failureStyle: z.enum(['error-object', 'fail-reason', 'none']),
  progress: z.enum(['int', 'percent-string', 'none']),
  urlField: z.enum(['metadata.url', 'video_url', 'url', 'content.video_url', 'result_url', 'data.result_url', 'none']),
  completedAtWhileRunning: z.boolean(),
  unknownTaskStatus: z.union([z.literal(400), z.literal(404)]),
  dropCreateConnection: z.boolean(),
  createDelayMs: z.number().min(0),
  /** After the task exists: how long the answer takes (a client that leaves meanwhile leaves a charged task). */
  answerDelayMs: z.number().min(0),
  /** After the task exists, a proxy in front answers this status with its HTML page (it timed out waiting). */
  proxyStatusAfterCreate: z.union([z.literal(502), z.literal(504), z.literal(524)]).nullable(),
  /**
   * How GET /v1/videos/<id> answers: `relay` (the create answer's shape, with the fields above), or `new-api-1`, the
   * gateway's own task record (new-api 1.0, SERVICE.md "Video task query"): `{task_id, status (upper case),
   * progress: "30%", fail_reason, created_at, finished_at, platform}` and never an address.
   */
  queryShape: z.enum(['relay', 'new-api-1']),
  /** What a failed task says (in `error.message` or `fail_reason`). */
  failureReason: z.string(),
  /** GET /v1/videos/<id>/content answers 302 to the task's signed address on the CDN (another origin), as new-api 1.0 does. */
  contentRedirect: z.boolean(),
  /**
   * Which video a new task's file is (CDN and `/content`): null, the sample (`fixtures/sample.mp4`); else the film
   * clips of `fixtures/film/` in turn, the Nth task created while this is set getting `clips[N % length]` (counted
   * from reset()). A task keeps its clip whatever the scenario says later. `shot-a`, `shot-b`, `shot-c` join by
   * remuxing (H.264 Main 320×180 24 fps, AAC, 1 s, 1.5 s, 2 s); `shot-portrait` (180×320) and `shot-high` (High, 30
   * fps) differ from them (fixtures/README.md).
   */
  clips: z.array(z.enum(FILM_CLIPS)).nullable(),
  /**
   * Which tasks fail whatever `outcome` says: the Nth `POST /v1/videos` that makes a task since reset() (from 0) is
   * in this list, it ends failed with `failureReason` when the others end (one failed shot of a film, the others made).
   */
  failTasks: z.array(z.number().int().min(0)),
});

const cdnSchema = z.strictObject({
  redirects: z.number().int().min(0).max(20),
  expired: z.union([z.literal(false), z.literal(403), z.literal(404)]),
  bytesPerSecond: z.number().positive().nullable(),
  sizeBytes: z.number().int().min(0).nullable(),
  contentLength: z.boolean(),
  /**
   * What a 200 carries: the video, or what a misconfigured bucket, a login wall or a gateway sends instead (an HTML
   * page, a JSON error, an HTML page labelled application/octet-stream, an error page that quotes the request's key).
   */
  answer: z.enum(['video', 'html-page', 'json-error', 'html-as-octet-stream', 'page-quoting-key']),
  /** The same `answer` (or `redirectTo`) from `/v1/videos/<id>/content` too (else that always sends the video). */
  answerAtContent: z.boolean(),
  /** Sends this many bytes of the video (Content-Length still says the whole size), then closes the connection. */
  cutAfterBytes: z.number().int().min(0).nullable(),
  /**
   * `/files/…` answers 302 to this address instead (`{port}`: a port the CDN listens on), as a signed address
   * leading into a private network would: `http://169.254.169.254/latest/meta-data/` (a cloud's metadata endpoint),
   * `http://localhost:{port}/latest/meta-data/`. The CDN answers `/latest/meta-data/…` with credentials, as such an
   * endpoint does.
   */
  redirectTo: z.string().nullable(),
});

const chatSchema = z.strictObject({
  reply: z.string().nullable(),
  /**
   * A script by turn: a request whose conversation holds N assistant messages (its Nth turn, from 0) is answered
   * `replies[N]` (a model asked again after its first reply answers `replies[1]`); past the script, the rules below.
   */
  replies: z.array(z.string()).nullable(),
  /**
   * How many shots the storyboard has that a request for one gets (instructions that ask for a storyboard in JSON, as
   * Generate Explainer Film's do): a valid storyboard made from the request's code, without `reply`/`replies`.
   */
  storyboardShots: z.number().int().min(0).max(20),
  chunkChars: z.number().int().min(1),
  delayMs: z.number().min(0),
  firstChunkDelayMs: z.number().min(0),
  reasoning: z.enum(['none', 'reasoning_content', 'reasoning', 'think']),
  toolCalls: z.enum(['auto', 'never', 'always']),
  /**
   * A tool-calling model's script: after the last user message, round N (the Nth assistant turn since it) calls the
   * tools of `toolScript[N]` with these arguments, whether the request offers them or not (a model can call a tool
   * it was not given); once the script is done, the answer lists the tool results it received. Null: `toolCalls`.
   * Arguments given as a string are sent as they are (a model that writes broken JSON). `id`: the call's id, instead
   * of a fresh one (a model or gateway that repeats one, within a reply or in every reply).
   */
  toolScript: z
    .array(z.array(z.strictObject({ name: z.string(), arguments: z.union([z.record(z.string(), z.unknown()), z.string()]), id: z.string().optional() })))
    .nullable(),
  usage: z.enum(['final-chunk', 'last-choice-chunk', 'none']),
  framing: z.enum(['lf', 'crlf', 'cr']),
  comments: z.boolean(),
  eventFields: z.boolean(),
  multiLineData: z.boolean(),
  midStreamError: z.object({ afterChunks: z.number().int().min(0), message: z.string(), code: z.string(), type: z.string() }).nullable(),
  cut: z.enum(['no-done', 'no-finish']).nullable(),
  cutAfterChunks: z.number().int().min(0),
  stallAfterChunks: z.number().int().min(0).nullable(),
  finishReason: z.string(),
  bulk: z.object({ chunks: z.number().int().min(0), chunkChars: z.number().int().min(1) }).nullable(),
  /**
   * How a streamed request is answered (200): an event stream, or what gateways that ignore `stream: true` send, or a
   * proxy's `rate limit exceeded` (text/plain, which starts like the SSE field `retry:`).
   */
  streamAnswer: z.enum(['sse', 'completion-json', 'error-json', 'html', 'text', 'rate-limit-text', 'empty']),
  /** Overrides the content type of that answer, event streams included (some gateways label JSON as an event stream, or a stream as text/plain). */
  streamContentType: z.string().nullable(),
  /** One `data:` line of this many bytes that never ends (a runaway stream). */
  endlessEventBytes: z.number().int().min(1).nullable(),
  /** A stream of well-formed content chunks of this many characters each that never ends (a runaway reply). */
  endlessChunkChars: z.number().int().min(1).nullable(),
  /** SERVICE.md, "gateway quirks": a gateway that refuses `stream_options` (400), as some upstreams do. */
  refuseStreamOptions: z.boolean(),
  /** A gateway that cannot stream: `stream: true` is refused (400); the same request without it is answered. */
  refuseStream: z.boolean(),
  /**
   * SERVICE.md, "Reasoning models": a DeepSeek-style reasoning model. Every reply carries `reasoning_content`, tool-call
   * turns included; a request is refused (400) when an assistant turn with tool calls lacks its `reasoning_content`,
   * or one without tool calls carries it.
   */
  deepseekReasoning: z.boolean(),
  /** The arguments of a planned call of the tool with this name, instead of example values made from its schema. */
  toolArguments: z.record(z.string(), z.record(z.string(), z.unknown())),
  /**
   * SERVICE.md, "Account": the usage reports this many prompt tokens as cached (`prompt_tokens_details.cached_tokens`,
   * at most the prompt), which the key's log charges at `account.cacheRatio`. 0: no `prompt_tokens_details`.
   */
  cachedTokens: z.number().int().min(0),
});

/** SERVICE.md, "Account": the key's quota and expiry, the display unit, and prices. */
const accountSchema = z.strictObject({
  /**
   * `GET /api/usage/token`: the key's quota. `limited` (granted/used below), `unlimited`, `exhausted` (nothing left),
   * or not offered: `absent` (404, quoting the address with the key), `html` (a web page), `unsuccessful` (`{"success": false}`).
   */
  tokenUsage: z.enum(['limited', 'unlimited', 'exhausted', 'absent', 'html', 'unsuccessful']),
  /** Quota units granted to the key and used so far. */
  grantedQuota: z.number().min(0),
  usedQuota: z.number().min(0),
  /** When the key expires, in days from now (negative: it has expired); null: never (`expires_at: 0`). */
  expiresInDays: z.number().nullable(),
  modelLimits: z.record(z.string(), z.number()).nullable(),
  /** The billing subscription and usage pair: under `/v1/dashboard/…`, `/dashboard/…`, both, or neither. */
  billing: z.enum(['both', 'v1', 'root', 'absent']),
  /** `GET /api/status`: how the gateway displays quota, or not offered. */
  display: z.enum(['USD', 'CNY', 'TOKENS', 'absent']),
  quotaPerUnit: z.number().positive(),
  /** `GET /api/pricing`: offered, not offered (404), or `{"success": false}`. */
  pricing: z.enum(['offered', 'absent', 'unsuccessful']),
  groupRatio: z.record(z.string(), z.number()),
  /** Prices: per call (`quota_type` 1, US dollars per request) or per token (`model_ratio`, `completion_ratio`). */
  prices: z.array(
    z.strictObject({
      model: z.string(),
      perCallUsd: z.number().min(0).optional(),
      modelRatio: z.number().min(0).optional(),
      completionRatio: z.number().min(0).optional(),
    }),
  ),
  /**
   * `GET /api/log/token?key=…` (new-api, public): the key's log of what it was charged, newest first. `offered`, or not
   * offered: `absent` (404, quoting the address with the key), `html` (a web page), `unsuccessful` (`{"success": false}`). Every chat reply that reached
   * its end (usage reported or not: the gateway charges what it counted) and every video task created is logged.
   */
  log: z.enum(['offered', 'absent', 'html', 'unsuccessful']),
  /** Every /v1 answer carries `X-Oneapi-Request-Id`, and the log entry of a charged request carries it as `request_id`. */
  requestIdHeader: z.boolean(),
  /** The group the key is charged at (its ratio from `groupRatio`; not exposed by the gateway, as SERVICE.md says). */
  keyGroup: z.string(),
  /** Cached prompt tokens cost this share of a prompt token; published in `/api/pricing` as `cache_ratio`. Null: not published, charged in full. */
  cacheRatio: z.number().min(0).nullable(),
});

export const scenarioSchema = z.strictObject({
  fault: faultSchema.nullable(),
  models: z.array(modelEntrySchema),
  latencyMs: z.number().min(0),
  video: videoSchema,
  cdn: cdnSchema,
  chat: chatSchema,
  /** GET /v1/models pads its JSON answer to at least this many bytes (sent in pieces, never held in memory). */
  modelsPaddingBytes: z.number().int().min(0).nullable(),
  /**
   * Every GET (the models, a task, the account) answers 200 JSON whose body comes one byte every this many ms and
   * never ends: a gateway (or a proxy) that trickles, so that no idle timeout ever fires.
   */
  trickleMs: z.number().positive().nullable(),
  account: accountSchema,
  /**
   * SERVICE.md, "gateway quirks": a gateway (or the access proxy in front of it) that refuses (403) any request to it
   * without these headers, with these values (names lower-case), before looking at the key.
   */
  requiredHeaders: z.record(z.string(), z.string()),
  /** An Azure-style gateway that refuses (400) an API request (`/v1/…`) without these query parameters. */
  requiredQuery: z.record(z.string(), z.string()),
});

export type Fault = z.infer<typeof faultSchema>;
export type ModelEntry = z.infer<typeof modelEntrySchema>;
export type VideoScenario = z.infer<typeof videoSchema>;
export type CdnScenario = z.infer<typeof cdnSchema>;
export type ChatScenario = z.infer<typeof chatSchema>;
export type AccountScenario = z.infer<typeof accountSchema>;
export type Scenario = z.infer<typeof scenarioSchema>;

/**
 * A deep partial of Scenario. Sections (`video`, `cdn`, `chat`) merge field by field; `fault`, `models`
 * and the nullable objects inside sections (`midStreamError`, `bulk`) are replaced as a whole.
 */
export const scenarioPatchSchema = z.strictObject({
  fault: faultSchema.nullable().optional(),
  models: z.array(modelEntrySchema).optional(),
  latencyMs: z.number().min(0).optional(),
  video: videoSchema.partial().optional(),
  cdn: cdnSchema.partial().optional(),
  chat: chatSchema.partial().optional(),
  modelsPaddingBytes: z.number().int().min(0).nullable().optional(),
  trickleMs: z.number().positive().nullable().optional(),
  account: accountSchema.partial().optional(),
  requiredHeaders: z.record(z.string(), z.string()).optional(),
  requiredQuery: z.record(z.string(), z.string()).optional(),
});
export type ScenarioPatch = z.infer<typeof scenarioPatchSchema>;

export function defaultScenario(): Scenario {
  return {
    fault: null,
    models: [
      { id: 'promptreel-chat', owned_by: 'promptreel', supported_endpoint_types: ['openai'] },
      { id: 'promptreel-reasoner', owned_by: 'promptreel', supported_endpoint_types: ['openai'] },
      { id: 'promptreel-video', owned_by: 'promptreel', supported_endpoint_types: ['openai-video'] },
    ],
    latencyMs: 0,
    video: {
      createShape: 'openai',
      statusCase: 'lower',
      customRunningStatus: null,
      pollsToRunning: 1,
      pollsToDone: 3,
      durationMs: null,
      outcome: 'completed',
      failureStyle: 'error-object',
      progress: 'int',
      urlField: 'metadata.url',
      completedAtWhileRunning: false,
      unknownTaskStatus: 404,
      dropCreateConnection: false,
      createDelayMs: 0,
      answerDelayMs: 0,
      proxyStatusAfterCreate: null,
      queryShape: 'relay',
      failureReason: 'Video generation failed: the upstream provider rejected the prompt',
      contentRedirect: false,
      clips: null,
      failTasks: [],
    },
    cdn: {
      redirects: 0,
      expired: false,
      bytesPerSecond: null,
      sizeBytes: null,
      contentLength: true,
      answer: 'video',
      answerAtContent: false,
      cutAfterBytes: null,
      redirectTo: null,
    },
    chat: {
      reply: null,
      replies: null,
      storyboardShots: 3,
      chunkChars: 8,
      delayMs: 0,
      firstChunkDelayMs: 0,
      reasoning: 'none',
      toolCalls: 'auto',
      toolScript: null,
      usage: 'final-chunk',
      framing: 'lf',
      comments: false,
      eventFields: false,
      multiLineData: false,
      midStreamError: null,
      cut: null,
      cutAfterChunks: 3,
      stallAfterChunks: null,
      finishReason: 'stop',
      bulk: null,
      streamAnswer: 'sse',
      streamContentType: null,
      endlessEventBytes: null,
      endlessChunkChars: null,
      refuseStreamOptions: false,
      refuseStream: false,
      deepseekReasoning: false,
      toolArguments: {},
      cachedTokens: 0,
    },
    modelsPaddingBytes: null,
    trickleMs: null,
    requiredHeaders: {},
    requiredQuery: {},
    account: {
      tokenUsage: 'limited',
      // $10 granted, $6.80 used: $3.20 left at 500000 quota units per dollar.
      grantedQuota: 5_000_000,
      usedQuota: 3_400_000,
      expiresInDays: 12,
      modelLimits: null,
      billing: 'both',
      display: 'USD',
      quotaPerUnit: 500_000,
      pricing: 'offered',
      groupRatio: { default: 1, vip: 0.8 },
      prices: [
        { model: 'promptreel-chat', modelRatio: 1.5, completionRatio: 4 },
        { model: 'promptreel-reasoner', modelRatio: 5, completionRatio: 4 },
        { model: 'promptreel-video', perCallUsd: 0.4 },
      ],
      log: 'offered',
      requestIdHeader: false,
      keyGroup: 'default',
      cacheRatio: null,
    },
  };
}

/**
 * Named scenarios a test (or `npm run service -- --preset <name>`) plays whole. `new-api-1`: a new-api 1.0 gateway
 * (SERVICE.md, "Video task query"): its own task record with no address, upper-case statuses, progress as "30%",
 * failure reasons in Chinese, and the video only at `/content` (with the key), which redirects to a signed address on
 * the CDN (another origin, where the key must never go).
 */
export const SCENARIO_PRESETS = {
  'new-api-1': {
    video: {
      queryShape: 'new-api-1',
      createShape: 'openai',
      urlField: 'none',
      contentRedirect: true,
      failureStyle: 'fail-reason',
      failureReason: '视频生成失败：上游服务拒绝了该提示词（内容审核未通过）',
    },
  },
} satisfies Record<string, ScenarioPatch>;
export type ScenarioPresetName = keyof typeof SCENARIO_PRESETS;

/** Validates an untrusted patch (from JSON); throws a readable Error when it does not fit. */
export function parsePatch(patch: unknown): ScenarioPatch {
  const parsed = scenarioPatchSchema.safeParse(patch);
  if (!parsed.success) throw new Error(`invalid scenario patch: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Merges a patch into a scenario or into another patch (the patch wins). The inputs are not modified. */
export function applyPatch(scenario: Scenario, patch: ScenarioPatch): Scenario;
export function applyPatch(base: ScenarioPatch, patch: ScenarioPatch): ScenarioPatch;
export function applyPatch(base: ScenarioPatch, patch: ScenarioPatch): ScenarioPatch {
  const merged = structuredClone({ ...base, ...definedOnly(patch) });
  if (base.video || patch.video) merged.video = structuredClone({ ...base.video, ...definedOnly(patch.video) });
  if (base.cdn || patch.cdn) merged.cdn = structuredClone({ ...base.cdn, ...definedOnly(patch.cdn) });
  if (base.chat || patch.chat) merged.chat = structuredClone({ ...base.chat, ...definedOnly(patch.chat) });
  if (base.account || patch.account) merged.account = structuredClone({ ...base.account, ...definedOnly(patch.account) });
  return merged;
}

/** `{a: undefined}` in a patch means "not given", as it would after a JSON round trip. */
function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
