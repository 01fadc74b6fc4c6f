// Puts the packaged extension (dist/promptreel.vsix) into fresh extensions dirs. The VSIX is installed once with
// `code-server --install-extension` (proving the package installs) into a template, keyed by the VSIX's hash;
// each workbench then gets a copy of the unpacked folder, which VS Code lists like an installed one.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { RUNS } = require('./paths');
const { writeProfile } = require('./profile');
const { installExtension } = require('./server');

function vsixHash(vsix) {
  return crypto.createHash('sha256').update(fs.readFileSync(vsix)).digest('hex').slice(0, 16);
}

const STALE_MS = 60 * 60 * 1000;

function removeStaleTemplates(keep) {
  for (const entry of fs.readdirSync(RUNS)) {
    const dir = path.join(RUNS, entry);
    if (!entry.startsWith('vsix-') || dir === keep) continue;
    // Another run may still be copying from a recent one.
    if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function installedTemplate(vsix, { logFile } = {}) {
  if (!fs.existsSync(vsix)) throw new Error(`missing ${vsix}: run npm run package`);
  const dir = path.join(RUNS, `vsix-${vsixHash(vsix)}`);
  const doneFile = path.join(dir, 'installed.json');
  if (!fs.existsSync(doneFile)) {
    fs.mkdirSync(RUNS, { recursive: true });
    removeStaleTemplates(dir);
    // Installed into a private folder, then renamed into place: concurrent runs never see half a template.
    const staging = `${dir}.staging-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    const profile = writeProfile(path.join(staging, 'profile'));
    await installExtension(profile, vsix, { logFile });
    const folder = fs.readdirSync(profile.extensionsDir, { withFileTypes: true }).find((entry) => entry.isDirectory() && !entry.name.startsWith('.'));
    if (!folder) throw new Error(`installing ${vsix} left no extension folder in ${profile.extensionsDir}`);
    fs.writeFileSync(path.join(staging, 'installed.json'), `${JSON.stringify({ name: folder.name })}\n`);
    try {
      fs.renameSync(staging, dir);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another run got there first
    }
  }
  const { name } = JSON.parse(fs.readFileSync(doneFile, 'utf8'));
  return { name, folder: path.join(dir, 'profile', 'extensions', name) };
}

/** Copies the installed VSIX into `extensionsDir`; returns the extension's folder name (publisher.name-version). */
async function installVsixInto(vsix, extensionsDir, options = {}) {
  const template = await installedTemplate(vsix, options);
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.cpSync(template.folder, path.join(extensionsDir, template.name), { recursive: true });
  return template.name;
}

module.exports = { installVsixInto };
