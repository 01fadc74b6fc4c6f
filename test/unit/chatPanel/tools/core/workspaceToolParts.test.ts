import * as assert from 'node:assert/strict';
import { boundedResult } from '../../../../../src/chatPanel/core/toolbox';
import { ToolApprovals } from '../../../../../src/chatPanel/core/toolApprovals';
import { MAX_LINES, numberedLines } from '../../../../../src/chatPanel/tools/core/fileLines';
import { listFolder } from '../../../../../src/chatPanel/tools/core/folderListing';
import { compileQuery, formatMatches, matchLines } from '../../../../../src/chatPanel/tools/core/textSearch';
import { isExcludedTool } from '../../../../../src/chatPanel/tools/core/toolFilter';
import { relativeSegments } from '../../../../../src/workspace/core/workspacePath';
import { WORKSPACE_TOOLS, parseWorkspaceToolInput } from '../../../../../src/chatPanel/tools/core/workspaceToolSpecs';

describe("the chat's workspace tools, in parts", () => {
  it('reads lines with their numbers, a range, past the end, and cuts long reads saying where to go on', () => {
    assert.equal(numberedLines('a.ts', 'one\ntwo\n'), 'a.ts (2 lines):\n1\tone\n2\ttwo');
    assert.equal(numberedLines('a.ts', 'l1\nl2\nl3\nl4', { startLine: 2, endLine: 3 }), 'a.ts, lines 2-3 of 4:\n2\tl2\n3\tl3');
    assert.equal(numberedLines('a.ts', 'l1', { startLine: 5 }), 'a.ts has 1 line: nothing at line 5.');
    const long = Array.from({ length: MAX_LINES + 10 }, (_, index) => `line ${index + 1}`).join('\n');
    const read = numberedLines('big.ts', long);
    assert.match(read, /^big\.ts, lines 1-2000 of 2010:/);
    assert.ok(read.endsWith(`[… lines 2001-2010 not shown: read them with startLine 2001]`));
  });

  it('lists a folder from the files below it: folders first with their file counts, then files', () => {
    const files = ['README.md', 'src/a.ts', 'src/lib/b.ts', 'src/lib/c.ts', 'test/a.test.ts'];
    assert.equal(listFolder('src/', 'src', files), 'src/ (1 folder, 1 file):\nlib/ (2 files)\na.ts');
    assert.equal(listFolder('The workspace folder', '', files), 'The workspace folder (2 folders, 1 file):\nsrc/ (3 files)\ntest/ (1 file)\nREADME.md');
    assert.match(listFolder('empty/', 'empty', files), /is empty, or everything in it is excluded/);
  });

  it('searches text literally or as a regular expression, with case, and says when it found nothing', () => {
    const literal = compileQuery({ query: 'a.b(' });
    assert.ok(literal instanceof RegExp);
    assert.deepEqual(matchLines('x.ts', 'const a = 1;\ncall(A.B( 2 ))\n', literal, 10), [{ path: 'x.ts', line: 2, text: 'call(A.B( 2 ))' }]);
    assert.deepEqual(matchLines('x.ts', 'A.B(', compileQuery({ query: 'a.b(', caseSensitive: true }) as RegExp, 10), []);
    assert.equal(matchLines('x.ts', 'foo1\nfoo22\nfoo3', compileQuery({ query: 'foo\\d{2}', isRegExp: true }) as RegExp, 10)[0]?.line, 2);
    assert.match(String(compileQuery({ query: '(', isRegExp: true })), /not a valid regular expression/);
    assert.equal(formatMatches('zzz', [], { filesSearched: 3, truncated: false }), 'No match for "zzz" in 3 files.');
    assert.equal(
      formatMatches('foo', [{ path: 'a.ts', line: 2, text: 'foo()' }], { filesSearched: 1, truncated: false }),
      '1 match for "foo" in 1 file:\na.ts:2: foo()',
    );
  });

  it('keeps paths inside the workspace', () => {
    assert.deepEqual(relativeSegments('./src//a.ts'), ['src', 'a.ts']);
    assert.deepEqual(relativeSegments('src\\lib\\..\\a.ts'), ['src', 'a.ts']);
    assert.equal(relativeSegments('../secrets.txt'), undefined);
    assert.equal(relativeSegments('src/../../etc/passwd'), undefined);
  });

  it('checks the arguments the model gives against each tool schema, saying what is wrong', () => {
    assert.deepEqual(parseWorkspaceToolInput('promptreel_read_file', { path: 'a.ts', startLine: 3 }), { path: 'a.ts', startLine: 3 });
    assert.match(String(parseWorkspaceToolInput('promptreel_read_file', { startLine: 0 })), /^Invalid arguments for promptreel_read_file: path/);
    assert.match(String(parseWorkspaceToolInput('promptreel_search_text', { query: '' })), /query/);
    for (const tool of WORKSPACE_TOOLS) {
      assert.ok(tool.readOnly && tool.source === 'promptreel', tool.name);
      assert.match(tool.name, /^promptreel_[a-z_]+$/);
      assert.equal(tool.inputSchema['type'], 'object');
    }
  });

  it('excludes tools by name or by a pattern with *', () => {
    assert.ok(isExcludedTool('mcp_github_create_issue', ['mcp_github_*']));
    assert.ok(isExcludedTool('Promptreel_Read_File', ['promptreel_read_file']));
    assert.equal(isExcludedTool('mcp_gitlab_x', ['mcp_github_*']), false);
    assert.equal(isExcludedTool('a.b', ['a*b']), true);
  });

  it('cuts a long result at a line, saying how much was left out', () => {
    assert.equal(boundedResult('short'), 'short');
    const text = `${'x'.repeat(90)}\n${'y'.repeat(50)}`;
    assert.equal(boundedResult(text, 100), `${'x'.repeat(90)}\n[… 51 more characters left out: ask for a narrower range]`);
  });

  it('approvals: a decision settles its call once; Stop settles every wait of its chat; "for this chat" frees the same tool', async () => {
    const approvals = new ToolApprovals();
    const stop = new AbortController();
    const read1 = approvals.expect('c1', { id: 'r1', name: 'read', readOnly: true }, stop.signal);
    const read2 = approvals.expect('c1', { id: 'r2', name: 'read', readOnly: true }, stop.signal);
    const other = approvals.expect('c2', { id: 'r3', name: 'read', readOnly: true }, new AbortController().signal);
    const write = approvals.expect('c1', { id: 'w1', name: 'write', readOnly: false }, stop.signal);
    assert.deepEqual(approvals.decide('c1', 'r1', 'allowForChat'), { allowedForChat: 'read' });
    assert.equal(await read1, 'allow');
    assert.equal(await read2, 'allow', 'the same read-only tool in the same chat');
    assert.equal(approvals.isWaiting('c2', 'r3'), true, 'another chat is not affected');
    assert.equal(approvals.decide('c1', 'r1', 'deny'), undefined, 'decided already');
    stop.abort();
    assert.equal(await write, 'stopped');
    assert.deepEqual(approvals.decide('c2', 'r3', 'deny'), {});
    assert.equal(await other, 'deny');
  });
});
