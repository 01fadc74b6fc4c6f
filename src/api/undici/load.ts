import type * as Slim from './slim';

export type Undici = typeof Slim;

let loaded: Undici | undefined;

/**
 * undici, loaded on first use rather than when the extension loads. In the bundle this `require` stays a require of
 * dist/undici.js (see `lazyUndici` in esbuild.js); under plain Node (unit tests) it loads ./slim from out/.
 */
export function undici(): Undici {
  loaded ??= require('./slim') as Undici;
  return loaded;
}
