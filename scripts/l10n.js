#!/usr/bin/env node
// `npm run l10n`: collects every user-visible message of the extension (each `t('…')` call of src/, host and webview
// alike; the English text is the key) into l10n/bundle.l10n.json, the bundle translators work from.
// `npm run l10n -- --check` changes nothing and exits 1 when the bundle is out of date or a translation is missing.
const fs = require('fs');
const path = require('path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const BUNDLE = path.join(ROOT, 'l10n', 'bundle.l10n.json');
const LANGUAGES = ['zh-cn'];
const PLACEHOLDER = /\{(\d+)\}/g;
/** The translators themselves: they pass messages on. */
const TRANSLATORS = new Set(['src/api/l10n.ts', 'src/workbench/l10n.ts', 'src/webviewPage/l10n.ts']);

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `t('…')`, `l10n.t('…')` and `vscode.l10n.t('…')` with a literal first argument: message → files that use it. */
function collectMessages(root = path.join(ROOT, 'src')) {
  const messages = new Map();
  const problems = [];
  for (const file of sourceFiles(root)) {
    const text = fs.readFileSync(file, 'utf8');
    if (!/\bt\(/.test(text) || TRANSLATORS.has(path.relative(ROOT, file).split(path.sep).join('/'))) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isCallExpression(node) && isTranslateCall(node.expression)) {
        const [first] = node.arguments;
        const where = `${path.relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
          if (!messages.has(first.text)) messages.set(first.text, []);
          messages.get(first.text).push(where);
        } else {
          problems.push(`${where}: t() needs a literal message (put values in {0}, {1}… placeholders)`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { messages, problems };
}

function isTranslateCall(expression) {
  if (ts.isIdentifier(expression)) return expression.text === 't';
  return ts.isPropertyAccessExpression(expression) && expression.name.text === 't' && /(^|\.)l10n$/.test(expression.expression.getText());
}

function placeholders(message) {
  return [...message.matchAll(PLACEHOLDER)].map((match) => match[0]).sort();
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function bundleText(messages) {
  const sorted = Object.fromEntries([...messages.keys()].sort().map((message) => [message, message]));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/** What is wrong with the bundles: out of date, a missing or untranslated message, placeholders that differ. */
function checkTranslations({ messages, problems }) {
  const found = [...problems];
  const bundle = readJson(BUNDLE);
  if (!bundle || fs.readFileSync(BUNDLE, 'utf8') !== bundleText(messages)) found.push('l10n/bundle.l10n.json is out of date: run npm run l10n');
  for (const language of LANGUAGES) {
    const file = path.join(ROOT, 'l10n', `bundle.l10n.${language}.json`);
    const translated = readJson(file) ?? {};
    for (const [message, where] of messages) {
      const translation = translated[message];
      if (typeof translation !== 'string' || !translation.trim()) found.push(`${language}: no translation of "${message}" (${where[0]})`);
      else if (placeholders(translation).join() !== placeholders(message).join())
        found.push(`${language}: "${message}" and its translation have different placeholders`);
    }
    for (const message of Object.keys(translated)) if (!messages.has(message)) found.push(`${language}: "${message}" is translated but no longer used`);
  }
  return found;
}

if (require.main === module) {
  const collected = collectMessages();
  if (process.argv.includes('--check')) {
    const found = checkTranslations(collected);
    for (const line of found) console.error(line);
    console.log(`${collected.messages.size} messages; ${found.length} problem(s)`);
    process.exit(found.length ? 1 : 0);
  }
  for (const problem of collected.problems) console.error(problem);
  fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
  fs.writeFileSync(BUNDLE, bundleText(collected.messages));
  console.log(`l10n/bundle.l10n.json: ${collected.messages.size} messages`);
}

module.exports = { collectMessages, checkTranslations, placeholders, LANGUAGES };
