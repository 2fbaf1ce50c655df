import { describe, expect, it } from 'vitest';
import parameters from '../../data/intelligence-parameters.json' with { type: 'json' };
import { draftIntelligence, intelligenceFrom, outlookOf } from './intelligence.js';

const input = {
  topic: 'stability',
  score: 91,
  previousScores: [90, 90],
  confidencePct: 80,
  alerts: ['peg', 'yield curve', 'gold', 'breakeven'],
  drivers: ['Driver one.'],
  facts: { band: 'stable' },
};

describe('outlookOf', () => {
  it('compares the score with the mean of the previous runs, the threshold itself counting as STABLE', () => {
    expect(outlookOf(92, [90, 90], 80, parameters)).toEqual({ outlook: 'STABLE', change: 2 });
    expect(outlookOf(92.1, [90, 90], 80, parameters)).toEqual({ outlook: 'IMPROVING', change: 2.1 });
    expect(outlookOf(87.9, [90, 90], 80, parameters)).toEqual({ outlook: 'DETERIORATING', change: -2.1 });
  });

  it('uses only the latest trendRuns runs, and no history reads STABLE', () => {
    expect(outlookOf(50, [50, 50, 50, 50, 50, 50, 0, 0], 80, parameters).outlook).toBe('STABLE');
    expect(outlookOf(50, [], 80, parameters)).toEqual({ outlook: 'STABLE', change: null });
  });

  it('is UNCERTAIN below the minimum confidence, whatever the trend', () => {
    expect(outlookOf(99, [50], 49.9, parameters).outlook).toBe('UNCERTAIN');
    expect(outlookOf(99, [50], 50, parameters).outlook).toBe('IMPROVING');
  });
});

describe('draftIntelligence', () => {
  it('keeps at most 3 alerts, confidence as 0-1, and writes every driver into the rule-based text', () => {
    const draft = draftIntelligence(input, parameters);
    expect(draft.alerts).toEqual(['peg', 'yield curve', 'gold']);
    expect(draft.confidence).toBe(0.8);
    expect(draft.ruleBasedText).toContain('Driver one.');
    expect(draft.ruleBasedText).toContain('+1 points');
    expect(draft.facts).toMatchObject({ band: 'stable', score: 91, outlook: 'STABLE' });
  });

  it('is deterministic', () => {
    expect(draftIntelligence(input, parameters)).toEqual(draftIntelligence(input, parameters));
  });

  it('the synthesiser writes only the reasoning', () => {
    const object = intelligenceFrom(draftIntelligence(input, parameters), { text: 'Prose.', model: 'm', generatedAt: '2026-11-22T12:00:00.000Z' });
    expect(object).toEqual({ reasoning: 'Prose.', confidence: 0.8, alerts: ['peg', 'yield curve', 'gold'], outlook: 'STABLE', model: 'm', generatedAt: '2026-11-22T12:00:00.000Z' });
  });
});
