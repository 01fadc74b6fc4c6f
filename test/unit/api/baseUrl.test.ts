import * as assert from 'node:assert/strict';
import { apiUrl, describeBaseUrlInput, normalizeBaseUrl } from '../../../src/api/baseUrl';
import { ApiError } from '../../../src/api/errors';

describe('base URL normalisation', () => {
  for (const input of ['https://host', 'https://host/', 'https://host/v1', 'https://host/v1/', '  https://host/v1//  ', 'https://host/v1/v1']) {
    it(`"${input}" means https://host`, () => {
      assert.equal(normalizeBaseUrl(input), 'https://host');
      assert.equal(apiUrl(normalizeBaseUrl(input), 'models'), 'https://host/v1/models');
    });
  }

  it('keeps a path prefix and the port', () => {
    assert.equal(normalizeBaseUrl('http://127.0.0.1:8080/api/v1/'), 'http://127.0.0.1:8080/api');
    assert.equal(apiUrl('http://127.0.0.1:8080/api', '/videos/abc'), 'http://127.0.0.1:8080/api/v1/videos/abc');
  });

  it('never sends a doubled /v1', () => {
    assert.ok(!apiUrl(normalizeBaseUrl('https://host/v1/v1/'), 'chat/completions').includes('/v1/v1'));
  });

  it('refuses what is not an http(s) URL, with a hint', () => {
    assert.throws(
      () => normalizeBaseUrl('host.example'),
      (e: unknown) => e instanceof ApiError && e.kind === 'invalid-request' && /base URL|https/.test(e.hint),
    );
    assert.throws(() => normalizeBaseUrl('ftp://host'), ApiError);
  });

  it('tells the doctor about a doubled /v1', () => {
    assert.deepEqual(describeBaseUrlInput('https://host/v1/v1').notes.length, 1);
    assert.deepEqual(describeBaseUrlInput('https://host/v1').notes, []);
  });
});
