// What the workbench logs when, offline, it cannot reach an extension gallery or GitHub: not a failure of ours, so the
// host runners leave it out of their output and of the reason they give when a session ends without a result.
const OFFLINE_NOISE =
  /getaddrinfo ENOTFOUND (open-vsx\.org|\S*marketplace|\S*visualstudio)|authentication provider 'github'|Error while getting the latest version for the extension \S+ from https:\/\/open-vsx\.org/;

module.exports = { OFFLINE_NOISE };
