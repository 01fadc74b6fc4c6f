// Fresh VS Code profiles (user data + extensions dir + empty code-server config) and sample workspaces.
const fs = require('fs');
const path = require('path');

/** Quiet, offline, reproducible: no telemetry, update checks, welcome pages, experiments or built-in AI. */
const BASE_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
};

const SAMPLE_FILES = {
  'README.md': '# Sample workspace\n\nA small project the Promptreel tests open.\n',
  'src/sample.ts': [
    '/** Adds two numbers. */',
    'export function add(a: number, b: number): number {',
    '  return a + b;',
    '}',
    '',
    '/** Greets someone by name. */',
    'export function greet(name: string): string {',
    '  return `Hello, ${name}!`;',
    '}',
    '',
  ].join('\n'),
};

function writeFiles(root, files, { keepExisting = false } = {}) {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    if (keepExisting && fs.existsSync(file)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/**
 * Creates (or, with `fresh`, recreates) a profile under `dir`. Settings are merged over BASE_SETTINGS and over the
 * settings already in the profile (so a persistent demo profile keeps what the user changed).
 */
function writeProfile(dir, { settings = {}, fresh = true } = {}) {
  if (fresh) fs.rmSync(dir, { recursive: true, force: true });
  const profile = {
    dir,
    userDataDir: path.join(dir, 'user-data'),
    extensionsDir: path.join(dir, 'extensions'),
    // code-server otherwise reads (and creates) ~/.config/code-server/config.yaml with password auth.
    configFile: path.join(dir, 'config.yaml'),
  };
  const settingsFile = path.join(profile.userDataDir, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  fs.mkdirSync(profile.extensionsDir, { recursive: true });
  fs.writeFileSync(profile.configFile, '');
  let existing = {};
  try {
    existing = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  } catch {
    // none yet, or not plain JSON: start over
  }
  fs.writeFileSync(settingsFile, `${JSON.stringify({ ...BASE_SETTINGS, ...existing, ...settings }, null, 2)}\n`);
  return profile;
}

/**
 * Writes a workspace folder with the sample files plus `files` (relative path -> content).
 * Without `fresh`, an existing folder is kept and only missing files are added (the demo workspace).
 */
function writeWorkspace(dir, files = {}, { fresh = true } = {}) {
  if (fresh) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  writeFiles(dir, { ...SAMPLE_FILES, ...files }, { keepExisting: !fresh });
  return dir;
}

/**
 * Lets VS Code run in `locale` without its language pack (which cannot be installed offline): a language pack entry
 * whose translations are empty, so VS Code's own strings stay English while extensions (Promptreel) get the locale's
 * bundles. Start code-server with the same `--locale`.
 */
function addLanguagePack(profile, locale) {
  const translations = path.resolve(__dirname, '..', '..', 'test', 'fixtures', 'language-pack', 'main.i18n.json');
  const packs = {
    [locale]: {
      hash: `promptreel-tests-${locale}`,
      label: locale,
      extensions: [{ extensionIdentifier: { id: 'promptreel-tests.language-pack' }, version: '0.0.1' }],
      translations: { vscode: translations },
    },
  };
  fs.writeFileSync(path.join(profile.userDataDir, 'languagepacks.json'), `${JSON.stringify(packs, null, 2)}\n`);
}

module.exports = { BASE_SETTINGS, SAMPLE_FILES, writeProfile, writeWorkspace, addLanguagePack };
