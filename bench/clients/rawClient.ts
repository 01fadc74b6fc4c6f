import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { cpuMs, type StreamClient, type StreamRun, type StreamTarget } from './streamClient';

/** The limit: undici reads the response body and does nothing with it (no decoding, no parsing). */
export function rawClient(target: StreamTarget): StreamClient {
  const agent = new Agent();
  const url = `${target.baseUrl}/v1/chat/completions`;
  const payload = JSON.stringify({ model: target.model, messages: [{ role: 'user', content: target.prompt }], stream: true });
  const headers = { authorization: `Bearer ${target.key}`, 'content-type': 'application/json', accept: 'text/event-stream' };
  return {
    async run(): Promise<StreamRun> {
      const started = performance.now();
      const cpu = process.cpuUsage();
      let firstMs = 0;
      let bytes = 0;
      const response = await request(url, { method: 'POST', headers, body: payload, dispatcher: agent });
      if (response.statusCode !== 200) throw new Error(`raw: status ${response.statusCode}`);
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        if (firstMs === 0) firstMs = performance.now() - started;
        bytes += chunk.length;
      }
      return { totalMs: performance.now() - started, cpuMs: cpuMs(cpu), firstMs, contentEvents: 0, textChars: 0, bytes };
    },
    close: () => agent.close(),
  };
}
