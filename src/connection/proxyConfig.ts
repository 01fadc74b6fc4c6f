import * as vscode from 'vscode';
import type { DispatcherOptions } from '../api/dispatcher';

/** The `http.*` settings that change how the client connects. */
export const PROXY_SETTINGS = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy'] as const;

/** Dispatcher options from VS Code's proxy settings; the environment (HTTPS_PROXY, NO_PROXY…) applies when `http.proxy` is empty. */
export function readProxyConfig(env: NodeJS.ProcessEnv = process.env): Omit<DispatcherOptions, 'service'> {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<unknown>('proxy');
  const strictSSL = http.get<unknown>('proxyStrictSSL');
  const noProxy = http.get<unknown>('noProxy');
  return {
    proxyUrl: typeof proxy === 'string' && proxy.trim() ? proxy.trim() : undefined,
    strictSSL: typeof strictSSL === 'boolean' ? strictSSL : true,
    noProxy: Array.isArray(noProxy) ? noProxy.filter((host): host is string => typeof host === 'string' && host.trim() !== '').join(',') : undefined,
    env,
  };
}
