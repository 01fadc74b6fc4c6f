import { config } from 'zod/mini';
import { en } from 'zod/locales';

// zod/mini loads no locale, so every issue would read "Invalid input". The messages are shown and logged (e.g.
// "Invalid chat request — temperature: Too big: expected number to be <=2"), so English is loaded, and only English:
// classic zod's `import { z } from 'zod'` loads all of its locales (≈ 190 KB). Imported for its effect by
// ./client.ts, which the extension and every use of the API layer load; importing it again is harmless.
config(en());
