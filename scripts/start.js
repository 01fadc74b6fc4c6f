#!/usr/bin/env node
// `npm start`: a demo of the extension in a real VS Code (code-server) on 127.0.0.1, talking to the local fake
// gateway with its demo key. Builds and packages the extension, installs the VS Code stack if missing, keeps a
// persistent profile and workspace under .vscode-test/demo/, prints the URL to open, stops everything on Ctrl+C.
// Env: PORT (default 8080; a free port is used when it is taken); PROMPTREEL_SERVICE_PRESET=new-api-1 plays a new-api
// 1.0 gateway (test/service/scenario.ts, SCENARIO_PRESETS).
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { ROOT, DEMO, VSIX } = require('./vscode/paths');
const { writeProfile, writeWorkspace } = require('./vscode/profile');
const { installExtension, startCodeServer } = require('./vscode/server');
const { freePort, onShutdown } = require('./vscode/processes');

const SERVICE_ENTRY = path.join(ROOT, 'out', 'test', 'service', 'index.js');

function step(title, command, args) {
  console.log(`[start] ${title}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  return result.status === 0;
}

async function main() {
  if (!step('packaging the extension (npm run package)', 'npm', ['run', '--silent', 'package'])) throw new Error('npm run package failed');
  // Type errors elsewhere still emit JavaScript; only a missing service is fatal.
  if (!step('compiling the local service (tsc -p test)', process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'test'])) {
    console.warn('[start] tsc reported errors (see above); continuing with what it emitted');
  }
  if (!fs.existsSync(SERVICE_ENTRY)) throw new Error(`missing ${path.relative(ROOT, SERVICE_ENTRY)}`);
  if (!step('checking the VS Code stack', process.execPath, [path.join(__dirname, 'install-vscode.js')])) throw new Error('VS Code stack install failed');

  const { startLocalService, SCENARIO_PRESETS } = require(SERVICE_ENTRY);
  const presetName = process.env.PROMPTREEL_SERVICE_PRESET;
  if (presetName && !SCENARIO_PRESETS[presetName]) throw new Error(`PROMPTREEL_SERVICE_PRESET must be one of ${Object.keys(SCENARIO_PRESETS).join(', ')}`);
  const service = await startLocalService(presetName ? { scenario: SCENARIO_PRESETS[presetName] } : {});
  if (presetName) console.log(`[start] the local service plays the ${presetName} preset`);
  let stopping = false;
  onShutdown(async () => {
    stopping = true;
    await service.stop();
  });
  console.log(`[start] local service ${service.baseUrl} (demo key ${service.demoKey})`);

  const profile = writeProfile(path.join(DEMO, 'profile'), {
    fresh: false,
    settings: {
      'promptreel.baseUrl': service.baseUrl,
      // The models the local service offers, so a newcomer can chat and generate a video at once.
      'promptreel.chat.model': 'promptreel-chat',
      'promptreel.video.model': 'promptreel-video',
    },
  });
  const workspace = writeWorkspace(path.join(DEMO, 'workspace'), {}, { fresh: false });
  const logFile = path.join(DEMO, 'code-server.log');
  console.log('[start] installing dist/promptreel.vsix into the demo profile');
  await installExtension(profile, VSIX, { logFile });

  const port = await freePort(Number(process.env.PORT) || 8080);
  const server = await startCodeServer({ profile, workspace, port, env: { PROMPTREEL_API_KEY: service.demoKey }, logFile });
  console.log(`\n  Promptreel demo: open ${server.folderUrl(workspace)}\n`);
  console.log(`[start] code-server log: ${path.relative(ROOT, logFile)}; profile: ${path.relative(ROOT, DEMO)}/; Ctrl+C stops everything`);
  await server.exited;
  if (stopping) return; // Ctrl+C: the shutdown handler stops the rest and exits
  await service.stop();
  throw new Error(`code-server exited unexpectedly (see ${logFile})`);
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
