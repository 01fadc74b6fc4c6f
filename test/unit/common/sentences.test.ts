import * as assert from 'node:assert/strict';
import { joinSentences } from '../../../src/common/sentences';

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
});
