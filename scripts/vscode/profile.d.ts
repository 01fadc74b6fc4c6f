export interface Profile {
  dir: string;
  userDataDir: string;
  extensionsDir: string;
  configFile: string;
}

export declare const BASE_SETTINGS: Readonly<Record<string, unknown>>;
export declare const SAMPLE_FILES: Readonly<Record<string, string>>;
export declare function writeProfile(dir: string, options?: { settings?: Record<string, unknown>; fresh?: boolean }): Profile;
export declare function addLanguagePack(profile: Profile, locale: string): void;
export declare function writeWorkspace(dir: string, files?: Record<string, string>, options?: { fresh?: boolean }): string;
