import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini loads no locale, so every issue would read "Invalid input". The messages are shown and logged (e.g.
// "Invalid chat request — temperature: Too big: expected number to be <=2"), so a locale is loaded: English, and
// Simplified Chinese for a VS Code in that language (its own file, loaded only there); named imports keep the other
// ≈ 40 locales out of the bundle (classic zod's `import { z } from 'zod'` loads all of them). Imported for its effect
// by ./client.ts, which the extension and every use of the API layer load; importing it again is harmless.
config(en());

/**
 * zod's issue messages in VS Code's display language where Promptreel is translated into it, else English (at once:
 * English stays until the Chinese messages have loaded, and if they cannot load).
 */
export async function useZodLocale(language: string): Promise<void> {
  config(en());
  if (language.toLowerCase() !== 'zh-cn') return;
  try {
    const { default: zhCN } = await import('zod/v4/locales/zh-CN.js');
    config(zhCN());
  } catch {
    // English messages stay: a message in English is still a message.
  }
}
