import * as path from 'node:path';

/** out/bench/support → the repository root. */
export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const OUT = path.join(ROOT, 'out');
export const BENCH_ARTIFACTS = path.join(ROOT, '.artifacts', 'bench');
export const SCREENSHOTS = path.join(ROOT, '.artifacts', 'screenshots');
export const SERVICE_MAIN = path.join(OUT, 'test', 'service', 'main.js');
