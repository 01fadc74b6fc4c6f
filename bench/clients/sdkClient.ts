import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import { cpuMs, type StreamClient, type StreamRun, type StreamTarget } from './streamClient';

/** The peer: the official `openai` SDK (v6) pointed at the local service, consuming the same stream. */
export function sdkClient(target: StreamTarget): StreamClient {
  const openai = new OpenAI({ baseURL: `${target.baseUrl}/v1`, apiKey: target.key, maxRetries: 0 });
  return {
    async run(): Promise<StreamRun> {
      const started = performance.now();
      const cpu = process.cpuUsage();
      let firstMs = 0;
      let contentEvents = 0;
      let textChars = 0;
      const stream = await openai.chat.completions.create({
        model: target.model,
        messages: [{ role: 'user', content: target.prompt }],
        stream: true,
      });
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta?.content;
        if (content) {
          if (firstMs === 0) firstMs = performance.now() - started;
          contentEvents++;
          textChars += content.length;
        }
      }
      return { totalMs: performance.now() - started, cpuMs: cpuMs(cpu), firstMs, contentEvents, textChars, bytes: 0 };
    },
    close: async () => {},
  };
}
