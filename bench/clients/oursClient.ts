import { performance } from 'node:perf_hooks';
import { PromptreelClient } from '../../src/api';
import { cpuMs, type StreamClient, type StreamRun, type StreamTarget } from './streamClient';

/** Ours as the extension uses it: `streamChatCompletion`, every chunk validated, every event consumed. */
export function oursClient(target: StreamTarget): StreamClient {
  const client = new PromptreelClient({ baseUrl: target.baseUrl, apiKey: () => target.key, retry: { retries: 0 } });
  const request = { model: target.model, messages: [{ role: 'user' as const, content: target.prompt }] };
  return {
    async run(): Promise<StreamRun> {
      const started = performance.now();
      const cpu = process.cpuUsage();
      let firstMs = 0;
      let contentEvents = 0;
      let textChars = 0;
      let finished = false;
      for await (const event of client.streamChatCompletion(request)) {
        if (event.type === 'text') {
          if (firstMs === 0) firstMs = performance.now() - started;
          contentEvents++;
          textChars += event.text.length;
        } else if (event.type === 'finish') {
          finished = true;
        }
      }
      if (!finished) throw new Error('ours: the stream ended without a finish event');
      return { totalMs: performance.now() - started, cpuMs: cpuMs(cpu), firstMs, contentEvents, textChars, bytes: 0 };
    },
    close: async () => {},
  };
}
