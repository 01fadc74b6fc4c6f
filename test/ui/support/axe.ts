import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import type { Frame, FrameLocator } from 'playwright-core';

// axe-core run inside a page of the extension (a webview's frame) as a user sees it (issue 28.9).

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeNode {
  html: string;
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

async function frameOf(locator: FrameLocator): Promise<Frame> {
  const root = await locator.locator(':root').elementHandle();
  const frame = await root?.ownerFrame();
  assert.ok(frame, 'the webview frame was not found');
  return frame;
}

/** Runs axe-core in the page of `locator`. Webviews allow no script of ours: the source is evaluated, not loaded. */
async function axeViolations(locator: FrameLocator): Promise<AxeViolation[]> {
  const frame = await frameOf(locator);
  await frame.evaluate(`${AXE_SOURCE}\n;undefined`);
  return frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact: impact ?? null,
      help,
      nodes: nodes.map(({ html, target, failureSummary }) => ({ html, target, failureSummary })),
    }));
  });
}

function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}, ${violation.nodes.length}×): ${violation.help}\n` +
        violation.nodes.map((node) => `    ${node.html}\n      ${(node.failureSummary ?? '').replace(/\n/g, ' ')}`).join('\n'),
    )
    .join('\n');
}

export async function assertNoSeriousViolations(locator: FrameLocator, page: string): Promise<void> {
  const violations = await axeViolations(locator);
  // Printed whole in the log: the moderate and minor ones are reported, not failed on.
  if (violations.length) console.log(`      [axe ${page}]\n${describeViolations(violations)}`);
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  assert.equal(serious.length, 0, `axe-core finds serious or critical violations in the ${page}:\n${describeViolations(serious)}`);
}
