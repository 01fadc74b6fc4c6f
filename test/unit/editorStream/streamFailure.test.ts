import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { formatMessage, setTranslator } from '../../../src/api/l10n';
import { explainStreamFailure } from '../../../src/editorStream/core/streamFailure';

const http = (status: number, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ kind: 'http', status, message: `HTTP ${status}`, hint: `hint for ${status}.`, ...extra });

describe('explainStreamFailure', () => {
  it('401: the key was refused, nothing inserted, Set API Key offered', () => {
    const explanation = explainStreamFailure(http(401, { serverMessage: 'Invalid token' }), 'Complete at Cursor', 0);
    assert.match(
      explanation.message,
      /^Complete at Cursor: the service refused the API key \(HTTP 401\)\. The service said: "Invalid token"\. hint for 401\. Nothing was inserted\.$/,
    );
    assert.deepEqual(explanation.actions, ['setApiKey', 'showLogs']);
  });

  it('a cut-off stream keeps the text and offers Retry', () => {
    const error = new ApiError({ kind: 'cut-off', message: 'The reply was cut off: the connection was closed.', hint: 'h', receivedChars: 3 });
    const explanation = explainStreamFailure(error, 'Rewrite Selection', 3);
    assert.match(explanation.message, /cut off.*The 3 characters that arrived were kept\. Retry/);
    assert.deepEqual(explanation.actions, ['retry', 'showLogs']);
  });

  it('429: rate limited, with the hint (retry after) and Retry', () => {
    const explanation = explainStreamFailure(http(429, { hint: 'Rate limited: retry after 7 s.' }), 'Complete at Cursor', 0);
    assert.match(explanation.message, /rate limiting requests \(HTTP 429\)\.\s+Rate limited: retry after 7 s\./);
    assert.deepEqual(explanation.actions, ['retry', 'showLogs']);
  });

  it('network failures offer Retry and the settings', () => {
    const error = new ApiError({ kind: 'network', message: 'connect ECONNREFUSED 127.0.0.1:9', hint: 'Is the service running?' });
    const explanation = explainStreamFailure(error, 'Complete at Cursor', 0);
    assert.match(explanation.message, /could not reach the service \(connect ECONNREFUSED 127\.0\.0\.1:9\)\. Is the service running\?/);
    assert.deepEqual(explanation.actions, ['retry', 'openSettings', 'showLogs']);
  });

  it('decides on the code, not the text: model_not_found offers another model', () => {
    const explanation = explainStreamFailure(http(503, { code: 'model_not_found', serverMessage: '模型不存在' }), 'Complete at Cursor', 0);
    assert.match(explanation.message, /not available on this service\. The service said: "模型不存在"/);
    assert.deepEqual(explanation.actions, ['selectChatModel', 'showLogs']);
  });

  it('400 names the refused parameter', () => {
    const explanation = explainStreamFailure(http(400, { param: 'temperature' }), 'Rewrite Selection', 0);
    assert.match(explanation.message, /refused \(HTTP 400\) because of the parameter "temperature"/);
    assert.ok(explanation.actions.includes('openSettings'));
  });

  it('a mid-stream error quotes the service and keeps the text', () => {
    const error = new ApiError({ kind: 'stream', message: 'x', hint: 'h', serverMessage: 'upstream broke' });
    const explanation = explainStreamFailure(error, 'Complete at Cursor', 12);
    assert.match(explanation.message, /stopped the reply with an error\. The service said: "upstream broke"\. The 12 characters that arrived were kept\./);
    assert.deepEqual(explanation.actions, ['retry', 'showLogs']);
  });

  it('an unexpected error still gets a message and Show Logs', () => {
    const explanation = explainStreamFailure(new Error('boom'), 'Complete at Cursor', 0);
    assert.match(explanation.message, /failed unexpectedly: boom/);
    assert.deepEqual(explanation.actions, ['showLogs', 'retry']);
  });

  it('writes whole sentences, each separated by one space in English', () => {
    const forbidden = explainStreamFailure(http(403, { serverMessage: 'No access' }), 'Rewrite Selection', 5).message;
    assert.equal(
      forbidden,
      'Rewrite Selection was not allowed (HTTP 403). The service said: "No access". hint for 403. The 5 characters that arrived were kept.',
    );
    const cutOff = new ApiError({ kind: 'cut-off', message: 'The reply was cut off.', hint: 'h' });
    assert.equal(
      explainStreamFailure(cutOff, 'Complete at Cursor', 0).message,
      'Complete at Cursor: The reply was cut off. Nothing was inserted. Retry for a complete reply.',
    );
  });

  it('in a language with full-width punctuation, the sentences follow each other without a space', () => {
    const chinese: Record<string, string> = {
      '{0} was not allowed (HTTP {1}).': '{0}：请求未获允许（HTTP {1}）。',
      'The service said: "{0}".': '服务返回：“{0}”。',
      'Nothing was inserted.': '未插入任何内容。',
    };
    setTranslator((message, args) => formatMessage(chinese[message] ?? message, args));
    try {
      const explanation = explainStreamFailure(http(402, { serverMessage: '余额不足', hint: '请充值。' }), '重写所选内容', 0);
      assert.equal(explanation.message, '重写所选内容：请求未获允许（HTTP 402）。服务返回：“余额不足”。请充值。未插入任何内容。');
    } finally {
      setTranslator(formatMessage);
    }
  });
});
