// @ts-check
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The layers (CONTRIBUTING.md, "Layers"). Shared layers answer what every feature shares; a feature imports shared
 * layers and its own folder, never another feature. Every `core/` folder, at any depth, runs in plain Node.
 */
/** The shared layers, bottom first: each imports only layers below it (one import direction, no folder cycle). */
const SHARED_RANK = { api: 0, common: 1, config: 2, chatRequest: 3, workspace: 3, connection: 4, workbench: 5 };
const SHARED = Object.keys(SHARED_RANK);
const FEATURES = ['account', 'auth', 'chatPanel', 'commands', 'doctor', 'editorStream', 'languageModels', 'participant', 'statusBar', 'video'];
const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');
const noVscode = { name: 'vscode', message: 'This layer runs in plain Node: no `vscode` here (see CONTRIBUTING.md, "Layers").' };
/** Only the API layer (downloads) and the workspace boundary's disk access touch the disk; the rest goes through VS Code. */
const noNodeFs = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'].map((name) => ({
  name,
  message: 'Outside src/api, use vscode.workspace.fs (see src/workbench/fileExists.ts): remote and virtual workspaces have no local disk.',
}));

/** Tests use one assertion style, the strict one: `equal`/`deepEqual` of the loose module do not compare types. */
const looseAssert = ['assert', 'node:assert', 'assert/strict'].map((name) => ({
  name,
  message: "Use `import * as assert from 'node:assert/strict'` (the one assertion style of the tests).",
}));

/**
 * Where a file of src/ stands: its top folder, whether it is page code (the browser: the page kit src/webviewPage/ and
 * each webview's `page/` folder) or a `core/` module.
 */
function placeOf(file) {
  const relative = path.relative(SRC, file).split(path.sep);
  if (relative[0] === '..') return undefined;
  return {
    top: relative[0],
    page: relative[0] === 'webviewPage' || relative.includes('page'),
    core: relative.includes('core'),
    relative: relative.join('/'),
  };
}

/** What a `core/` module may use values of: other `core/` modules and the plain-Node layers. */
function plainNode(place) {
  return (
    place.core || ['api', 'common', 'chatRequest'].includes(place.top) || ['config/schema', 'config/chatSampling'].includes(place.relative.replace(/\.ts$/, ''))
  );
}

const layersRule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const from = placeOf(context.filename);
    if (!from || from.page || from.top === 'extension.ts') return {};
    const check = (node, source, typeOnly) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = placeOf(path.resolve(path.dirname(context.filename), source));
      if (to?.page) return context.report({ node, message: `Only a webview's page imports page code (${source}).` });
      const target = path.resolve(path.dirname(context.filename), source).split(path.sep).join('/');
      if (from.top !== 'api' && !typeOnly && /\/src\/api(\/index)?$/.test(target))
        return context.report({
          node,
          message: `Import the API module itself (e.g. ../api/errors), not the src/api barrel (${source}): the barrel brings every schema and the client into activation.`,
        });
      if (!to || to.top === from.top) {
        if (to && from.core && !typeOnly && !plainNode(to))
          context.report({
            node,
            message: `A core/ module uses values only of core/ modules, src/api, src/common, src/chatRequest and src/config/schema (${source}).`,
          });
        return;
      }
      if (SHARED.includes(from.top) && !SHARED.includes(to.top))
        return context.report({
          node,
          message: `The shared layer ${from.top} imports no feature (${to.top}): features depend on shared layers, never the other way.`,
        });
      if (SHARED.includes(from.top) && SHARED_RANK[to.top] >= SHARED_RANK[from.top])
        return context.report({ node, message: `The shared layer ${from.top} imports only layers below it, not ${to.top} (CONTRIBUTING.md, "Layers").` });
      if (FEATURES.includes(from.top) && !SHARED.includes(to.top))
        return context.report({
          node,
          message: `Features do not import each other (${from.top} → ${to.top}): move what both need into a shared layer (CONTRIBUTING.md, "Layers").`,
        });
      if (from.core && !typeOnly && !plainNode(to))
        context.report({
          node,
          message: `A core/ module uses values only of core/ modules, src/api, src/common, src/chatRequest and src/config/schema (${source}).`,
        });
    };
    const typeOnly = (node) =>
      node.importKind === 'type' || node.exportKind === 'type' || (node.specifiers?.length > 0 && node.specifiers.every((spec) => spec.importKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, node.source.value, typeOnly(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, typeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.artifacts/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // Where a link leads only the disk can say (vscode.workspace.fs has no realpath): src/workspace/localDisk.ts asks
    // it, for `file:` URIs alone, and is the one module outside src/api allowed to. The loader of the bundle reads it
    // and its code cache before any of the extension's code runs (src/startup/).
    files: ['src/**/*.ts'],
    ignores: ['src/api/**', 'src/workspace/localDisk.ts', 'src/startup/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: noNodeFs }] },
  },
  {
    // What VS Code loads first: Node's modules only (the bundle it loads brings `vscode`), so types alone from it.
    files: ['src/start.ts', 'src/startup/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ ...noVscode, allowTypeImports: true }] }] },
  },
  {
    // The API layer: plain Node, the bottom of the stack.
    files: ['src/api/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    // The shared base: plain Node, above the API layer only.
    files: ['src/common/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noVscode, ...noNodeFs] }] },
  },
  {
    // Loading undici's parts lazily (see src/api/undici/load.ts) needs require().
    files: ['src/api/undici/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/triple-slash-reference': 'off' },
  },
  {
    // Every `core/` folder, at any depth, the chat-request layer and each webview's protocol (read by its page too): plain Node.
    files: ['src/**/core/**/*.ts', 'src/chatRequest/**/*.ts', 'src/**/protocol.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noVscode, ...noNodeFs] }] },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { promptreel: { rules: { layers: layersRule } } },
    rules: { 'promptreel/layers': 'error' },
  },
  {
    // A webview's page (src/<feature>/<webview>/page/) runs in the browser: it imports its own folder, the page kit, and
    // the types of its protocol and of its feature's model; no extension-host code.
    files: ['src/**/page/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...noNodeFs],
          patterns: [
            {
              regex: '^\\.\\./(?!protocol$|\\.\\./core/model$|\\.\\./\\.\\./webviewPage/[^/]+$)',
              message: 'A page imports no extension-host code: only its folder, src/webviewPage/, `../protocol` and `../../core/model` (their types).',
            },
            { regex: '^\\.\\./protocol$', allowTypeImports: true, message: 'Only the types of the protocol reach the page (zod stays in the host).' },
            { regex: '^\\.\\./\\.\\./core/model$', allowTypeImports: true, message: "Only the types of the feature's model reach the page." },
          ],
        },
      ],
    },
  },
  {
    // The page kit (the channel to the host, t(), the DOM helpers): browser code that every page shares, and nothing else.
    files: ['src/webviewPage/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [noVscode, ...noNodeFs], patterns: [{ regex: '^\\.\\.', message: 'The page kit imports nothing outside src/webviewPage/.' }] },
      ],
    },
  },
  {
    // zod/mini's catch makes esbuild keep all of zod's utilities (13 KB) in what every window loads at activation.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression > MemberExpression.callee[object.name='z'][property.name='catch']",
          message: 'Use orUndefined / orElse (src/api/tolerant.ts) rather than z.catch: it keeps all of zod in the activation bundle.',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      // One assertion style: `import * as assert from 'node:assert/strict'` (equal and deepEqual compare strictly).
      '@typescript-eslint/no-restricted-imports': ['error', { paths: looseAssert }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?assert(\\u002Fstrict)?$/]",
          message: "Import assert as `import * as assert from 'node:assert/strict'`, not with require().",
        },
        {
          selector:
            "ImportDeclaration[source.value='node:assert/strict'] > :matches(ImportSpecifier, ImportDefaultSpecifier, ImportNamespaceSpecifier[local.name!='assert'])",
          message: "Import assert in its one form: `import * as assert from 'node:assert/strict'`.",
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
        exports: 'writable',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
