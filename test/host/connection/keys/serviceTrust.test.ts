import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { normalizeBaseUrl } from '../../../../src/api';
import { API_KEY_ENV } from '../../../../src/connection/keys/apiKeyStore';
import { CONFIRMED_ORIGINS_KEY } from '../../../../src/connection/keys/core/serviceTrust';
import type { DoctorResult } from '../../../../src/doctor/core/doctorResult';
import { useConnectedService, useLocalService } from '../../support/connectedService';
import { waitFor } from '../../support/waitFor';
import { connectVideo, VIDEO, recordMessages, runtime } from '../../video/videoTestSupport';
import { packageJson } from '../../support/extension';

async function setWorkspaceBaseUrl(value: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('promptreel').update('baseUrl', value, vscode.ConfigurationTarget.Workspace);
}

describe('the API key goes only to a service the user chose', () => {
  const ctx = useConnectedService(VIDEO);
  const second = useLocalService();

  afterEach(async () => {
    delete process.env[API_KEY_ENV];
    await setWorkspaceBaseUrl(undefined);
    const api = await connectVideo(ctx.service);
    await api.storage.global.update(CONFIRMED_ORIGINS_KEY, undefined);
  });

  it('issue 11.2: a base URL only the workspace settings name gets no key in the background, and one after the user confirms it once', async () => {
    const api = await connectVideo(ctx.service);
    const foreign = normalizeBaseUrl(second.service.baseUrl);
    process.env[API_KEY_ENV] = second.service.demoKey;
    const task = second.service.createTask();
    const now = Date.now();
    await runtime(api).store.add({
      id: task.id,
      service: foreign,
      state: 'running',
      rawStatus: 'in_progress',
      createdAt: now,
      updatedAt: now,
      nextPollAt: now,
    });

    // A cloned repository's .vscode/settings.json names another host.
    await setWorkspaceBaseUrl(second.service.baseUrl);
    await waitFor(() => api.connection.keyStore.scope === foreign, { what: 'the workspace base URL to take effect' });
    assert.equal(await api.connection.keyStore.get(), undefined, 'no key is handed out for it');
    assert.deepEqual(await api.connection.keyStore.awaitingConfirmation(), { scope: foreign, source: 'environment' });

    // Background work: the model list and the poller run, and send no key.
    await api.languageModels.catalog.chatModels().catch(() => undefined);
    await runtime(api).poller.pollNow();
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the point: no key during it
    assert.deepEqual(
      second.service.requests.filter((request) => request.key !== undefined).map((request) => request.path),
      [],
      'no key reached the other host',
    );

    // A command the user runs asks once; declined, nothing is sent.
    let messages = recordMessages();
    try {
      await vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
    } finally {
      messages.restore();
    }
    const asked = messages.shown.find((shown) => shown.items.includes('Use This Service'));
    assert.ok(asked, JSON.stringify(messages.shown));
    assert.match(asked.message, new RegExp(`set the Promptreel service to ${new URL(foreign).origin.replace(/[.]/g, '\\.')}`));
    assert.match(asked.message, /PROMPTREEL_API_KEY/);
    assert.equal(second.service.requests.filter((request) => request.key !== undefined).length, 0, 'declined: still no key sent');

    // Confirmed: the key goes there, and the answer is remembered for the origin.
    messages = recordMessages(({ items }) => (items.includes('Use This Service') ? 'Use This Service' : undefined));
    try {
      await vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
    } finally {
      messages.restore();
    }
    assert.ok(
      second.service.requests.some((request) => request.key === second.service.demoKey),
      'the confirmed service got the key',
    );
    assert.deepEqual(api.storage.global.get(CONFIRMED_ORIGINS_KEY), [new URL(foreign).origin]);
    assert.equal((await api.connection.keyStore.get())?.source, 'environment');

    messages = recordMessages();
    try {
      await vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
    } finally {
      messages.restore();
    }
    assert.ok(!messages.shown.some((shown) => shown.items.includes('Use This Service')), 'asked only once');
  });

  it('issue 11.2: Restricted Mode is supported with the connection settings restricted, and virtual workspaces too', () => {
    const capabilities = packageJson().capabilities as {
      untrustedWorkspaces?: { supported?: unknown; restrictedConfigurations?: string[] };
      virtualWorkspaces?: { supported?: unknown };
    };
    assert.equal(capabilities.untrustedWorkspaces?.supported, 'limited');
    assert.ok(capabilities.untrustedWorkspaces?.restrictedConfigurations?.includes('promptreel.baseUrl'));
    assert.ok(capabilities.untrustedWorkspaces?.restrictedConfigurations?.includes('promptreel.video.downloadFolder'));
    assert.ok(capabilities.virtualWorkspaces?.supported === 'limited' || capabilities.virtualWorkspaces?.supported === true);
  });
});
