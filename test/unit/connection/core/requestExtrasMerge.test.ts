import * as assert from 'node:assert/strict';
import { describeExtraHeaders, mergeRequestExtras } from '../../../../src/connection/core/requestExtrasMerge';

describe('request options from the settings and the secret headers', () => {
  it("puts the model's options over the service's, and the secret headers over both", () => {
    const { extras, dropped } = mergeRequestExtras(
      { headers: { 'X-Org': 'research', 'X-Route': 'us' }, queryParameters: { 'api-version': '1' }, extraBody: { top_k: 40, safe_prompt: true } },
      { headers: { 'X-Route': 'eu', Host: 'x' }, queryParameters: { 'api-version': '2' }, extraBody: { top_k: 20 } },
      { 'X-Gateway-Token': 'open-sesame', 'x-org': 'from-secret' },
    );
    assert.deepEqual(extras, {
      headers: { 'x-org': 'from-secret', 'x-route': 'eu', 'x-gateway-token': 'open-sesame' },
      query: { 'api-version': '2' },
      body: { top_k: 20, safe_prompt: true },
      secrets: ['open-sesame', 'from-secret'],
    });
    assert.deepEqual(dropped, ['Host is set by Promptreel itself']);
  });

  it('adds nothing when nothing is set', () => {
    assert.deepEqual(mergeRequestExtras({}, undefined, {}), { extras: {}, dropped: [] });
  });

  it('names the headers (never their values), marking the secret ones', () => {
    assert.deepEqual(describeExtraHeaders({ headers: { 'X-Org': 'research', 'X-Token': 'plain' } }, { 'x-token': 's', 'X-Other': 't' }), [
      'X-Org',
      'x-token (secret)',
      'X-Other (secret)',
    ]);
  });
});
