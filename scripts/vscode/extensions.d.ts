export declare function installVsixInto(vsix: string, extensionsDir: string, options?: { logFile?: string }): Promise<string>;
