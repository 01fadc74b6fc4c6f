// What the VSIX must hold and may hold: read by `npm run test:vsix` (scripts/run-vsix-check.js) on `vsce ls`'s list
// and on the folder `code-server --install-extension` leaves, and by the unit tier (test/unit/build).

/**
 * The files a user needs, as `vsce ls` names them (relative to the repository, `/`-separated): the manifest and its
 * translations, the READMEs (with their screenshots), the changelog and licence, the bundles, the l10n bundles, the
 * icons and stylesheets. No sources, tests, source maps, node_modules, build or test output.
 */
export const USER_FILES =
  /^(package(\.nls(\.[\w-]+)?)?\.json|README(\.[\w-]+)?\.md|CHANGELOG\.md|LICENSE|l10n\/bundle\.l10n(\.[\w-]+)?\.json|dist\/[\w-]+\.js|dist\/webview\/[\w-]+\.js|media\/[\w-]+\.(svg|png|css)|media\/screenshots\/[\w-]+\.png)$/;

/** The listed files a user does not need. */
export function notForUsers(files: readonly string[]): string[] {
  return files.filter((file) => !USER_FILES.test(file));
}

/**
 * The files the package names that it does not hold: each path in the manifest (`main`, the icons, the walkthrough
 * media…), each l10n bundle the manifest's `l10n` folder needs, and each module a packaged bundle requires by a
 * relative path (`require("./chunk-….js")`): the first use of a feature would fail without it.
 */
export function missingFiles(files: readonly string[], read: (file: string) => string): string[] {
  const held = new Set(files.map(normalize));
  const named = new Set<string>();
  const manifest: unknown = JSON.parse(read('package.json'));
  for (const value of stringsIn(manifest)) {
    if (/^(\.\/)?(dist|media|l10n)\/[^\s*]+\.\w+$/.test(value)) named.add(normalize(value));
  }
  for (const locale of ['', ...files.flatMap((file) => /^package\.nls\.([\w-]+)\.json$/.exec(file)?.slice(1) ?? [])]) {
    named.add(locale ? `l10n/bundle.l10n.${locale}.json` : 'l10n/bundle.l10n.json');
  }
  for (const file of files.filter((name) => /^dist\/[^/]+\.js$/.test(name))) {
    for (const [, required] of read(file).matchAll(/\brequire(?:\.resolve)?\(\s*["'](\.\.?\/[^"']+)["']\s*\)/g)) {
      named.add(normalize(`dist/${required}`));
    }
  }
  return [...named].filter((file) => !held.has(file)).sort();
}

/**
 * The name `vsce ls` gives a file of the installed extension's folder: vsce stores the README, the changelog and the
 * licence under its own names (`readme.md`, `changelog.md`, `LICENSE.txt`), and VS Code adds `.vsixmanifest`
 * (undefined: not a file of the package).
 */
export function listedName(installed: string): string | undefined {
  const renamed: Record<string, string> = { 'readme.md': 'README.md', 'changelog.md': 'CHANGELOG.md', 'LICENSE.txt': 'LICENSE' };
  if (installed === '.vsixmanifest') return undefined;
  return renamed[installed] ?? installed;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** `./dist/a/../b.js` → `dist/b.js`. */
function normalize(file: string): string {
  const parts: string[] = [];
  for (const part of file.split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return parts.join('/');
}
