import type * as vscode from 'vscode';
import type * as ExtensionModule from './extension';

type Extension = typeof ExtensionModule;

/** Where esbuild.js puts the extension's ES modules; a variable, so TypeScript leaves the specifier alone. */
const EXTENSION_MODULE = './host/extension.mjs';

let extension: Extension | undefined;

/**
 * VS Code loads extensions as CommonJS; this is the door to the extension's ES modules, which load a feature's code on
 * its first use (see esbuild.js).
 */
export async function activate(context: vscode.ExtensionContext): Promise<ReturnType<Extension['activate']>> {
  extension = (await import(EXTENSION_MODULE)) as Extension;
  return extension.activate(context);
}

export function deactivate(): ReturnType<Extension['deactivate']> | undefined {
  return extension?.deactivate();
}
