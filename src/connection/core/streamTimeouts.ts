import { DEFAULT_STREAM_TIMEOUTS, type StreamTimeouts } from '../../api/chat/streamTimeouts';
import type { ModelCapabilities } from '../../config/schema';

/** A model's timeouts from `promptreel.models.capabilities`, else the defaults (which suit reasoning models). */
export function streamTimeoutsOf(declared: ModelCapabilities | undefined): StreamTimeouts {
  return {
    firstTokenMs: declared?.firstTokenTimeoutSeconds ? declared.firstTokenTimeoutSeconds * 1000 : DEFAULT_STREAM_TIMEOUTS.firstTokenMs,
    idleMs: declared?.idleTimeoutSeconds ? declared.idleTimeoutSeconds * 1000 : DEFAULT_STREAM_TIMEOUTS.idleMs,
    ...(declared?.connectTimeoutSeconds ? { connectMs: declared.connectTimeoutSeconds * 1000 } : {}),
  };
}
