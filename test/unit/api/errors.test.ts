import * as assert from 'node:assert/strict';
import { parseErrorBody, extractRequestId } from '../../../src/api/errorBodies';
import { errorFromNetwork, errorFromResponse, parseRetryAfter } from '../../../src/api/httpErrors';
import { DEFAULT_RETRY, retryDelay } from '../../../src/api/retry';

describe('error bodies', () => {
  it('reads the OpenAI shape', () => {
    const body = parseErrorBody(
      '{"error":{"message":"bad temp","type":"invalid_request_error","param":"temperature","code":"invalid_value"}}',
      'application/json',
    );
    assert.deepEqual(body, { isHtml: false, message: 'bad temp', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' });
  });

  it('reads the task-route shape', () => {
    assert.deepEqual(parseErrorBody('{"code":"task_not_exist","message":"task_not_exist","data":null}', 'application/json'), {
      isHtml: false,
      message: 'task_not_exist',
      code: 'task_not_exist',
    });
  });

  it('handles empty, HTML and plain-text bodies', () => {
    assert.deepEqual(parseErrorBody('', undefined), { isHtml: false });
    assert.deepEqual(parseErrorBody('<html><head><title>502 Bad Gateway</title></head></html>', 'text/html'), { isHtml: true, message: '502 Bad Gateway' });
    assert.deepEqual(parseErrorBody('upstream connect error', 'text/plain'), { isHtml: false, message: 'upstream connect error' });
  });

  it('extracts the request id of a localized message', () => {
    assert.equal(extractRequestId('无效的令牌 (request id: 20251122071900123456)'), '20251122071900123456');
    assert.equal(extractRequestId('plain'), undefined);
  });
});

describe('ApiError from a response', () => {
  const cases: Array<[number, RegExp, boolean]> = [
    [401, /invalid, expired, disabled or out of quota/, false],
    [403, /not use this model|balance/, false],
    [404, /base URL is probably wrong/, false],
    [429, /Rate limited/, true],
    [500, /trouble/, true],
    [503, /trouble/, true],
  ];
  for (const [status, hint, retryable] of cases) {
    it(`${status}: hint and retryable`, () => {
      const error = errorFromResponse(status, {}, '', 'Listing models');
      assert.equal(error.status, status);
      assert.match(error.hint, hint);
      assert.equal(error.retryable, retryable);
    });
  }

  it('keeps the server text, extracts the request id, reads Retry-After', () => {
    const error = errorFromResponse(
      429,
      { 'retry-after': '7' },
      '{"error":{"message":"too many (request id: abc)","type":"rate","code":"rate_limit"}}',
      'Chat',
    );
    assert.equal(error.serverMessage, 'too many (request id: abc)');
    assert.equal(error.requestId, 'abc');
    assert.equal(error.retryAfterMs, 7000);
    assert.match(error.hint, /retry after 7 s/);
  });

  it('decides on code, not on text: quota codes on 403 and model_not_found on 503', () => {
    assert.match(errorFromResponse(403, {}, '{"error":{"message":"余额不足","code":"insufficient_user_quota"}}', 'x').hint, /balance or the key's quota/);
    assert.match(errorFromResponse(503, {}, '{"error":{"message":"no channel","code":"model_not_found"}}', 'x').hint, /model is not available/);
  });

  it('names the refused parameter of a 400', () => {
    const error = errorFromResponse(400, {}, '{"error":{"message":"unsupported","param":"temperature"}}', 'x');
    assert.equal(error.param, 'temperature');
    assert.match(error.hint, /"temperature"/);
  });

  it('says when a proxy answered with HTML', () => {
    assert.match(errorFromResponse(502, { 'content-type': 'text/html' }, '<html><body>Bad gateway</body></html>', 'x').message, /HTML page/);
  });
});

describe('network errors', () => {
  it('a refused connection did not reach the server', () => {
    const error = errorFromNetwork(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'http://127.0.0.1:9/v1/videos');
    assert.equal(error.kind, 'network');
    assert.equal(error.mayHaveReachedServer, false);
  });

  it('a reset socket may have', () => {
    const error = errorFromNetwork(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), 'http://127.0.0.1:9/v1/videos');
    assert.equal(error.mayHaveReachedServer, true);
  });
});

describe('Retry-After and backoff', () => {
  it('parses seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    const now = Date.parse('2026-11-22T07:00:00Z');
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 07:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });

  it('backs off exponentially with jitter, honours Retry-After, stops after the last retry', () => {
    const error = errorFromResponse(503, {}, '', 'x');
    const low = [0, 1, 2].map((attempt) => retryDelay(attempt, DEFAULT_RETRY, error, () => 0)!);
    const high = [0, 1, 2].map((attempt) => retryDelay(attempt, DEFAULT_RETRY, error, () => 1)!);
    assert.deepEqual(low, [200, 400, 800]);
    assert.deepEqual(high, [400, 800, 1600]);
    assert.equal(retryDelay(3, DEFAULT_RETRY, error), undefined);
    assert.equal(retryDelay(0, DEFAULT_RETRY, errorFromResponse(429, { 'retry-after': '3' }, '', 'x')), 3000);
    assert.equal(retryDelay(0, DEFAULT_RETRY, errorFromResponse(429, { 'retry-after': '3600' }, '', 'x')), undefined, 'an hour is not waited for');
    assert.equal(retryDelay(0, DEFAULT_RETRY, errorFromResponse(401, {}, '', 'x')), undefined);
  });
});
