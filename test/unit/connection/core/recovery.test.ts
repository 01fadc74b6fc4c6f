import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/api/errors';
import { formatMessage, setTranslator } from '../../../../src/api/l10n';
import { recoveryFor, recoveryForMissing } from '../../../../src/connection/core/recovery';

const http = (status: number, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ kind: 'http', status, message: `HTTP ${status}`, hint: `hint for ${status}.`, ...extra });
const chat = { what: 'Complete at Cursor', request: 'chat' } as const;
const video = { what: 'Creating the video', request: 'video' } as const;

// One mapping from a failure to what every surface says and offers (the chat panel, the editor, @promptreel,
// Test Connection, VS Code's model provider, video creation).
describe('connection: what a failure lets the user do (recoveryFor)', () => {
  it('401: the key was refused, with what the service said and the hint; Set API Key', () => {
    const recovery = recoveryFor(http(401, { serverMessage: 'Invalid token' }), chat);
    assert.equal(recovery.message, 'Complete at Cursor: the service refused the API key (HTTP 401). The service said: "Invalid token". hint for 401.');
    assert.deepEqual(recovery.actions, ['setApiKey', 'showLogs']);
  });

  it('a refused model points at the model of the request: Select Chat Model, or the video model setting', () => {
    const notFound = http(503, { code: 'model_not_found', serverMessage: '模型不存在' });
    assert.deepEqual(recoveryFor(notFound, chat).actions, ['selectChatModel', 'showLogs']);
    assert.match(recoveryFor(notFound, chat).message, /not available on this service\. The service said: "模型不存在"\. Pick another model\./);
    const forVideo = recoveryFor(http(403), video);
    assert.deepEqual(forVideo.actions, ['chooseVideoModel', 'setApiKey', 'showLogs']);
    assert.equal(forVideo.setting, 'promptreel.video.model');
  });

  it('decides on kind, status and code: 400 names the parameter, 404 the address, 429 waits, 5xx retries', () => {
    assert.match(recoveryFor(http(400, { param: 'temperature' }), chat).message, /refused \(HTTP 400\) because of the parameter "temperature"/);
    assert.deepEqual(recoveryFor(http(400), chat).actions, ['openSettings', 'selectChatModel', 'showLogs']);
    assert.deepEqual(recoveryFor(http(404), chat).actions, ['openSettings', 'testConnection', 'showLogs']);
    assert.match(
      recoveryFor(http(429, { hint: 'Rate limited: retry after 7 s.' }), chat).message,
      /rate limiting requests \(HTTP 429\)\. Rate limited: retry after 7 s\./,
    );
    assert.deepEqual(recoveryFor(http(502), chat).actions, ['retry', 'showLogs']);
  });

  it('network failures, cut-off and mid-stream errors offer Retry; cancelling offers it too', () => {
    const network = recoveryFor(new ApiError({ kind: 'network', message: 'connect ECONNREFUSED 127.0.0.1:9', hint: 'Is the service running?' }), chat);
    assert.equal(network.message, 'Complete at Cursor: connect ECONNREFUSED 127.0.0.1:9. Is the service running?');
    assert.deepEqual(network.actions, ['retry', 'openSettings', 'showLogs']);
    const cutOff = recoveryFor(new ApiError({ kind: 'cut-off', message: 'The reply was cut off.', hint: 'h' }), chat);
    assert.equal(cutOff.message, 'The reply was cut off. Retry for a complete answer.');
    const stream = recoveryFor(new ApiError({ kind: 'stream', message: 'x', hint: 'h.', serverMessage: 'upstream broke', status: 401 }), chat);
    assert.match(stream.message, /stopped with an error\. The service said: "upstream broke"\./);
    assert.deepEqual(stream.actions, ['setApiKey', 'showLogs']);
    assert.deepEqual(recoveryFor(new ApiError({ kind: 'aborted', message: 'a', hint: 'h' }), chat).actions, ['retry']);
  });

  it('a video create whose answer may have reached the service offers Track by ID, never Retry', () => {
    const lost = recoveryFor(new ApiError({ kind: 'network', message: 'socket hang up', hint: 'h', mayHaveReachedServer: true }), video);
    assert.deepEqual(lost.actions, ['trackVideoTask', 'showLogs']);
    assert.match(lost.message, /may exist on the service, and may be charged/);
    assert.deepEqual(recoveryFor(new ApiError({ kind: 'network', message: 'ECONNREFUSED', hint: 'h', mayHaveReachedServer: false }), video).actions, [
      'retry',
      'openSettings',
      'showLogs',
    ]);
  });

  it('an unexpected error still gets a message and Show Logs', () => {
    const recovery = recoveryFor(new Error('boom'), chat);
    assert.equal(recovery.message, 'Complete at Cursor failed unexpectedly: boom.');
    assert.deepEqual(recovery.actions, ['showLogs', 'retry']);
  });

  it('says what is missing before anything can be sent, with the way out', () => {
    assert.deepEqual(recoveryForMissing({ missing: 'address' }, 'The chat').actions, ['setApiKey', 'openSettings']);
    const unconfirmed = recoveryForMissing({ missing: 'unconfirmed', origin: 'https://other.example' }, 'The chat');
    assert.match(unconfirmed.message, /this folder's settings set the Promptreel service to https:\/\/other\.example, which you have not confirmed yet/);
    assert.deepEqual(unconfirmed.actions, ['useThisService', 'openSettings']);
    assert.deepEqual(recoveryForMissing({ missing: 'key', service: 'https://s.example' }, 'The chat'), {
      message: 'The chat needs an API key for https://s.example.',
      actions: ['setApiKey'],
    });
  });

  it('in a language with full-width punctuation, the sentences follow each other without a space', () => {
    const chinese: Record<string, string> = {
      '{0} was not allowed (HTTP {1}).': '{0}：请求未获允许（HTTP {1}）。',
      'The service said: "{0}".': '服务返回：“{0}”。',
    };
    setTranslator((message, args) => formatMessage(chinese[message] ?? message, args));
    try {
      const recovery = recoveryFor(http(402, { serverMessage: '余额不足', hint: '请充值。' }), { what: '重写所选内容', request: 'chat' });
      assert.equal(recovery.message, '重写所选内容：请求未获允许（HTTP 402）。服务返回：“余额不足”。请充值。');
    } finally {
      setTranslator(formatMessage);
    }
  });
});
