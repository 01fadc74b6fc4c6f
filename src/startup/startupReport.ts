import type { CodeCachedModule, CodeCacheUse } from './codeCache';

/** How src/start.ts loaded the extension's bundle, for the log and the host tests. */
export interface StartupReport {
  readonly codeCache: CodeCacheUse;
  /** Where this bundle's cache is (or will be) kept; undefined when the global storage is not on this disk. */
  readonly cacheFile: string | undefined;
  /** Settles a moment after activation: whether a cache was written (false when the one read was used). */
  readonly cacheWritten: Promise<boolean>;
  /**
   * Where activation's time went, in ms: finding the cache folder, the bundle's load (CodeCachedModule.phases), its
   * `activate()`; and the CPU time all of it took (of the extension host's thread where Node can tell, else its process).
   */
  readonly phases: CodeCachedModule['phases'] & { readonly locate: number; readonly activate: number; readonly cpu: number };
}
