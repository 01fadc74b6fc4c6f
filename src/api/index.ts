export { PromptreelClient, videoBody, type ClientOptions } from './client';
export type { ServiceClient, AccountApi } from './serviceClient';
export type { ChargedRequestRecord } from './charges';
export { ApiError, isApiError, type ApiErrorKind } from './errors';
export { normalizeBaseUrl, apiUrl, describeBaseUrlInput, withoutCredentials } from './baseUrl';
export { redactSecrets, redactApiError } from './redaction';
export { createDispatcher, proxySettings, DEFAULT_TIMEOUTS, type DispatcherOptions } from './dispatcher';
export { hintForStatus, parseRetryAfter } from './httpErrors';
export { silentLogger, type ApiLogger } from './apiLogger';
export { isVideoModel, type ModelInfo } from './models';
export { DEFAULT_RETRY, type RetryPolicy } from './retry';
export type { ChatStreamEvent, ChatCompletion, ToolCall, Usage } from './chat/events';
export { validateChatRequest, chatRequestSchema, type ChatRequest, type ChatMessage, type ContentPart, type ChatTool } from './chat/request';
export { withRateLimitRetry, type RateLimitPolicy, type RateLimitWait } from './chat/rateLimitRetry';
export { ThinkSplitter } from './chat/thinkSplitter';
export { decodeChatStream } from './chat/sse';
export { mayHaveCreated, lostBecause, lostReason, type LostReason } from './video/mayHaveCreated';
export { validateVideoCreateRequest, videoSecondsSchema, videoSeedSchema, MAX_VIDEO_SECONDS, MAX_VIDEO_SEED } from './video/request';
export { normalizeVideoTask, stateFromStatus, parseProgress } from './video/normalize';
export type { VideoTask, VideoState, VideoCreateRequest, VideoInputReference } from './video/task';
export { firstFrameType, validateInputReference, FIRST_FRAME_TYPES, MAX_FIRST_FRAME_BYTES } from './video/inputReference';
export type { DownloadProgress, DownloadOptions, DownloadResult } from './video/download';
export { removeStaleDownloads, reserveFile } from './video/download';
export { SaveError } from './video/savedFile';
export { AccountReader, type Offered, type BillingAnswer, type PricingAnswer } from './account/accountReader';
export {
  keyHealthFromTokenUsage,
  keyHealthFromBilling,
  keyCondition,
  describeKeyHealth,
  quotaDisplay,
  compactNumber,
  DEFAULT_QUOTA_PER_UNIT,
  type KeyHealth,
  type KeyCondition,
  type QuotaDisplay,
} from './account/keyHealth';
export { modelPrices, costOf, formatUsd, describePrice, DEFAULT_GROUP, type ModelPrice } from './account/prices';
export { keyLogEntries, type KeyLogEntry } from './account/keyLog';
