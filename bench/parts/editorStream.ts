import * as fs from 'node:fs';
import * as path from 'node:path';
import { editorStreamReportSchema } from '../host/hostResult';
import { hostUnavailable, runHostSession } from '../host/hostSession';
import type { ResultRow } from '../report/row';
import { median, spread } from '../report/stats';
import { OUT, ROOT } from '../support/paths';
import { notMeasurable, type BenchContext, type BenchPart } from './part';

const PART = '5 editor';
const CHUNKS = 20_000;
const ENTRY = path.join(OUT, 'bench', 'host', 'editorStreamEntry');

/**
 * Part 5: in a fresh real VS Code, the packaged extension runs "Complete at Cursor" on a 20,000-chunk completion the
 * local service (its own process) sends as fast as it can; compared with a raw read of the same stream in the same host.
 */
export const editorStreamPart: BenchPart = {
  id: 'editor',
  title: 'Editor streaming in the real VS Code host',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const goals = ['≤ 1.2× the stream', '—', '1'];
    const figures = ['20,000 chunks into a document: time vs the stream alone', 'document edits applied', 'undo steps to restore'];
    const missing = !fs.existsSync(path.join(ROOT, 'src', 'editorStream')) ? 'src/editorStream does not exist yet' : hostUnavailable();
    if (missing) return figures.map((figure, i) => notMeasurable(PART, figure, goals[i], missing));
    const service = await context.service();
    await service.reset();
    await service.setScenario({ chat: { bulk: { chunks: CHUNKS, chunkChars: 4 } } });
    const staged = await context.stagedPackage();
    const session = await runHostSession(staged.dir, ENTRY, {
      env: { PROMPTREEL_BENCH_BASE_URL: service.baseUrl, PROMPTREEL_BENCH_KEY: service.key, PROMPTREEL_BENCH_REPETITIONS: context.quick ? '1' : '3' },
    }).finally(() => service.reset());
    const reports = editorStreamReportSchema.array().parse(session.result);
    context.details['editor stream'] = reports;
    const failed = reports.find((report) => report.status !== 'completed' || report.chunks !== CHUNKS);
    if (failed) throw new Error(`Complete at Cursor ended ${failed.status} after ${failed.chunks} of ${CHUNKS} chunks`);
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
        note: `command ${median(reports.map((r) => r.commandMs)).toFixed(0)} ms vs raw read ${median(reports.flatMap((r) => r.rawStreamMs)).toFixed(0)} ms in the same host; ratios ${spread(ratios, 2)}; ${reports[0].characters} characters inserted`,
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
