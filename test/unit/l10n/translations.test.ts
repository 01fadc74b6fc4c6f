import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatMessage, setTranslator, t } from '../../../src/api/l10n';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface L10nScript {
  collectMessages(root?: string): { messages: Map<string, string[]>; problems: string[] };
  checkTranslations(collected: { messages: Map<string, string[]>; problems: string[] }): string[];
  LANGUAGES: string[];
}
const script = require(path.join(ROOT, 'scripts', 'l10n.js')) as L10nScript;

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
}

/** Every `%key%` that package.json names (titles, descriptions, enum descriptions of settings…). */
function manifestKeys(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    const match = /^%(.+)%$/.exec(value);
    if (match) found.add(match[1]!);
  } else if (Array.isArray(value)) value.forEach((item) => manifestKeys(item, found));
  else if (typeof value === 'object' && value !== null) Object.values(value).forEach((item) => manifestKeys(item, found));
  return found;
}

describe('localization: every message has its translation', () => {
  it('every t() message of src/ is in l10n/bundle.l10n.json and translated into each language, placeholders kept', () => {
    const collected = script.collectMessages();
    assert.deepEqual(script.checkTranslations(collected), [], 'run `npm run l10n`, then translate what is listed');
  });

  it("every %key% of package.json is in package.nls.json, and each language's file translates every key", () => {
    const keys = manifestKeys(readJson('package.json'));
    const english = readJson('package.nls.json');
    assert.deepEqual(
      [...keys].filter((key) => typeof english[key] !== 'string'),
      [],
      'keys package.json names without English text',
    );
    for (const language of script.LANGUAGES) {
      const translated = readJson(`package.nls.${language}.json`);
      const missing = Object.keys(english).filter((key) => typeof translated[key] !== 'string' || !String(translated[key]).trim());
      assert.deepEqual(missing, [], `package.nls.${language}.json lacks these`);
      assert.deepEqual(
        Object.keys(translated).filter((key) => !(key in english)),
        [],
        `package.nls.${language}.json translates keys that no longer exist`,
      );
    }
  });

  it('the check fails for a message without its translation, and for placeholders that differ', () => {
    const messages = new Map([['A message nobody translated {0}', ['src/example.ts:1']]]);
    const problems = script.checkTranslations({ messages, problems: [] });
    assert.ok(
      problems.some((problem) => problem.includes('zh-cn: no translation of "A message nobody translated {0}"')),
      problems.join('\n'),
    );
  });

  it('t() fills placeholders in plain Node and goes through the installed translator in the extension', () => {
    assert.equal(t('Deleted {0} of {1} chats.', 2, 3), 'Deleted 2 of 3 chats.');
    assert.equal(formatMessage('{0} and {2}', ['a']), 'a and {2}');
    setTranslator((message, args) => `[${formatMessage(message, args)}]`);
    try {
      assert.equal(t('Hello {0}', 'you'), '[Hello you]');
    } finally {
      setTranslator(formatMessage);
    }
  });
});
