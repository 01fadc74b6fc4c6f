import * as assert from 'node:assert/strict';
import { exitCode, failedRow, failureSummary } from '../../../../bench/report/outcome';
import type { ResultRow } from '../../../../bench/report/row';
import { markdownTable } from '../../../../bench/report/table';

const measured: ResultRow = { part: '6 chat panel', figure: 'frames over 50 ms', unit: 'frames', ours: 0, goal: '0', met: true };
const missedGoal: ResultRow = { part: '7 start-up', figure: 'activation', unit: 'ms', ours: 139, goal: '< 50 ms', met: false, note: 'median of 5' };

/** The cells of the table's row for `figure` (the first column is `part: figure`). */
function cellsOf(table: string, figure: string): string[] {
  const line = table.split('\n').find((row) => row.includes(figure));
  assert.ok(line, `no row for ${figure} in\n${table}`);
  return line.split(' | ').map((cell) => cell.replace(/^\| |\s\|$/g, ''));
}

describe('bench: a figure that could not be measured fails the run (bench/report/outcome.ts)', () => {
  it('shows a failed part as FAILED with its reason, apart from a goal not met', () => {
    const failed = failedRow(
      'chat',
      'Chat panel rendering in real Chromium',
      '—',
      'esbuild.js builds dist/webview/chat.js from src/webview/chat/main.ts, which does not exist',
    );
    const table = markdownTable([measured, missedGoal, failed]);
    const failedCells = cellsOf(table, 'Chat panel rendering');
    assert.equal(failedCells[6], 'FAILED');
    assert.match(failedCells[7], /could not be measured: esbuild\.js builds dist\/webview\/chat\.js from src\/webview\/chat\/main\.ts, which does not exist/);
    assert.equal(cellsOf(table, 'activation')[6], 'not met');
    assert.equal(cellsOf(table, 'frames over 50 ms')[6], 'yes');
  });

  it('keeps a multi-line reason on its table row', () => {
    const table = markdownTable([failedRow('tls', 'New HTTPS connections', '—', 'connect ECONNREFUSED\n    at TCPConnectWrap | x')]);
    assert.equal(table.split('\n').length, 3);
    assert.match(table, /connect ECONNREFUSED at TCPConnectWrap \\\| x/);
  });

  it('exits 1 when any figure failed, 0 when every figure was measured, met or not', () => {
    assert.equal(exitCode([measured, missedGoal]), 0);
    assert.equal(exitCode([measured, failedRow('editor', 'Editor streaming', '—', 'the real VS Code cannot start: no install stamp')]), 1);
    assert.equal(exitCode([]), 0);
  });

  it('lists each failed figure with its reason under the table, and nothing when all were measured', () => {
    assert.deepEqual(failureSummary([measured, missedGoal]), []);
    assert.deepEqual(failureSummary([measured, failedRow('7 start-up', 'npm run package', '—', 'vsce exited 1')]), [
      '[bench] FAILED: 1 figure(s) could not be measured:',
      '[bench]   7 start-up: npm run package: vsce exited 1',
    ]);
  });
});
