import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { paths } from './support/harness';
import { activityBarItem } from './support/views';
import { useWorkbench } from './support/workbench';

const manifestSchema = z.object({
  displayName: z.string(),
  contributes: z.object({ viewsContainers: z.object({ activitybar: z.array(z.object({ title: z.string() })).optional() }).optional() }).optional(),
});

const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(paths.ROOT, 'package.json'), 'utf8')));
/** The English text of the manifest's `%key%` strings, as the workbench shows them. */
const english = z.record(z.string(), z.string()).parse(JSON.parse(fs.readFileSync(path.join(paths.ROOT, 'package.nls.json'), 'utf8')));
const shown = (value: string): string => value.replace(/^%(.+)%$/, (whole, key: string) => english[key] ?? whole);
const hasPromptreelContainer = (manifest.contributes?.viewsContainers?.activitybar ?? []).some((c) => shown(c.title) === 'Promptreel');

describe('workbench smoke', () => {
  const context = useWorkbench({ name: 'smoke' });

  it('loads the workbench with the packaged extension installed', async () => {
    const { page } = context.workbench;
    if (hasPromptreelContainer) {
      await activityBarItem(page, 'Promptreel').waitFor({ state: 'visible', timeout: 30_000 });
    } else {
      // No view container contributed yet: the Extensions view lists the installed VSIX instead.
      await context.workbench.runCommand('Extensions: Show Installed Extensions');
      await page
        .locator('.extensions-viewlet .monaco-list-row', { hasText: shown(manifest.displayName) })
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
    }
    const file = await context.workbench.screenshot('workbench');
    assert.ok(fs.statSync(file).size > 0, `${file} is empty`);
  });
});
