import * as assert from 'node:assert/strict';
import { isExcludedTool } from '../../../../src/chatPanel/tools/core/toolFilter';
import { excludeMatcher } from '../../../../src/workspace/core/excludeSettings';
import {
  atAnyDepth,
  compileGlob,
  compilePattern,
  compileWildcard,
  parseGlob,
  type GlobMatcher,
  type MatchMeter,
} from '../../../../src/workspace/core/globMatcher';
import { IgnoreRules } from '../../../../src/workspace/core/ignoreRules';

/** The work of matching texts of growing length: each doubling of the text at most doubles it (plus a constant). */
function stepsFor(matcher: GlobMatcher, text: (length: number) => string, lengths: readonly number[]): number[] {
  return lengths.map((length) => {
    const meter: MatchMeter = { steps: 0 };
    matcher.matches(text(length), meter);
    return meter.steps;
  });
}

function assertLinear(matcher: GlobMatcher, text: (length: number) => string): void {
  const lengths = [100, 200, 400, 800, 1_600];
  const steps = stepsFor(matcher, text, lengths);
  steps.forEach((count, index) => {
    // Never more than a pass over the automaton per character (the bound of a set-of-states match)…
    assert.ok(count <= (lengths[index]! + 1) * (2 * matcher.size + 2), `${count} steps for ${lengths[index]} characters`);
    // …and, past the first states built, about one step per character.
    if (index > 0) assert.ok(count <= 2 * steps[index - 1]! + 10 * matcher.size, `steps ${steps.join(', ')} do not grow linearly`);
  });
}

/**
 * The regular expressions the globs were compiled to before (they backtrack), kept as the reference of the glob
 * semantics: on short texts, where backtracking is harmless, the matcher must answer exactly as they do.
 */
function referenceSource(glob: string): string {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        source += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '{') {
      const close = glob.indexOf('}', i);
      if (close < 0) source += '\\{';
      else {
        source += `(?:${glob
          .slice(i + 1, close)
          .split(',')
          .map(referenceSource)
          .join('|')})`;
        i = close;
      }
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) source += '\\[';
      else {
        const body = glob.slice(i + 1, close);
        source += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else source += /[.+^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
  }
  return source;
}

describe('globs, matched in time linear in the path', () => {
  it('review 2.5: a .gitignore line of twenty * costs steps linear in the path, and still means what it says', () => {
    const line = `${'*'.repeat(20)}.bak`;
    const rules = new IgnoreRules();
    rules.add('', `${line}\n`);
    // Each of these took the regular expression the line was compiled to from seconds to hours.
    assert.equal(rules.ignores(`src/${'a'.repeat(60)}.ts`), false);
    assert.equal(rules.ignores(`src/${'a'.repeat(60)}.bak`), true);
    assert.equal(rules.ignores(`${'a/'.repeat(40)}b.bak`), true);
    assertLinear(compilePattern(atAnyDepth(parseGlob(line))), (length) => `src/${'a'.repeat(length)}.ts`);
    const separated = `${Array.from({ length: 20 }, () => '*').join('a')}b`;
    assertLinear(compilePattern(atAnyDepth(parseGlob(separated))), (length) => 'a'.repeat(length));
    assert.equal(compileGlob(separated).matches(`${'a'.repeat(30)}b`), true);
  });

  it('review 2.5: the exclude settings, a search include and chat.excludedTools match linearly too', () => {
    const excluded = excludeMatcher([{ [`**/${'*'.repeat(20)}.tmp`]: true, '**/{a,{b,c}}*x': true }]);
    assert.equal(excluded(`src/${'a'.repeat(60)}.ts`), false);
    assert.equal(excluded(`src/${'a'.repeat(60)}.tmp/inside.ts`), true, 'a folder the pattern names, and what is in it');
    assertLinear(compileGlob(`src/**/${'*?'.repeat(12)}{.ts,.js}`), (length) => `src/${'a'.repeat(length)}.css`);
    const tools = `${'*a'.repeat(25)}*b`;
    assert.equal(isExcludedTool('a'.repeat(60), [tools]), false);
    assert.equal(isExcludedTool(`MCP_${'A'.repeat(30)}B`, [tools]), true, 'in any case');
    assertLinear(compileWildcard(tools, { ignoreCase: true }), (length) => 'a'.repeat(length));
  });

  it('keeps the glob semantics: the same answers as the regular expressions they were compiled to, on short texts', () => {
    const parts = ['a', 'b', '/', '.', '*', '**', '**/', '?', '{a,b}', '{,a/}', '[ab]', '[!a]', 'x'];
    const texts = ['a', 'b', '/', '.', 'x', 'ab', 'c'];
    let seed = 7;
    const random = (below: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed % below;
    };
    for (let round = 0; round < 3_000; round++) {
      let glob = '';
      for (let count = random(5) + 1; count > 0; count--) glob += parts[random(parts.length)];
      let text = '';
      for (let count = random(7); count > 0; count--) text += texts[random(texts.length)];
      const whole = new RegExp(`^(?:${referenceSource(glob)})$`);
      const anyDepth = new RegExp(`^(?:.*/)?(?:${referenceSource(glob)})$`);
      assert.equal(compileGlob(glob).matches(text), whole.test(text), `${glob} on "${text}"`);
      assert.equal(compilePattern(atAnyDepth(parseGlob(glob))).matches(text), anyDepth.test(text), `${glob} at any depth on "${text}"`);
      const segments = text.split('/');
      assert.deepEqual(
        compileGlob(glob).matchesAtFolders(text),
        segments.map((_, index) => whole.test(segments.slice(0, index + 1).join('/'))),
        `${glob} on each folder of "${text}"`,
      );
    }
  });

  it('reads nested braces, escapes, classes and case as VS Code does', () => {
    assert.equal(compileGlob('src/{a,{b,c}/d}.ts').matches('src/c/d.ts'), true);
    assert.equal(compileGlob('src/{a,{b,c}/d}.ts').matches('src/c.ts'), false);
    assert.equal(compileGlob('a\\*b').matches('a*b'), true);
    assert.equal(compileGlob('a\\*b').matches('axb'), false);
    assert.equal(compileGlob('[^0-9]x').matches('ax'), true);
    assert.equal(compileGlob('Readme.MD', { ignoreCase: true }).matches('README.md'), true);
    assert.equal(compileGlob('Readme.MD').matches('README.md'), false);
  });
});
