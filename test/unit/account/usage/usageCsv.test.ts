import * as assert from 'node:assert/strict';
import { CSV_HEADER, text, usageCsv } from '../../../../src/account/usage/core/usageCsv';

const AT = Date.UTC(2026, 9, 15, 10, 30, 5);

describe('account: the usage CSV (issue 26.3)', () => {
  it('issue 26.3: a header, then one CRLF line per request with ISO times, empty cells for what is not known', () => {
    const csv = usageCsv([
      {
        at: AT,
        model: 'promptreel-chat',
        promptTokens: 12,
        completionTokens: 30,
        cachedTokens: 4,
        usd: 0.000252,
        latencySeconds: 2,
        stream: true,
        fromThisMachine: true,
        requestId: 'rid-1',
      },
      { at: AT - 1000, model: 'promptreel-video', fromThisMachine: false },
    ]);
    assert.equal(
      csv,
      [
        'time,model,prompt_tokens,completion_tokens,cached_tokens,charged_usd,latency_s,stream,from_this_machine,request_id',
        '"2026-10-15T10:30:05.000Z","promptreel-chat",12,30,4,0.000252,2,yes,yes,"rid-1"',
        '"2026-10-15T10:30:04.000Z","promptreel-video",,,,,,,no,""',
        '',
      ].join('\r\n'),
    );
    assert.equal(CSV_HEADER.length, 10);
    assert.equal(usageCsv([]), `${CSV_HEADER.join(',')}\r\n`);
  });

  it('issue 26.3: text is quoted per RFC 4180, and a cell a spreadsheet would run as a formula gets a leading apostrophe', () => {
    assert.equal(text('plain'), '"plain"');
    assert.equal(text('say "hi", then\r\nleave'), '"say ""hi"", then\r\nleave"');
    for (const formula of ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
      assert.equal(text(formula), `"'${formula.replace(/"/g, '""')}"`, formula);
    assert.equal(text('a=b'), '"a=b"', 'only a leading sign is a formula');
    const csv = usageCsv([{ at: AT, model: '=cmd|" /C calc"!A0', fromThisMachine: false, requestId: '@evil' }]);
    assert.ok(csv.includes(`,"'=cmd|"" /C calc""!A0",`), csv);
    assert.ok(csv.includes(`,"'@evil"\r\n`), csv);
  });
});
