import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { formatMessage, setTranslator } from '../../../src/api/l10n';
import { validateChatRequest } from '../../../src/api/chat/request';
import { useZodLocale } from '../../../src/api/zodLocale';
import { clientFor, useLocalService } from '../support/localService';

/** A translator that marks every message it translates, so a test sees which texts went through `t()`. */
function markTranslated(): void {
  setTranslator((message, args) => `«${formatMessage(message, args)}»`);
}

describe('localization: the API layer', () => {
  const ctx = useLocalService();
  afterEach(() => setTranslator(formatMessage));

  it("an HTTP failure's message and hint are in the user's language, the request's name included", async () => {
    markTranslated();
    const error = await clientFor(ctx.service, { apiKey: () => 'sk-wrong' })
      .listModels()
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    assert.ok(error instanceof ApiError);
    assert.match(error.message, /^««Listing models» failed with HTTP 401: .+»$/);
    assert.equal(error.hint, '«The API key is invalid, expired, disabled or out of quota: set a new key.»');
    // What the server said stays as it said it.
    assert.ok(error.serverMessage && !error.serverMessage.includes('«'));
  });

  it('without a translator (English, and every unit test) the texts are exactly the English ones', async () => {
    const error = await clientFor(ctx.service, { apiKey: () => undefined })
      .listModels()
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    assert.ok(error instanceof ApiError);
    assert.equal(error.message, 'No API key is set.');
    assert.equal(error.hint, 'Set your API key first.');
  });
});

describe("localization: zod's issue messages", () => {
  afterEach(() => useZodLocale('en'));

  function refusedTemperature(): string {
    try {
      validateChatRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 3 });
    } catch (error) {
      assert.ok(error instanceof ApiError);
      return error.message;
    }
    assert.fail('a temperature of 3 is refused');
  }

  it('are in Simplified Chinese for a VS Code in zh-cn, and English otherwise', async () => {
    assert.match(refusedTemperature(), /temperature: Too big: expected number to be <=2/);
    await useZodLocale('zh-cn');
    const chinese = refusedTemperature();
    assert.match(chinese, /temperature: .*[\u4e00-\u9fff]/, chinese);
    assert.doesNotMatch(chinese, /Too big/);
    await useZodLocale('de');
    assert.match(refusedTemperature(), /Too big: expected number to be <=2/, 'a language Promptreel has no translation for stays English');
  });
});
