import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../../..');

/** The layer rule's complaints about one import written in `file` (a path under src/ that need not exist). */
async function layerProblems(file: string, line: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(`${line}\nexport const used = x;\n`, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'promptreel/layers').map((message) => message.message);
}

/** The import rules' complaints (the layers and the restricted imports of pages and plain-Node modules). */
async function importProblems(file: string, line: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(`${line}\nexport const used = x;\n`, { filePath: path.join(ROOT, file) });
  const rules = ['promptreel/layers', '@typescript-eslint/no-restricted-imports'];
  return (result?.messages ?? []).filter((message) => rules.includes(message.ruleId ?? '')).map((message) => message.message);
}

// CONTRIBUTING.md, "Layers": a feature imports shared layers and its own folder; shared layers import only layers
// below them; every core/ folder, at any depth, uses values of plain-Node code only.
describe('the layers ESLint enforces', function () {
  this.timeout(60_000);

  it('refuses a feature importing another feature, at any depth', async () => {
    assert.match(
      (await layerProblems('src/video/x.ts', "import { x } from '../participant/answerHandler';"))[0] ?? '',
      /Features do not import each other \(video → participant\)/,
    );
    assert.match(
      (await layerProblems('src/chatPanel/mentions/core/x.ts', "import { x } from '../../../video/core/taskModel';"))[0] ?? '',
      /Features do not import each other/,
    );
    assert.deepEqual(await layerProblems('src/video/x.ts', "import { x } from '../connection/connection';"), [], 'a shared layer is fine');
  });

  it('refuses a shared layer importing a feature or a layer above it', async () => {
    assert.match((await layerProblems('src/connection/x.ts', "import { x } from '../video/videoRuntime';"))[0] ?? '', /imports no feature/);
    assert.match((await layerProblems('src/connection/x.ts', "import { x } from '../workbench/showMessage';"))[0] ?? '', /only layers below it, not workbench/);
    assert.deepEqual(await layerProblems('src/workbench/x.ts', "import { x } from '../connection/connection';"), []);
  });

  it('keeps nested core/ folders in plain Node: values only of core/ and the plain layers, types of anything', async () => {
    assert.match((await layerProblems('src/chatPanel/tools/core/x.ts', "import { x } from '../workspaceTools';"))[0] ?? '', /A core\/ module uses values only/);
    assert.deepEqual(await layerProblems('src/chatPanel/tools/core/x.ts', "import type { x } from '../workspaceTools';"), []);
    assert.deepEqual(await layerProblems('src/chatPanel/tools/core/x.ts', "import { x } from '../../../chatRequest/capabilities';"), []);
  });

  it("keeps a webview's page in the browser: its folder, the page kit, and the types of its protocol and model only", async () => {
    const page = 'src/video/gallery/page/x.ts';
    for (const line of [
      "import { x } from '../galleryHost';",
      "import { x } from '../protocol';",
      "import * as vscode from 'vscode';",
      "import { x } from '../../../connection/connection';",
    ]) {
      assert.equal((await importProblems(page, line)).length, 1, line);
    }
    for (const line of ["import type { x } from '../protocol';", "import { el } from '../../../webviewPage/dom';", "import { x } from './cardView';"]) {
      assert.deepEqual(await importProblems(page, line), [], line);
    }
    assert.deepEqual(await importProblems('src/chatPanel/webview/page/x.ts', "import type { x } from '../../core/model';"), []);
    assert.equal((await importProblems('src/chatPanel/webview/page/x.ts', "import { x } from '../../core/model';")).length, 1);
    assert.match(
      (await importProblems('src/webviewPage/x.ts', "import type { x } from '../chatPanel/webview/protocol';"))[0] ?? '',
      /page kit imports nothing/,
    );
  });

  it('refuses host code importing page code, its own page included, and keeps each protocol in plain Node', async () => {
    assert.match(
      (await importProblems('src/video/gallery/galleryHost.ts', "import { x } from './page/text';"))[0] ?? '',
      /Only a webview's page imports page code/,
    );
    assert.match((await importProblems('src/video/x.ts', "import { x } from '../webviewPage/dom';"))[0] ?? '', /Only a webview's page imports page code/);
    assert.match((await importProblems('src/video/player/protocol.ts', "import * as vscode from 'vscode';"))[0] ?? '', /plain Node/);
  });
});
