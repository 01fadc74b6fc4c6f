import { t } from './l10n';

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'cut-off' | 'stream' | 'invalid-response' | 'invalid-request' | 'no-key';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  hint: string;
  status?: number;
  code?: string;
  type?: string;
  param?: string;
  requestId?: string;
  serverMessage?: string;
  retryAfterMs?: number;
  retryable?: boolean;
  /** Characters of the answer that arrived before a stream failed (the reader has them, from the text events). */
  receivedChars?: number;
  mayHaveReachedServer?: boolean;
  cause?: unknown;
}

/** The one error type of the API layer: it knows what happened, what the server said and whether a retry makes sense. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly hint: string;
  readonly status?: number;
  readonly code?: string;
  readonly type?: string;
  readonly param?: string;
  readonly requestId?: string;
  readonly serverMessage?: string;
  readonly retryAfterMs?: number;
  readonly retryable: boolean;
  readonly receivedChars?: number;
  readonly mayHaveReachedServer?: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.hint = init.hint;
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.param = init.param;
    this.requestId = init.requestId;
    this.serverMessage = init.serverMessage;
    this.retryAfterMs = init.retryAfterMs;
    this.retryable = init.retryable ?? false;
    this.receivedChars = init.receivedChars;
    this.mayHaveReachedServer = init.mayHaveReachedServer;
  }

  /** A copy of this error with some fields replaced (e.g. the text received before a stream broke). */
  with(changes: Partial<ApiErrorInit>): ApiError {
    return new ApiError({ ...this.toInit(), ...changes });
  }

  private toInit(): ApiErrorInit {
    return {
      kind: this.kind,
      message: this.message,
      hint: this.hint,
      status: this.status,
      code: this.code,
      type: this.type,
      param: this.param,
      requestId: this.requestId,
      serverMessage: this.serverMessage,
      retryAfterMs: this.retryAfterMs,
      retryable: this.retryable,
      receivedChars: this.receivedChars,
      mayHaveReachedServer: this.mayHaveReachedServer,
      cause: this.cause,
    };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function abortedError(cause?: unknown): ApiError {
  return new ApiError({ kind: 'aborted', message: t('The request was cancelled.'), hint: t('Cancelled.'), cause });
}
