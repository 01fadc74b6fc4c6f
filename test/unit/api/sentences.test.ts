import * as assert from 'node:assert/strict';
import { joinSentences } from '../../../src/api/sentences';

describe('joinSentences', () => {
  it('puts one space between English sentences and leaves out empty ones', () => {
    assert.equal(joinSentences('It failed.', '', undefined, 'Retry.', 'Nothing was inserted.'), 'It failed. Retry. Nothing was inserted.');
  });

  it('puts no space after full-width punctuation, and a space after anything else', () => {
    assert.equal(joinSentences('请求失败。', '请重试。'), '请求失败。请重试。');
    assert.equal(joinSentences('服务返回：“x”', 'Retry.'), '服务返回：“x”Retry.');
    assert.equal(joinSentences('请求失败', 'Retry.'), '请求失败 Retry.');
  });

  it('gives an empty text for no sentences', () => {
    assert.equal(joinSentences(), '');
    assert.equal(joinSentences('', undefined), '');
  });

  it('separates English sentences with one space and leaves out empty ones', () => {
    assert.equal(joinSentences(['Connected.', undefined, '', 'Key quota: $3.20 left.']), 'Connected. Key quota: $3.20 left.');
    assert.equal(joinSentences([]), '');
  });

  it('puts no space next to full-width punctuation, as Chinese is written', () => {
    assert.equal(joinSentences(['已连接。', '密钥额度：剩余 $3.20。']), '已连接。密钥额度：剩余 $3.20。');
    assert.equal(
      joinSentences(['列出模型失败。', '（promptreel-chat 不在此密钥可用的模型中。）']),
      '列出模型失败。（promptreel-chat 不在此密钥可用的模型中。）',
    );
    // A sentence of the server's in English after a Chinese one keeps no space either; English after English does.
    assert.equal(joinSentences(['服务拒绝了 API 密钥。', 'The service said: "no".', 'Retry.']), '服务拒绝了 API 密钥。The service said: "no". Retry.');
  });
});
