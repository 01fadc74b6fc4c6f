import * as assert from 'node:assert/strict';
import { DOC_BEGIN, DOC_END, partSection, replacePartSections, stampLine, type RunStamp } from '../../../../bench/report/docSection';

const stamp: RunStamp = {
  startedAt: '2025-06-01T09:41:07.123Z',
  commit: 'b7de428',
  machine: { cpus: 2, cpuModel: 'AMD EPYC 7B13', node: 'v20.20.0', loadAverageAtStart: [1.5, 2, 3.25] },
  command: 'npm run bench -- --only chat --write-docs',
};
const ORDER = ['throughput', 'chat', 'startup'];
const chat = (figure: number) =>
  partSection({ id: 'chat', title: 'Chat panel', rows: [{ part: '6 chat panel', figure: 'render', unit: 'ms', ours: figure, goal: '—' }] }, stamp);

const DOC = [
  '# Performance',
  '',
  'Hand-written introduction.',
  '',
  DOC_BEGIN,
  '',
  '<!-- bench:part throughput -->',
  '### Streaming throughput',
  '',
  'old throughput table',
  '',
  '<!-- bench:part chat -->',
  '### Chat panel',
  '',
  'old chat table',
  '',
  DOC_END,
  '',
  '## Why the unmet goals are unmet',
  '',
  'Hand-written analysis.',
  '',
].join('\n');

describe('bench: the generated section of docs/performance.md (bench/report/docSection.ts)', () => {
  it('stamps a part with the date, the commit, the machine and the command', () => {
    assert.equal(
      stampLine(stamp),
      'Measured 2025-06-01 09:41 UTC at b7de428 on 2 × AMD EPYC 7B13, Node v20.20.0, load average 1.50 2.00 3.25 at start (`npm run bench -- --only chat --write-docs`).',
    );
    assert.match(
      chat(3408),
      /^<!-- bench:part chat -->\n### Chat panel \(`npm run bench -- --only chat`\)\n\nMeasured 2025-06-01.*\n\n\| figure \|.*\n.*\n\| 6 chat panel: render \| ms \| 3,408 \|/,
    );
  });

  it('replaces the sections of the parts measured and keeps the rest, inside and outside the markers', () => {
    const updated = replacePartSections(DOC, new Map([['chat', chat(3408)]]), ORDER);
    assert.ok(updated.startsWith('# Performance\n\nHand-written introduction.\n\n<!-- bench:begin -->\n'));
    assert.ok(updated.endsWith('<!-- bench:end -->\n\n## Why the unmet goals are unmet\n\nHand-written analysis.\n'));
    assert.match(updated, /old throughput table/);
    assert.doesNotMatch(updated, /old chat table/);
    assert.match(updated, /3,408/);
    assert.ok(updated.indexOf('bench:part throughput') < updated.indexOf('bench:part chat'));
  });

  it('puts a part measured for the first time in the bench order, and writes the same text twice the same way', () => {
    const startup = partSection({ id: 'startup', title: 'Start-up', rows: [] }, stamp);
    const first = replacePartSections(DOC, new Map([['startup', startup]]), ORDER);
    assert.ok(first.indexOf('bench:part chat') < first.indexOf('bench:part startup'));
    assert.ok(first.indexOf('bench:part startup') < first.indexOf(DOC_END));
    const once = replacePartSections(DOC, new Map([['chat', chat(3408)]]), ORDER);
    assert.equal(replacePartSections(once, new Map([['chat', chat(3408)]]), ORDER), once);
    assert.equal(replacePartSections(once, new Map(), ORDER), once);
  });

  it('refuses a document without exactly one pair of markers, and a part the bench does not have', () => {
    const written = new Map([['chat', chat(1)]]);
    assert.throws(() => replacePartSections('# Performance\n', written, ORDER), /needs exactly one <!-- bench:begin --> followed by one <!-- bench:end -->/);
    assert.throws(() => replacePartSections(`${DOC_END}\n${DOC_BEGIN}\n`, written, ORDER), /needs exactly one/);
    assert.throws(() => replacePartSections(`${DOC}${DOC_BEGIN}\n${DOC_END}\n`, written, ORDER), /needs exactly one/);
    assert.throws(() => replacePartSections(DOC, new Map([['chart', chat(1)]]), ORDER), /no part chart in the bench/);
  });
});
