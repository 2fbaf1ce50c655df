import { describe, expect, it } from 'vitest';
import { evaluateMatcher, type LabelledNamePair } from './evaluation.js';

const pair = (a: string, b: string, match: boolean): LabelledNamePair => ({ a, b, match, category: 'test', note: 'test pair' });
const scores: Record<string, number> = { tp: 0.9, fp: 0.8, fn: 0.5, tn: 0.1, edge: 0.7 };
const similarity = (a: string) => scores[a] ?? 0;

describe('evaluateMatcher', () => {
  it.each([
    [
      'one of each',
      [pair('tp', '', true), pair('fp', '', false), pair('fn', '', true), pair('tn', '', false)],
      { truePositives: 1, falsePositives: 1, falseNegatives: 1, trueNegatives: 1, precision: 0.5, recall: 0.5 },
    ],
    ['a score at the threshold counts as a match', [pair('edge', '', true)], { truePositives: 1, precision: 1, recall: 1 }],
    ['nothing predicted: precision 1', [pair('fn', '', true), pair('tn', '', false)], { truePositives: 0, precision: 1, recall: 0 }],
    ['no labelled match: recall 1', [pair('tn', '', false)], { precision: 1, recall: 1 }],
  ])('%s', (_, pairs, expected) => {
    expect(evaluateMatcher(pairs, similarity, 0.7)).toMatchObject(expected);
  });

  it('lists the errors with their scores', () => {
    const { errors } = evaluateMatcher([pair('tp', '', true), pair('fp', 'x', false), pair('fn', 'y', true)], similarity, 0.7);
    expect(errors.map((e) => [e.a, e.score, e.predicted])).toEqual([
      ['fp', 0.8, true],
      ['fn', 0.5, false],
    ]);
  });
});
