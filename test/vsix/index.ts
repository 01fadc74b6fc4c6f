// Entry point VS Code loads in the extension host for `npm run test:vsix` (scripts/run-host-tests.js --vsix): the
// suite below this folder, run by the host tier's runner, against the installed VSIX.
import { runTestsBelow } from '../host/index';

export function run(): Promise<void> {
  return runTestsBelow(__dirname);
}
