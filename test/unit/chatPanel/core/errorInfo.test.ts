import * as assert from 'node:assert/strict';
import { ApiError, type ApiErrorInit } from '../../../../src/api/errors';
import { formatMessage, setTranslator } from '../../../../src/api/l10n';
import { describeReplyFailure } from '../../../../src/chatPanel/core/errorInfo';

function apiError(init: Partial<ApiErrorInit> & Pick<ApiErrorInit, 'kind'>): ApiError {
  return new ApiError({ message: 'failed', hint: 'hint.', ...init });
}

describe('chat reply failures', () => {
  it('a stop is not an error', () => {
    assert.deepEqual(describeReplyFailure(apiError({ kind: 'aborted' })), { status: 'stopped' });
  });

  it('a 401 shows the server message and offers Set API Key', () => {
    const failure = describeReplyFailure(apiError({ kind: 'http', status: 401, code: 'invalid_api_key', serverMessage: 'Invalid token (request id: 42)' }));
    assert.equal(failure.status, 'error');
    assert.match(
      failure.error?.message ?? '',
      /^The chat request: the service refused the API key \(HTTP 401\)\. The service said: "Invalid token \(request id: 42\)"/,
    );
    assert.deepEqual(failure.error?.actions, ['setApiKey', 'showLogs']);
    assert.equal(failure.error?.status, 401);
  });

  it('an unsupported-parameter 400 names the parameter', () => {
    const failure = describeReplyFailure(apiError({ kind: 'http', status: 400, param: 'temperature', serverMessage: 'Unsupported parameter: temperature' }));
    assert.match(failure.error?.message ?? '', /refused \(HTTP 400\) because of the parameter "temperature"/);
    assert.equal(failure.error?.param, 'temperature');
    assert.deepEqual(failure.error?.actions, ['openSettings', 'selectChatModel', 'showLogs']);
  });

  it('a cut-off stream keeps its text and offers Retry', () => {
    const failure = describeReplyFailure(apiError({ kind: 'cut-off', message: 'The reply was cut off: the stream ended without [DONE].', receivedChars: 3 }));
    assert.equal(failure.status, 'cut-off');
    assert.equal(failure.error?.message, 'The reply was cut off: the stream ended without [DONE]. Retry for a complete answer. What arrived is kept.');
    assert.deepEqual(failure.error?.actions, ['retry', 'showLogs']);
  });

  it('decides on status and code, not on the text', () => {
    assert.deepEqual(describeReplyFailure(apiError({ kind: 'http', status: 503, code: 'model_not_found', serverMessage: '无可用渠道' })).error?.actions, [
      'selectChatModel',
      'showLogs',
    ]);
    assert.deepEqual(describeReplyFailure(apiError({ kind: 'http', status: 429 })).error?.actions, ['retry', 'showLogs']);
    assert.deepEqual(describeReplyFailure(apiError({ kind: 'network' })).error?.actions, ['retry', 'openSettings', 'showLogs']);
    assert.deepEqual(describeReplyFailure(apiError({ kind: 'no-key' })).error?.actions, ['setApiKey', 'openSettings']);
    assert.deepEqual(describeReplyFailure(apiError({ kind: 'stream', status: 401, serverMessage: 'quota' })).error?.actions, ['setApiKey', 'showLogs']);
  });

  it('a local validation error names the parameter', () => {
    const failure = describeReplyFailure(apiError({ kind: 'invalid-request', param: 'max_tokens', message: 'max_tokens is too high.', hint: 'Lower it.' }));
    assert.equal(failure.error?.param, 'max_tokens');
    assert.equal(failure.error?.message, 'The chat request: max_tokens is too high. Lower it.');
  });

  it("in Chinese: whole translated sentences, the API's own cut-off words kept, no space after a full-width mark", () => {
    const chinese: Record<string, string> = {
      'What arrived is kept.': '已收到的内容已保留。',
      'Retry for a complete answer.': '请重试以获取完整的回答。',
      'The chat request': '聊天请求',
      '{0}: the service refused the API key (HTTP 401).': '{0}：服务拒绝了 API 密钥（HTTP 401）。',
      'The service said: "{0}".': '服务返回：“{0}”。',
    };
    setTranslator((message, args) => formatMessage(chinese[message] ?? message, args));
    try {
      const cutOff = describeReplyFailure(apiError({ kind: 'cut-off', message: '回复被截断：连接已关闭。' }));
      assert.equal(cutOff.error?.message, '回复被截断：连接已关闭。请重试以获取完整的回答。已收到的内容已保留。');
      const refused = describeReplyFailure(apiError({ kind: 'http', status: 401, serverMessage: 'Invalid token', hint: '请设置新的 API 密钥。' }));
      assert.equal(refused.error?.message, '聊天请求：服务拒绝了 API 密钥（HTTP 401）。服务返回：“Invalid token”。请设置新的 API 密钥。');
    } finally {
      setTranslator(formatMessage);
    }
  });

  it('reports anything else as an error with Retry and Show Logs', () => {
    assert.deepEqual(describeReplyFailure(new Error('boom')), {
      status: 'error',
      error: { message: 'The chat request failed unexpectedly: boom.', actions: ['showLogs', 'retry'] },
    });
  });
});
