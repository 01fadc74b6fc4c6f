// Debian's Chromium driven by playwright-core (from the project's node_modules).
const { CHROMIUM } = require('./stack');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Our own process groups and signal handlers stop everything; Playwright's handlers would exit first. */
function launchOptions() {
  return {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
}

async function launchBrowser() {
  const { chromium } = require('playwright-core');
  return chromium.launch(launchOptions());
}

module.exports = { CHROMIUM_ARGS, launchOptions, launchBrowser };
