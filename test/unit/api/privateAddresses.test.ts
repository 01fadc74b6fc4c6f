import * as assert from 'node:assert/strict';
import type { LookupFunction } from 'node:net';
import { isPublicAddress, PrivateAddressError, PrivateAddressPolicy } from '../../../src/api/privateAddresses';

describe('private addresses: where another host than the service may be connected to', () => {
  it('tells the addresses of a private network, this machine and the link from public ones', () => {
    const notPublic = [
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '127.255.0.9',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:169.254.169.254',
      '::ffff:7f00:1',
      '64:ff9b::a9fe:a9fe',
      'not an address',
    ];
    const publicOnes = ['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];
    assert.deepEqual(
      notPublic.filter((address) => isPublicAddress(address)),
      [],
    );
    assert.deepEqual(
      publicOnes.filter((address) => !isPublicAddress(address)),
      [],
    );
  });

  const lookupOf =
    (answers: Record<string, string[]>, asked: string[] = []): LookupFunction =>
    (hostname, options, callback) => {
      asked.push(hostname);
      const addresses = answers[hostname];
      if (!addresses) callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), options.all ? [] : '', 0);
      else if (options.all)
        callback(
          null,
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
      else callback(null, addresses[0], addresses[0].includes(':') ? 6 : 4);
    };
  const resolve = (policy: PrivateAddressPolicy, hostname: string) =>
    new Promise<string>((done, fail) => policy.lookup(hostname, {}, (error, address) => (error ? fail(error) : done(String(address)))));

  it('refuses a name with any private address among its answers, and says which', async () => {
    const policy = new PrivateAddressPolicy('https://api.example.com', {
      lookup: lookupOf({ 'api.example.com': ['93.184.216.34'], 'cdn.example.com': ['93.184.216.35'], 'mixed.example.com': ['93.184.216.36', '10.0.0.7'] }),
    });
    assert.equal(await resolve(policy, 'cdn.example.com'), '93.184.216.35');
    await assert.rejects(resolve(policy, 'mixed.example.com'), (error: unknown) => error instanceof PrivateAddressError && error.address === '10.0.0.7');
    await assert.rejects(policy.checkHost('localhost'), PrivateAddressError);
    await assert.rejects(policy.checkHost('[::1]'), PrivateAddressError);
    await policy.checkHost('cdn.example.com');
  });

  it('lets everything through when the service itself is private: by its address, its name, or what its name resolves to', async () => {
    for (const service of ['http://10.0.0.2:3000', 'http://localhost:8080', 'https://gateway.corp.example']) {
      const policy = new PrivateAddressPolicy(service, { lookup: lookupOf({ 'gateway.corp.example': ['10.0.0.2'], 'files.corp.example': ['10.0.0.9'] }) });
      await policy.checkHost('169.254.169.254');
      assert.equal(await resolve(policy, 'files.corp.example'), '10.0.0.9', service);
    }
  });

  it('a service whose name cannot be resolved now is taken as public, and asked again next time', async () => {
    const answers: Record<string, string[]> = {};
    const asked: string[] = [];
    const policy = new PrivateAddressPolicy('https://gateway.corp.example', { lookup: lookupOf(answers, asked) });
    await assert.rejects(policy.checkHost('10.0.0.9'), PrivateAddressError);
    answers['gateway.corp.example'] = ['10.0.0.2'];
    await policy.checkHost('10.0.0.9');
    assert.deepEqual(asked, ['gateway.corp.example', 'gateway.corp.example']);
  });
});
