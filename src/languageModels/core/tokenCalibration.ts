/** The estimate may be corrected by at most this factor either way: one odd answer must not make counts absurd. */
const MAX_FACTOR = 3;
/** How much each new report moves the factor (an exponential moving average). */
const WEIGHT = 0.3;

/**
 * Calibrates the provider's token estimate (chars/4) per model with the `prompt_tokens` the service reported for
 * the same requests, so VS Code's idea of what fits the context window follows the model's real tokenizer.
 */
export class TokenCalibration {
  private readonly factors = new Map<string, number>();

  /** A request whose prompt was estimated at `estimated` tokens was counted as `reported` by the service. */
  record(model: string, estimated: number, reported: number): void {
    if (estimated <= 0 || reported <= 0) return;
    const observed = clamp(reported / estimated);
    const previous = this.factors.get(model);
    this.factors.set(model, previous === undefined ? observed : clamp(previous + WEIGHT * (observed - previous)));
  }

  /** The estimate corrected for the model (unchanged until the service reported a count). */
  calibrate(model: string, estimated: number): number {
    return Math.ceil(estimated * (this.factors.get(model) ?? 1));
  }

  factor(model: string): number {
    return this.factors.get(model) ?? 1;
  }
}

function clamp(factor: number): number {
  return Math.min(MAX_FACTOR, Math.max(1 / MAX_FACTOR, factor));
}
