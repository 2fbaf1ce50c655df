import { describe, expect, it } from 'vitest';
import { describeInputProblem, findInputProblem } from './input-hygiene.js';

/** A string alone passes the rule when no problem is found in it. */
const isCleanText = (text: string) => findInputProblem(text, '') === undefined;

describe('the text rule: valid Unicode without NUL', () => {
  it.each([
    ['plain ASCII', 'Acme Ltd', true],
    ['accents and CJK', 'Société Générale 株式会社', true],
    // U+1F680 is the pair D83D DE80: well-formed UTF-16
    ['an emoji (a surrogate pair)', 'rocket \ud83d\ude80', true],
    ['NUL at the end', 'Shell\u0000', false],
    ['NUL alone', '\u0000', false],
    ['a lone high surrogate', 'a\ud800b', false],
    ['a lone low surrogate', 'a\udc00b', false],
    ['a pair written backwards (low then high)', '\ude80\ud83d', false],
    ['other control characters (not this rule)', 'tab\tnewline\n', true],
  ])('%s: %s', (_name, text, clean) => {
    expect(isCleanText(text)).toBe(clean);
  });

  it('JSON.parse makes the very strings refused from escapes, which is why the rule runs on parsed values', () => {
    expect(isCleanText(JSON.parse('"a\\u0000b"') as string)).toBe(false);
    expect(isCleanText(JSON.parse('"a\\ud800b"') as string)).toBe(false);
    expect(isCleanText(JSON.parse('"\\ud83d\\ude80"') as string)).toBe(true);
  });
});

describe('findInputProblem', () => {
  it.each([
    { name: 'a clean body', value: { a: 'x', b: [1, 'y', { c: null, d: true }] }, problem: undefined },
    { name: 'NUL in a nested string', value: { creditor: { name: 'a\u0000' } }, problem: 'creditor.name: must not contain NUL (U+0000)' },
    { name: 'NUL in a list item', value: { aliases: ['ok', 'b\u0000'] }, problem: 'aliases.1: must not contain NUL (U+0000)' },
    { name: 'NUL in a key', value: { creditor: { 'na\u0000me': 'x' } }, problem: 'creditor: a key must not contain NUL (U+0000)' },
    { name: 'a lone surrogate in a top-level key', value: { '\udfff': 1 }, problem: 'a key must be valid Unicode (it holds an unpaired surrogate, U+D800 to U+DFFF)' },
    { name: 'a top-level string', value: 'x\u0000', problem: 'must not contain NUL (U+0000)' },
  ])('$name', ({ value, problem }) => {
    const found = findInputProblem(value, '');
    expect(found === undefined ? undefined : describeInputProblem(found)).toBe(problem);
  });

  it('names the root it is given', () => {
    expect(describeInputProblem(findInputProblem({ input: { name: 'a\u0000' } }, 'variables')!)).toBe('variables.input.name: must not contain NUL (U+0000)');
  });

  it('reports the first problem in document order', () => {
    expect(findInputProblem({ a: ['ok', 'x\u0000'], b: 'y\ud800' }, '')).toEqual({ kind: 'nul', field: 'a.1' });
  });

  it('walks 100,000 levels without recursion and stops at the depth limit', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const deep = JSON.parse(text) as unknown;
    expect(findInputProblem(deep, 'x', { maxDepth: 4, maxValues: 1000 })).toEqual({ kind: 'too-deep', field: 'x.0.0.0.0', limit: 4 });
  });

  it('lets exactly maxDepth levels through: 3 nested arrays at limit 3', () => {
    // [[[ "a" ]]]: the outer array is depth 0, the innermost array depth 2, the string below it.
    expect(findInputProblem([[['a']]], '', { maxDepth: 3, maxValues: 100 })).toBeUndefined();
    expect(findInputProblem([[[['a']]]], '', { maxDepth: 3, maxValues: 100 })).toEqual({ kind: 'too-deep', field: '0.0.0', limit: 3 });
  });

  it('counts values, containers included, and stops past maxValues', () => {
    // 1 array + 9 numbers = 10 values: at the limit; one more is past it.
    expect(
      findInputProblem(
        Array.from({ length: 9 }, () => 0),
        'v',
        { maxDepth: 5, maxValues: 10 },
      ),
    ).toBeUndefined();
    expect(
      findInputProblem(
        Array.from({ length: 10 }, () => 0),
        'v',
        { maxDepth: 5, maxValues: 10 },
      ),
    ).toEqual({ kind: 'too-large', field: 'v', limit: 10 });
  });

  it('skips binary bodies (a Buffer is not text)', () => {
    expect(findInputProblem(Buffer.from([0, 0xed, 0xa0, 0x80]), 'body')).toBeUndefined();
  });
});
