import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError } from '../../../../src/api/errors';
import { createDispatcher } from '../../../../src/api/dispatcher';
import { certificateProblemOf } from '../../../../src/api/tls/certificateProblem';
import { inspectServerCertificate } from '../../../../src/api/tls/inspectCertificate';
import { systemCertificates } from '../../../../src/api/tls/systemCertificates';
import { pemCertificates, secureContextFor, type TlsConfig } from '../../../../src/api/tls/tlsConfig';
import { ConnectionDoctor } from '../../../../src/doctor/core/connectionDoctor';
import { tlsFixture, TLS_FIXTURE_PASSPHRASE, type LocalService } from '../../../service';
import { clientFor, useLocalService } from '../../support/localService';

const text = (name: Parameters<typeof tlsFixture>[0]) => readFileSync(tlsFixture(name), 'utf8');
const OWN_CA = () => pemCertificates(text('ca.pem'));

function clientWithTls(service: LocalService, tls: TlsConfig | undefined) {
  return clientFor(service, { dispatcher: createDispatcher({ service: service.baseUrl, env: {}, ...(tls ? { tls } : {}) }), retry: { retries: 0 } });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  assert.fail('the request succeeded');
}

describe('certificates: own CAs, the system store, client certificates (real TLS on 127.0.0.1)', () => {
  describe('a service whose certificate comes from its own CA', () => {
    const ctx = useLocalService({ tls: 'own-ca' });

    it('is refused with a hint naming the setting, and reached once its CA is trusted (extra or system)', async () => {
      const refused = await failure(clientWithTls(ctx.service, undefined).listModels());
      assert.equal(refused.kind, 'network');
      assert.equal(refused.code, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      assert.match(refused.hint, /promptreel\.tls\.certificateAuthorities/);
      assert.match(refused.hint, /http\.systemCertificates/);
      assert.ok((await clientWithTls(ctx.service, { extraCa: OWN_CA() }).listModels()).length > 0);
      assert.ok((await clientWithTls(ctx.service, { systemCa: OWN_CA() }).listModels()).length > 0, 'as if the CA were in the system store');
    });

    it("shows whom the certificate was issued to and by whom, and whether this client's trust accepts it", async () => {
      const untrusted = await inspectServerCertificate(ctx.service.baseUrl);
      assert.ok(untrusted);
      assert.equal(untrusted.subject, '127.0.0.1 (Promptreel Tests)');
      assert.equal(untrusted.issuer, 'Promptreel Test Root CA (Promptreel Tests)');
      assert.equal(untrusted.trusted, false);
      assert.equal(untrusted.verifyError, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      assert.equal(untrusted.clientCertificateRequired, false);
      assert.match(untrusted.validTo, /2126/);
      const trusted = await inspectServerCertificate(ctx.service.baseUrl, { secureContext: secureContextFor({ extraCa: OWN_CA() }) });
      assert.equal(trusted?.trusted, true);
    });

    it('Test Connection explains the refusal with the certificate and the setting that fixes it', async () => {
      const result = await new ConnectionDoctor({
        baseUrlInput: () => ctx.service.baseUrl,
        apiKey: () => Promise.resolve({ key: ctx.service.demoKey, source: 'secret-storage' }),
        createClient: () => clientWithTls(ctx.service, undefined),
        chatModel: () => '',
        videoModel: () => '',
        inspectCertificate: (baseUrl) => inspectServerCertificate(baseUrl),
      }).run();
      assert.equal(result.ok, false);
      assert.match(
        result.message,
        /^The certificate of 127\.0\.0\.1:\d+ is not accepted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): it was issued to "127\.0\.0\.1 \(Promptreel Tests\)" by "Promptreel Test Root CA \(Promptreel Tests\)", valid until .+2126 GMT\. If you trust this certificate's authority .* promptreel\.tls\.certificateAuthorities/,
      );
      assert.deepEqual(result.actions, ['openSettings', 'showLogs']);
    });
  });

  describe('a service that asks for a client certificate', () => {
    const ctx = useLocalService({ tls: 'client-certificate' });

    it('refuses a client without one, and Test Connection says that a client certificate is asked for', async () => {
      await failure(clientWithTls(ctx.service, { extraCa: OWN_CA() }).listModels());
      const summary = await inspectServerCertificate(ctx.service.baseUrl, { secureContext: secureContextFor({ extraCa: OWN_CA() }) });
      assert.equal(summary?.trusted, true);
      assert.equal(summary?.clientCertificateRequired, true);
      const result = await new ConnectionDoctor({
        baseUrlInput: () => ctx.service.baseUrl,
        apiKey: () => Promise.resolve({ key: ctx.service.demoKey, source: 'secret-storage' }),
        createClient: () => clientWithTls(ctx.service, { extraCa: OWN_CA() }),
        chatModel: () => '',
        videoModel: () => '',
        inspectCertificate: (baseUrl) => inspectServerCertificate(baseUrl, { secureContext: secureContextFor({ extraCa: OWN_CA() }) }),
      }).run();
      assert.match(result.message, /^127\.0\.0\.1:\d+ asks for a client certificate .* promptreel\.tls\.clientCertificate/);
    });

    it('is reached with a PEM certificate and key, an encrypted key with its passphrase, or PKCS#12', async () => {
      const variants: TlsConfig['clientCertificate'][] = [
        { cert: text('client.pem'), key: text('client.key') },
        { cert: text('client.pem'), key: text('client-encrypted.key'), passphrase: TLS_FIXTURE_PASSPHRASE },
        { pfx: readFileSync(tlsFixture('client.p12')), passphrase: TLS_FIXTURE_PASSPHRASE },
      ];
      for (const clientCertificate of variants) {
        const models = await clientWithTls(ctx.service, { extraCa: OWN_CA(), ...(clientCertificate ? { clientCertificate } : {}) }).listModels();
        assert.ok(models.length > 0);
      }
      const summary = await inspectServerCertificate(ctx.service.baseUrl, {
        secureContext: secureContextFor({ extraCa: OWN_CA(), clientCertificate: { cert: text('client.pem'), key: text('client.key') } }),
      });
      assert.equal(summary?.clientCertificateRequired, false);
    });

    it('review 2.7: the client certificate is offered to the service only, never to the CDN or where its redirects lead', async () => {
      const folder = await mkdtemp(path.join(os.tmpdir(), 'promptreel-tls-'));
      try {
        ctx.service.setScenario({ video: { pollsToDone: 0 }, cdn: { redirects: 2 } });
        const client = clientWithTls(ctx.service, { extraCa: OWN_CA(), clientCertificate: { cert: text('client.pem'), key: text('client.key') } });
        const task = await client.getVideoTask((await client.createVideoTask({ model: 'promptreel-video', prompt: 'a signed address' })).id);
        assert.ok(task.videoUrl?.startsWith('https://127.0.0.1:'), task.videoUrl);
        const result = await client.downloadVideo(task, path.join(folder, 'clip.mp4'));
        assert.equal(result.source, 'url');
        assert.deepEqual(
          ctx.service.requests.map((request) => request.clientCertificate),
          ctx.service.requests.map(() => 'promptreel-test-client'),
          'the service got it on every connection',
        );
        assert.equal(ctx.service.cdnRequests.length, 3, 'the address and two redirects, on both of the CDN ports');
        assert.deepEqual(
          ctx.service.cdnRequests.map((request) => request.clientCertificate),
          [undefined, undefined, undefined],
          'no connection to the CDN presented it',
        );
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('a wrong passphrase is a certificate that cannot be used, said before any request', () => {
      assert.throws(
        () => secureContextFor({ clientCertificate: { cert: text('client.pem'), key: text('client-encrypted.key'), passphrase: 'wrong' } }),
        (error: NodeJS.ErrnoException) => certificateProblemOf(error.code) === 'client-certificate-unusable',
      );
      assert.throws(() => secureContextFor({ clientCertificate: { pfx: readFileSync(tlsFixture('client.p12')), passphrase: 'wrong' } }), /mac verify failure/);
    });
  });

  describe('the system store', () => {
    it("is Node's own reading where the runtime has it", () => {
      assert.deepEqual(systemCertificates({ getCaCertificates: () => ['PEM-A', 'PEM-B'] }), ['PEM-A', 'PEM-B']);
    });

    it('falls back to the Linux bundle files, skipping those that are missing', () => {
      const bundle = `${text('ca.pem')}\n${text('client-ca.pem')}`;
      const read: string[] = [];
      const found = systemCertificates({
        readFile: (path) => {
          read.push(path);
          if (path !== '/etc/pki/tls/certs/ca-bundle.crt') throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
          return bundle;
        },
      });
      assert.equal(found.length, 2);
      assert.deepEqual(read, ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt']);
    });

    it('adds nothing when there is nothing beyond the defaults', () => {
      assert.equal(secureContextFor({}), undefined);
      assert.equal(secureContextFor({ systemCa: [], extraCa: [] }), undefined);
    });
  });
});
