import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DoctorResult } from '../../../src/doctor/core/doctorResult';
import { startLocalService, tlsFixture, TLS_FIXTURE_PASSPHRASE, type LocalService } from '../../service';
import { disconnectService } from '../support/connectedService';
import { setSetting, stubInputBox, testApi } from '../support/extension';

function testConnection(): Thenable<DoctorResult> {
  return vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
}

async function pointAt(service: LocalService): Promise<void> {
  const api = await testApi();
  await setSetting('baseUrl', service.baseUrl);
  await api.connection.keyStore.store(service.demoKey);
}

async function setPassphrase(passphrase: string): Promise<void> {
  const stub = stubInputBox([passphrase]);
  try {
    await vscode.commands.executeCommand('promptreel.setClientCertificatePassphrase');
  } finally {
    stub.restore();
  }
}

describe('shell: certificates (an HTTPS service with its own CA, and one asking for a client certificate)', () => {
  const services: Partial<Record<'ownCa' | 'clientCertificate', LocalService>> = {};
  before(async () => {
    services.ownCa = await startLocalService({ tls: 'own-ca' });
    services.clientCertificate = await startLocalService({ tls: 'client-certificate' });
  });
  afterEach(async () => {
    await disconnectService();
    await vscode.workspace.getConfiguration('http').update('systemCertificates', undefined, vscode.ConfigurationTarget.Global);
    (await testApi()).storage.secrets.delete('promptreel.tls.clientCertificatePassphrase');
  });
  after(async () => {
    await Promise.all(Object.values(services).map((service) => service.stop()));
  });

  it('Test Connection names the certificate and the setting; trusting its CA in promptreel.tls.certificateAuthorities connects', async () => {
    const service = services.ownCa!;
    await pointAt(service);
    const refused = await testConnection();
    assert.equal(refused.ok, false);
    assert.match(
      refused.message,
      /^The certificate of 127\.0\.0\.1:\d+ is not accepted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): it was issued to "127\.0\.0\.1 \(Promptreel Tests\)" by "Promptreel Test Root CA \(Promptreel Tests\)"/,
    );
    assert.match(refused.message, /promptreel\.tls\.certificateAuthorities/);
    assert.deepEqual(refused.actions, ['openSettings', 'showLogs']);

    await setSetting('tls.certificateAuthorities', [tlsFixture('ca.pem')]);
    const connected = await testConnection();
    assert.equal(connected.ok, true, connected.message);
  });

  it('a client certificate (PKCS#12) with its passphrase from secret storage reaches a service that asks for one', async () => {
    const service = services.clientCertificate!;
    await pointAt(service);
    await setSetting('tls.certificateAuthorities', [tlsFixture('ca.pem')]);
    const asked = await testConnection();
    assert.equal(asked.ok, false);
    assert.match(asked.message, /asks for a client certificate .*promptreel\.tls\.clientCertificate/);

    await setSetting('tls.clientCertificate', tlsFixture('client.p12'));
    const locked = await testConnection();
    assert.equal(locked.ok, false);
    assert.match(locked.message, /certificates of promptreel\.tls cannot be used: .*mac verify failure.*Set Client Certificate Passphrase/);

    await setPassphrase(TLS_FIXTURE_PASSPHRASE);
    const connected = await testConnection();
    assert.equal(connected.ok, true, connected.message);
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('promptreel')).includes(TLS_FIXTURE_PASSPHRASE), 'the passphrase is not in the settings');
  });

  it('a PEM certificate with an encrypted key, and a file that cannot be read is named', async () => {
    const service = services.clientCertificate!;
    await pointAt(service);
    await setSetting('tls.certificateAuthorities', [tlsFixture('ca.pem')]);
    await setSetting('tls.clientCertificate', tlsFixture('client.pem'));
    await setSetting('tls.clientKey', `${tlsFixture('client-encrypted.key')}.missing`);
    const missing = await testConnection();
    assert.equal(missing.ok, false);
    assert.match(missing.message, /The file of promptreel\.tls\.clientKey cannot be read: .*client-encrypted\.key\.missing \(FileNotFound\)/);

    await setSetting('tls.clientKey', tlsFixture('client-encrypted.key'));
    await setPassphrase(TLS_FIXTURE_PASSPHRASE);
    const connected = await testConnection();
    assert.equal(connected.ok, true, connected.message);
  });

  it('honours http.systemCertificates: the system store is added only while it is on', async () => {
    const api = await testApi();
    await vscode.workspace.getConfiguration('http').update('systemCertificates', false, vscode.ConfigurationTarget.Global);
    assert.equal((await api.connection.clients.tlsConfig()).systemCa, undefined);
    await vscode.workspace.getConfiguration('http').update('systemCertificates', true, vscode.ConfigurationTarget.Global);
    assert.ok(Array.isArray((await api.connection.clients.tlsConfig()).systemCa));
  });
});
