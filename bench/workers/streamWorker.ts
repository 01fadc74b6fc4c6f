import { oursClient } from '../clients/oursClient';
import { rawClient } from '../clients/rawClient';
import { sdkClient } from '../clients/sdkClient';
import type { StreamClient, StreamRun } from '../clients/streamClient';
import { streamCommandSchema, type StreamReply } from './protocol';

/**
 * A child process running one client library, so each library gets its own heap and JIT and the orchestrator can
 * interleave libraries run by run. Runs are strictly sequential.
 */
let client: StreamClient | undefined;

function reply(message: StreamReply): void {
  process.send?.(message);
}

process.on('message', (raw: unknown) => {
  const parsed = streamCommandSchema.safeParse(raw);
  if (!parsed.success) {
    reply({ type: 'error', id: -1, message: `bad command: ${parsed.error.message}` });
    return;
  }
  const command = parsed.data;
  if (command.type === 'init') {
    const target = { baseUrl: command.baseUrl, key: command.key, model: command.model, prompt: command.prompt };
    client = command.client === 'raw' ? rawClient(target) : command.client === 'ours' ? oursClient(target) : sdkClient(target);
    reply({ type: 'ready' });
    return;
  }
  void runTimes(command.id, command.times);
});

async function runTimes(id: number, times: number): Promise<void> {
  try {
    if (!client) throw new Error('not initialised');
    const runs: StreamRun[] = [];
    for (let i = 0; i < times; i++) runs.push(await client.run());
    reply({ type: 'runs', id, runs });
  } catch (error) {
    reply({ type: 'error', id, message: error instanceof Error ? error.message : String(error) });
  }
}

process.on('disconnect', () => {
  void client?.close().finally(() => process.exit(0));
});
