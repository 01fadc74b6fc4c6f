import { parseArgs } from 'node:util';
import { DEMO_KEY, startLocalService } from './index';
import { applyPatch, parsePatch, SCENARIO_PRESETS } from './scenario';
import type { ScenarioPatch } from './scenario';

/**
 * `npm run service [-- --port 8787] [--cdn-port 8788] [--preset new-api-1] [--scenario '{"chat":{"delayMs":50}}'] [--key sk-other]`
 * Runs the local service until Ctrl+C. The last line printed at start is `service-ready {json}` for scripts.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'cdn-port': { type: 'string' },
      scenario: { type: 'string' },
      preset: { type: 'string' },
      key: { type: 'string', multiple: true },
    },
  });
  const port = toPort(values.port ?? process.env['PORT'] ?? '0', 'port');
  const cdnPort = toPort(values['cdn-port'] ?? '0', 'cdn-port');
  const preset = presetPatch(values.preset ?? process.env['PROMPTREEL_SERVICE_PRESET']);
  const scenario = applyPatch(preset, values.scenario ? parsePatch(JSON.parse(values.scenario) as unknown) : {});
  const service = await startLocalService({ port, cdnPort, scenario, keys: [DEMO_KEY, ...(values.key ?? [])] });
  const lines = [
    'Promptreel local service (fake gateway)',
    `  base URL:   ${service.baseUrl}`,
    `  with /v1:   ${service.baseUrl}/v1`,
    `  CDN:        ${service.cdnUrl}`,
    `  demo key:   ${service.demoKey}`,
    `  control:    ${service.baseUrl}/__control/scenario (POST a scenario patch), /__control/reset, /__control/requests`,
    'Press Ctrl+C to stop.',
    `service-ready ${JSON.stringify({ baseUrl: service.baseUrl, cdnUrl: service.cdnUrl, demoKey: service.demoKey })}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void service.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function presetPatch(name: string | undefined): ScenarioPatch {
  if (!name) return {};
  const found = Object.entries(SCENARIO_PRESETS).find(([presetName]) => presetName === name);
  if (!found) throw new Error(`--preset must be one of ${Object.keys(SCENARIO_PRESETS).join(', ')}, got ${name}`);
  return found[1];
}

function toPort(text: string, name: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--${name} must be a port number, got ${text}`);
  return port;
}

main().catch((error: unknown) => {
  process.stderr.write(`local service failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
