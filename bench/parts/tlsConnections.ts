import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as tls from 'node:tls';
import { Agent, request, type Dispatcher } from 'undici';
import { createDispatcher } from '../../src/api/dispatcher';
import { systemCertificates } from '../../src/api/tls/systemCertificates';
import { pemCertificates } from '../../src/api/tls/tlsConfig';
import { startLocalService, tlsFixture } from '../../test/service';
import type { ResultRow } from '../report/row';
import { median, spread } from '../report/stats';
import type { BenchContext, BenchPart } from './part';

const PART = '8 tls';

/** One GET on a connection of its own (closed after the answer), in ms. */
async function timedRequests(dispatcher: Dispatcher, url: string, key: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await request(url, { dispatcher, reset: true, headers: { authorization: `Bearer ${key}` } });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
    samples.push(performance.now() - started);
  }
  await dispatcher.close();
  return samples;
}

/**
 * An HTTPS service with its own CA, trusted with the system's roots and Node's as Promptreel does with
 * `http.systemCertificates` on: one secure context per dispatcher (ours), against passing the same `ca` list to each
 * connection (what a plain `connect: { ca }` does), and against trusting only that one CA (the handshake's floor).
 */
export const tlsConnectionsPart: BenchPart = {
  id: 'tls',
  title: 'New HTTPS connections with the system trust store',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const service = await startLocalService({ tls: 'own-ca' });
    try {
      const ownCa = pemCertificates(readFileSync(tlsFixture('ca.pem'), 'utf8'));
      const systemCa = systemCertificates();
      const url = `${service.baseUrl}/v1/models`;
      const count = context.quick ? 10 : 40;
      const trusted = [...tls.rootCertificates, ...systemCa, ...ownCa];
      // Warm-up: undici, the service and the TLS code paths.
      await timedRequests(new Agent({ connect: { ca: ownCa } }), url, service.demoKey, 3);
      const ours = await timedRequests(createDispatcher({ service: service.baseUrl, env: {}, tls: { systemCa, extraCa: ownCa } }), url, service.demoKey, count);
      const perConnection = await timedRequests(new Agent({ connect: { ca: trusted } }), url, service.demoKey, count);
      const floor = await timedRequests(new Agent({ connect: { ca: ownCa } }), url, service.demoKey, count);
      context.details.tls = { trustedRoots: trusted.length, systemRoots: systemCa.length, ours, perConnection, floor };
      context.log(`  ${trusted.length} trusted roots (${systemCa.length} from the system)`);
      const note = (values: number[]) => `${spread(values, 2)} ms; ${trusted.length} roots trusted`;
      return [
        {
          part: PART,
          figure: 'HTTPS request on a new connection: one secure context vs `ca` per connection',
          unit: 'ms',
          ours: median(ours),
          peer: median(perConnection),
          peerName: '`ca` per connection',
          ratio: median(ours) / median(perConnection),
          ratioKind: 'times',
          goal: '< 1×',
          met: median(ours) < median(perConnection),
          note: note(ours),
          samples: { ours, peer: perConnection },
        },
        {
          part: PART,
          figure: 'HTTPS request on a new connection: against trusting one CA only (the floor)',
          unit: 'ms',
          ours: median(ours),
          peer: median(floor),
          peerName: 'one CA',
          ratio: median(ours) / median(floor),
          ratioKind: 'times',
          goal: '≤ 1.5×',
          met: median(ours) <= 1.5 * median(floor),
          note: note(floor),
          samples: { ours, peer: floor },
        },
      ];
    } finally {
      await service.stop();
    }
  },
};
