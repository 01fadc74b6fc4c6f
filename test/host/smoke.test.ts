import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useLocalService } from './support/connectedService';

const EXTENSION_ID = 'promptreel.promptreel';

describe('extension host smoke', () => {
  it('runs inside a real VS Code', () => {
    console.log(`    VS Code ${vscode.version}, ${vscode.env.appName}, ui kind ${vscode.UIKind[vscode.env.uiKind]}`);
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
  });

  it(`has the extension ${EXTENSION_ID} and activates it`, async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('opened the sample workspace', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1, 'one workspace folder');
  });
});

describe('local service from the extension host', () => {
  const ctx = useLocalService();

  it('answers /v1/models with the demo key', async () => {
    const response = await fetch(`${ctx.service.baseUrl}/v1/models`, { headers: { Authorization: `Bearer ${ctx.service.demoKey}` } });
    assert.equal(response.status, 200);
  });
});
