import { z } from 'zod';
import { clientKinds, streamRunSchema } from '../clients/streamClient';

/** Orchestrator → stream worker. */
export const streamCommandSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    client: z.enum(clientKinds),
    baseUrl: z.string(),
    key: z.string(),
    model: z.string(),
    prompt: z.string(),
  }),
  z.object({ type: z.literal('run'), id: z.number(), times: z.number().int().min(1) }),
]);
export type StreamCommand = z.infer<typeof streamCommandSchema>;

/** Stream worker → orchestrator. */
export const streamReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('runs'), id: z.number(), runs: z.array(streamRunSchema) }),
  z.object({ type: z.literal('error'), id: z.number(), message: z.string() }),
]);
export type StreamReply = z.infer<typeof streamReplySchema>;

export const downloadTools = ['ours', 'plain'] as const;

export const downloadJobSchema = z.object({
  /** `ours`: downloadVideo; `plain`: undici's response body piped into fs.createWriteStream, nothing else. */
  tool: z.enum(downloadTools),
  baseUrl: z.string(),
  key: z.string(),
  videoUrl: z.string(),
  destination: z.string(),
});
export type DownloadJob = z.infer<typeof downloadJobSchema>;

export const downloadReportSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('done'),
    ms: z.number(),
    /** CPU time (user + system, all threads) of the process during the download. */
    cpuMs: z.number(),
    bytes: z.number(),
    /** RSS just before the download started. */
    rssBefore: z.number(),
    /** The kernel's high-water mark of RSS (getrusage maxrss) after the download, in bytes. */
    maxRssAfter: z.number(),
    /** The highest RSS seen by sampling every few ms during the download. */
    sampledPeak: z.number(),
  }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type DownloadReport = z.infer<typeof downloadReportSchema>;

/** Orchestrator → film worker: join the shots into `destination`, or copy them into the folder `destination` (the peer). */
export const filmJobSchema = z.object({
  mode: z.enum(['join', 'copy']),
  shots: z.array(z.string()).min(1),
  destination: z.string(),
});
export type FilmJob = z.infer<typeof filmJobSchema>;

export const filmReportSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('done'),
    ms: z.number(),
    /** Bytes written: the film's, or the copies'. */
    bytes: z.number(),
    /** The film's length (the join only; the copy says 0). */
    seconds: z.number(),
    rssBefore: z.number(),
    maxRssAfter: z.number(),
    sampledPeak: z.number(),
  }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type FilmReport = z.infer<typeof filmReportSchema>;
