export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Linear interpolation between the closest ranks (the usual "type 7" quantile). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/** "min–max (±x% around the median)", the spread shown next to a median. */
export function spread(values: readonly number[], digits = 1): string {
  if (values.length === 0) return 'no samples';
  const m = median(values);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const relative = m === 0 ? 0 : (Math.max(m - low, high - m) / Math.abs(m)) * 100;
  return `${low.toFixed(digits)}–${high.toFixed(digits)} (±${relative.toFixed(0)}%, n=${values.length})`;
}

/** The median of `ours[i] / peer[i]`: when runs alternate, each ratio compares two runs made under the same load. */
export function pairedRatio(ours: readonly number[], peer: readonly number[]): number {
  if (ours.length !== peer.length) throw new Error(`${ours.length} runs of ours, ${peer.length} of the peer`);
  return median(ours.map((value, index) => value / peer[index]));
}
