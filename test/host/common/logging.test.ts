import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LogSink } from '../../../src/common/logger';
import { disconnectService, useLocalService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';
import { setSetting, stubInputBox, testApi } from '../support/extension';

const GOOD_KEY = 'sk-never-logged-good-4d7a1c9e';
// Not shaped like `sk-…`: only the registration of known secrets can catch it.
const BAD_KEY = 'plain-secret-never-logged-88e2f0';

function memorySink(lines: string[]): LogSink {
  const push = (message: string) => void lines.push(message);
  return { trace: push, debug: push, info: push, warn: push, error: push };
}

describe('shell: the key never reaches the logs', () => {
  // The test points Promptreel at the service itself, with a key of its own.
  after(() => disconnectService());
  const ctx = useLocalService();
  beforeEach(() => ctx.service.addKey(GOOD_KEY));

  it('redacts keys from every log line, at every level, in the sink and in the output channel file', async () => {
    const { logger, file } = (await testApi()).log;
    const lines: string[] = [];
    const sink = logger.addSink(memorySink(lines));
    try {
      await setSetting('baseUrl', ctx.service.baseUrl);
      for (const key of [BAD_KEY, GOOD_KEY]) {
        const stub = stubInputBox([key]);
        try {
          await vscode.commands.executeCommand('promptreel.setApiKey');
        } finally {
          stub.restore();
        }
        await vscode.commands.executeCommand('promptreel.testConnection');
      }
      const log = logger.forComponent('test');
      const marker = `redaction-marker-${Date.now()}`;
      log.info(`${marker} good=${GOOD_KEY} bad=${BAD_KEY}`);
      log.debug('Authorization: Bearer some.bearer.token-value');
      log.trace('{"api_key":"sk-shaped-like-a-key-123456"}');

      assert.ok(
        lines.some((line) => line.includes('[doctor]')),
        'the doctor logged through the sink',
      );
      const all = lines.join('\n');
      for (const secret of [GOOD_KEY, BAD_KEY, 'some.bearer.token-value', 'sk-shaped-like-a-key-123456']) {
        assert.ok(!all.includes(secret), `"${secret}" was logged`);
      }
      assert.ok(all.includes(`${marker} good=*** bad=***`), 'the marker line is there, redacted');
      assert.ok(all.includes('Bearer ***'));

      const text = await waitFor(
        async () => {
          const content = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
          return content.includes(marker) ? content : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 250, what: `the marker in ${file.fsPath}` },
      );
      assert.ok(text.includes('[doctor]'));
      for (const secret of [GOOD_KEY, BAD_KEY]) assert.ok(!text.includes(secret), `"${secret}" is in the output channel's file`);
    } finally {
      sink.dispose();
    }
  });
});
