import * as path from 'node:path';
import { z } from 'zod';
import { editorStreamReportSchema } from '../host/hostResult';
import { requireHost, runHostSession } from '../host/hostSession';
import type { ResultRow } from '../report/row';
import { median, spread } from '../report/stats';
import { OUT } from '../support/paths';
import type { BenchContext, BenchPart } from './part';

const PART = '5 editor';
const CHUNKS = 20_000;
const CHUNK_CHARS = 4;
const ENTRY = path.join(OUT, 'bench', 'host', 'editorStreamEntry');

/** What editorStreamEntry reports beyond the shared schema (older entries leave it out). */
const reportSchema = editorStreamReportSchema.extend({
  timing: z.object({ request: z.number(), firstText: z.number().optional(), streamEnd: z.number(), drained: z.number(), finished: z.number() }).optional(),
  rawHeadersMs: z.array(z.number()).optional(),
  clientStreamMs: z.array(z.number()).optional(),
  settleMs: z.number().optional(),
  roundTripMs: z.number().optional(),
});
type Report = z.infer<typeof reportSchema>;

const ms = (values: number[]) => median(values).toFixed(0);

/** Where the command's time went (medians over the runs), from the milestones the command reports. */
function breakdown(reports: Report[]): string {
  const timed = reports.flatMap((report) => (report.timing ? [{ ...report.timing, commandMs: report.commandMs }] : []));
  if (timed.length === 0) return 'no breakdown (the command reports no timing)';
  const parts = [
    `before the request ${ms(timed.map((t) => t.request))} ms (key lookup, prompt, progress)`,
    `request → first text ${ms(timed.map((t) => (t.firstText ?? t.streamEnd) - t.request))} ms`,
    `request → stream end ${ms(timed.map((t) => t.streamEnd - t.request))} ms`,
    `stream end → the edit in flight back ${ms(timed.map((t) => t.drained - t.streamEnd))} ms`,
    `→ last text written, undo step closed ${ms(timed.map((t) => t.finished - t.drained))} ms`,
    `→ command returned ${ms(timed.map((t) => t.commandMs - t.finished))} ms`,
  ];
  // Measured like the raw read (from the request's start to the last byte in place): what the command adds to the stream.
  const fromRequest = reports.flatMap((report) => (report.timing ? [(report.timing.finished - report.timing.request) / median(report.rawStreamMs)] : []));
  const versusClient = reports.flatMap((report) => (report.clientStreamMs ? [report.commandMs / median(report.clientStreamMs)] : []));
  return (
    `${parts.join(', ')}; from the request's start, like the raw read: ${median(fromRequest).toFixed(1)}×` +
    (versusClient.length ? `; vs Promptreel's client alone: ${median(versusClient).toFixed(1)}×` : '')
  );
}

/**
 * Part 5: in a fresh real VS Code, the packaged extension runs "Complete at Cursor" on a 20,000-chunk completion the
 * local service (its own process) sends as fast as it can; compared with a raw read of the same stream in the same host
 * (and, in the note, with Promptreel's client reading it alone), with a breakdown of the command's time.
 */
export const editorStreamPart: BenchPart = {
  id: 'editor',
  title: 'Editor streaming in the real VS Code host',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const goals = ['≤ 1.2× the stream', '—', '1'];
    const figures = ['20,000 chunks into a document: time vs the stream alone', 'document edits applied', 'undo steps to restore'];
    requireHost();
    const service = await context.service();
    await service.reset();
    await service.setScenario({ chat: { bulk: { chunks: CHUNKS, chunkChars: CHUNK_CHARS } } });
    const staged = await context.stagedPackage();
    const session = await runHostSession(staged.dir, ENTRY, {
      env: {
        PROMPTREEL_BENCH_BASE_URL: service.baseUrl,
        PROMPTREEL_BENCH_KEY: service.key,
        PROMPTREEL_BENCH_REPETITIONS: context.quick ? '1' : '7',
        // PROMPTREEL_BENCH_PROFILE_DIR=dir: a .cpuprofile of the extension host during the first measured command.
        ...(process.env.PROMPTREEL_BENCH_PROFILE_DIR
          ? { PROMPTREEL_BENCH_PROFILE: path.resolve(process.env.PROMPTREEL_BENCH_PROFILE_DIR, 'editor-host.cpuprofile') }
          : {}),
      },
    }).finally(() => service.reset());
    const reports = reportSchema.array().parse(session.result);
    context.details['editor stream'] = reports;
    // The client may hand several chunks of one network read over as one text event: the text tells that all arrived.
    const failed = reports.find((report) => report.status !== 'completed' || report.characters !== CHUNKS * CHUNK_CHARS || report.chunks > CHUNKS);
    if (failed)
      throw new Error(
        `Complete at Cursor ended ${failed.status} with ${failed.characters} of ${CHUNKS * CHUNK_CHARS} characters (${failed.chunks} text events)`,
      );
    const ratios = reports.map((report) => report.commandMs / median(report.rawStreamMs));
    const edits = reports.map((report) => report.edits);
    const undo = reports.map((report) => report.undoSteps);
    return [
      {
        part: PART,
        figure: figures[0],
        unit: '×',
        ours: median(ratios),
        goal: goals[0],
        met: median(ratios) <= 1.2,
        note:
          `command ${ms(reports.map((r) => r.commandMs))} ms vs raw read ${ms(reports.flatMap((r) => r.rawStreamMs))} ms in the same host` +
          (reports.every((r) => r.rawHeadersMs) ? ` (its headers after ${ms(reports.flatMap((r) => r.rawHeadersMs ?? []))} ms)` : '') +
          (reports.every((r) => r.clientStreamMs) ? `, Promptreel's client alone ${ms(reports.flatMap((r) => r.clientStreamMs ?? []))} ms` : '') +
          `; ratios ${spread(ratios, 2)}; ${reports[0].characters} characters inserted; ${breakdown(reports)}` +
          (reports.every((r) => r.roundTripMs !== undefined) ? `; one round trip to the workbench ${ms(reports.map((r) => r.roundTripMs ?? 0))} ms` : '') +
          (reports.every((r) => r.settleMs !== undefined)
            ? `; measured once the workbench settled after opening the document (${ms(reports.map((r) => r.settleMs ?? 0))} ms)`
            : ''),
        samples: { ours: ratios },
      },
      {
        part: PART,
        figure: figures[1],
        unit: 'edits',
        ours: median(edits),
        goal: goals[1],
        note: `for ${CHUNKS} chunks; ${spread(edits, 0)}`,
      },
      {
        part: PART,
        figure: figures[2],
        unit: 'steps',
        ours: Math.max(...undo),
        goal: goals[2],
        met: undo.every((steps) => steps === 1) && reports.every((report) => report.restored),
        note: reports.every((report) => report.restored) ? 'the original text came back exactly' : 'NOT restored after 50 undos',
      },
    ];
  },
};
