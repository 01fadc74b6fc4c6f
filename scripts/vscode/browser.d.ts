import type { Browser, LaunchOptions } from 'playwright-core';

export declare const CHROMIUM_ARGS: readonly string[];
export declare function launchOptions(): LaunchOptions;
export declare function launchBrowser(): Promise<Browser>;
