import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface PinRow {
  parts: string[];
  files: string[];
}

/**
 * The rows of CONTRIBUTING's "What the benchmarks pin" table: the parts (`--only` ids) and the source files they pin.
 * A folder followed by names in parentheses (`src/api/chat/` (`sse.ts`, …)) names those files in it; a folder alone
 * names no file.
 */
function pinTable(): PinRow[] {
  const text = fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const section = text.slice(text.indexOf('## What the benchmarks pin'));
  const rows = section
    .slice(0, section.indexOf('\n## ', 1))
    .split('\n')
    .filter((line) => /^\| `/.test(line));
  return rows.map((line) => {
    const [partsCell, , filesCell] = line.split('|').slice(1);
    const parts = [...partsCell.matchAll(/`([\w-]+)`/g)].map((match) => match[1]);
    const files: string[] = [];
    let folder = '';
    for (const [, token] of filesCell.matchAll(/`([^`]+)`/g)) {
      if (token.endsWith('/')) folder = token;
      else if (token.includes('/')) {
        files.push(token);
        folder = `${path.posix.dirname(token)}/`;
      } else files.push(folder ? `${folder}${token}` : token);
    }
    return { parts, files };
  });
}

/** The bench parts' ids, as bench/parts/*.ts declare them. */
function benchPartIds(): string[] {
  const dir = path.join(ROOT, 'bench', 'parts');
  return fs.readdirSync(dir).flatMap((file) => [...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/^\s+id: '([\w-]+)',$/gm)].map((match) => match[1]));
}

describe('what the benchmarks pin (CONTRIBUTING, issue 28.6)', () => {
  it('names only bench parts that exist, and source files that exist', () => {
    const ids = benchPartIds();
    const rows = pinTable();
    assert.ok(rows.length >= 8, `the table has its rows: ${rows.length}`);
    for (const row of rows) {
      for (const part of row.parts) assert.ok(ids.includes(part), `${part} is a part of npm run bench (${ids.join(', ')})`);
      for (const file of row.files) assert.ok(fs.existsSync(path.join(ROOT, file)), `${file} exists (renamed? update CONTRIBUTING)`);
    }
  });

  it('each performance file in src/ names the bench parts that pin it, on its first line', () => {
    for (const { parts, files } of pinTable()) {
      for (const file of files.filter((name) => name.startsWith('src/') && name.endsWith('.ts'))) {
        const first = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')[0];
        assert.match(first, /^\/\/ Pinned by `npm run bench -- --only [\w,-]+`: .+\.$/, `${file} says which bench pins it`);
        const named = /--only ([\w,-]+)/.exec(first)?.[1].split(',') ?? [];
        assert.deepEqual(named, parts, `${file} names the parts of its row`);
      }
    }
  });
});
