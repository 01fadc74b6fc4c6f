// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** The layers, as import rules (see CONTRIBUTING.md, "Layers"). */
const FEATURES = 'account|auth|chatPanel|commands|config|connection|doctor|editorStream|languageModels|participant|statusBar|video|webview|workbench|workspace';
const noVscode = { name: 'vscode', message: 'This layer runs in plain Node: no `vscode` here (see CONTRIBUTING.md, "Layers").' };
/** Only the API layer (downloads) touches the disk itself; the rest goes through VS Code, so remote and virtual workspaces work. */
const noNodeFs = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'].map((name) => ({
  name,
  message: 'Outside src/api, use vscode.workspace.fs (see src/workbench/fileExists.ts): remote and virtual workspaces have no local disk.',
}));

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
    // it, for `file:` URIs alone, and is the one module outside src/api allowed to.
    files: ['src/**/*.ts'],
    ignores: ['src/api/**', 'src/workspace/localDisk.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: noNodeFs }] },
  },
  {
    // The API layer: plain Node, the bottom of the stack.
    files: ['src/api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [noVscode], patterns: [{ regex: `^(\\.\\./)+(${FEATURES}|common)(/|$)`, message: '`src/api` imports nothing of the extension.' }] },
      ],
    },
  },
  {
    // The shared base: plain Node, above the API layer only.
    files: ['src/common/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [noVscode, ...noNodeFs], patterns: [{ regex: `^(\\.\\./)+(${FEATURES})(/|$)`, message: '`src/common` imports only `src/api`.' }] },
      ],
    },
  },
  {
    // Loading undici's parts lazily (see src/api/undici/load.ts) needs require().
    files: ['src/api/undici/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/triple-slash-reference': 'off' },
  },
  {
    // Each feature's `core/`: its logic without the editor. Types of the feature's editor side may be named.
    files: ['src/*/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...noNodeFs],
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./)',
              allowTypeImports: true,
              message: 'A `core/` module uses only values of `core/`, `src/api`, `src/common` and `src/config/schema`.',
            },
            {
              regex: '^\\.\\./\\.\\./(?!api(/|$)|common/|config/(schema|chatSampling)$|[A-Za-z]+/core/)',
              allowTypeImports: true,
              message: 'A `core/` module uses only values of `core/`, `src/api`, `src/common` and `src/config/schema`.',
            },
          ],
        },
      ],
    },
  },
  {
    // The chat page runs in the browser: it imports no extension-host code, only the panel's protocol and model types.
    files: ['src/webview/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...noNodeFs],
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(?!chatPanel/core/(protocol|model)$|video/core/galleryProtocol$)',
              message: 'Webview code imports no extension-host code: only `chatPanel/core/protocol`, `chatPanel/core/model` and `video/core/galleryProtocol`.',
            },
            { regex: '^\\.\\./\\.\\./video/core/galleryProtocol$', allowTypeImports: true, message: 'Only the types of the gallery protocol reach the page.' },
            { regex: '^\\.\\./\\.\\./chatPanel/core/model$', allowTypeImports: true, message: 'Only the types of the chat model reach the page.' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
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
