import { ApiError } from '../errors';
import type { ChatStreamEvent } from './events';
import { t } from '../l10n';

/** The events that mean the answer has begun (the role chunk and keep-alives do not). */
const CONTENT_EVENTS = new Set<ChatStreamEvent['type']>(['text', 'reasoning', 'tool-call', 'tool-calls']);

/**
 * Ends a stream whose answer has not begun within `ms` (a model queued upstream, a gateway that holds the stream):
 * the stream is closed (its socket with it) and a timeout is reported. Later pauses are the idle timeout's business.
 */
export async function* withFirstTokenTimeout(
  source: AsyncGenerator<ChatStreamEvent, void, undefined>,
  deadline: FirstTokenDeadline,
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  let begun = false;
  try {
    while (!begun) {
      const next = await deadline.race(source.next());
      if (next.done) return;
      begun = CONTENT_EVENTS.has(next.value.type);
      yield next.value;
    }
    yield* source;
  } finally {
    await source.return(undefined);
  }
}

/** The moment a model's answer must have begun by, counted from the request: headers and first bytes included. */
export class FirstTokenDeadline {
  private readonly at: number;

  constructor(
    private readonly model: string,
    private readonly ms: number,
    now = Date.now(),
  ) {
    this.at = now + ms;
  }

  /** `work`, or the timeout error once the deadline passes first (`onLate` then closes what `work` waits on). */
  async race<T>(work: Promise<T>, onLate?: () => void): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, this.at - Date.now()))));
    const result = await Promise.race([work, late]).finally(() => clearTimeout(timer));
    if (result !== 'late') return result;
    onLate?.();
    work.catch(() => undefined);
    throw firstTokenTimeout(this.model, this.ms);
  }
}

function firstTokenTimeout(model: string, ms: number): ApiError {
  const span = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
  return new ApiError({
    kind: 'timeout',
    message: t('{0} did not begin its answer within {1}.', model, span),
    hint: t(
      'The service may be busy, or the model slow to start: try again, or raise firstTokenTimeoutSeconds for {0} in promptreel.models.capabilities.',
      model,
    ),
    retryable: false,
    mayHaveReachedServer: true,
  });
}
