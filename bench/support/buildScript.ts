import type * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './paths';

/** What esbuild.js exports when required (it then builds nothing). */
export interface BuildScript {
  buildOptions(options: { production: boolean }): esbuild.BuildOptions[];
  /** Each webview page's entry point (relative to the root) → its bundle in dist/webview/. */
  PAGES: Readonly<Record<string, string>>;
}

export function buildScript(): BuildScript {
  return require(path.join(ROOT, 'esbuild.js')) as BuildScript;
}

/**
 * The entry point esbuild.js builds `bundle` (e.g. `chat.js`) from, relative to `root`; throws when it builds no such
 * bundle or its entry does not exist, so a moved page fails the bench instead of going unmeasured.
 */
export function pageEntry(pages: Readonly<Record<string, string>>, bundle: string, root = ROOT): string {
  const entry = Object.entries(pages).find(([, built]) => built === bundle)?.[0];
  if (entry === undefined) throw new Error(`esbuild.js builds no dist/webview/${bundle} (its PAGES: ${Object.values(pages).join(', ')})`);
  if (!fs.existsSync(path.join(root, entry))) throw new Error(`esbuild.js builds dist/webview/${bundle} from ${entry}, which does not exist`);
  return entry;
}
