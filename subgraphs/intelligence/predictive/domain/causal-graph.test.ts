import { describe, expect, it } from 'vitest';
import type { Series, SeriesSet } from '../../domain/index.js';
import { type CatalogueNetwork, type CausalGraphParameters, computeCausalGraph, indicatorStress, type MeasuredStress } from './causal-graph.js';

const PARAMETERS: CausalGraphParameters = { lookbackYears: 1, sampleEveryDays: 30, hotAtLeast: 80, hottestEdges: 2, indicators: {} };

/** A monthly series: one value per month from 2025-01-01. */
function monthly(id: string, values: readonly number[]): Series {
  const observations = values.map((value, index) => ({ date: `${2025 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`, value }));
  return { id, title: id, units: 'index', frequency: 'monthly', publisher: 'test', url: 'https://example.org', licence: 'test', asOf: observations.at(-1)!.date, live: false, observations };
}

const setOf = (...series: Series[]): SeriesSet => new Map(series.map((one) => [one.id, one]));

describe('indicatorStress: the reading ranked against its own history, in the stress direction', () => {
  const rising = setOf(monthly('X', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]));
  it('up: the highest reading of the window is 100', () => {
    expect(indicatorStress(rising, { series: 'X', measure: 'level', direction: 'up', why: '' }, PARAMETERS)?.stress).toBe(100);
  });
  it('down: the highest reading is the least stressed, counted with its ties', () => {
    const stress = indicatorStress(rising, { series: 'X', measure: 'level', direction: 'down', why: '' }, PARAMETERS)!.stress;
    expect(stress).toBeGreaterThan(0);
    expect(stress).toBeLessThan(10);
  });
  it('either: a fall as large as any rise is as stressed as the rise', () => {
    const falling = setOf(monthly('Y', [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]));
    const indicator = { series: 'Y', measure: 'changeBy' as const, days: 31, direction: 'either' as const, why: '' };
    expect(indicatorStress(falling, indicator, PARAMETERS)?.stress).toBe(indicatorStress(setOf(monthly('Y', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])), indicator, PARAMETERS)?.stress);
  });
  it('names the series, its reading and its date as evidence', () => {
    expect(indicatorStress(rising, { series: 'X', measure: 'level', direction: 'up', why: '' }, PARAMETERS)?.evidence).toMatchObject({ source: 'X', value: 13, asOf: '2026-01-01' });
  });
  it('is null when the series is not in the dataset or there is no indicator: never a guess', () => {
    expect(indicatorStress(rising, { series: 'absent', measure: 'level', direction: 'up', why: '' }, PARAMETERS)).toBeNull();
    expect(indicatorStress(rising, undefined, PARAMETERS)).toBeNull();
  });
});

describe('computeCausalGraph', () => {
  const measured = (stress: number): MeasuredStress => ({ stress, evidence: { source: 's', title: 's', measure: 'level', value: stress, asOf: '2026-01-01' } });
  const stresses: Record<string, MeasuredStress> = { a: measured(90), b: measured(40) };
  const network: CatalogueNetwork = {
    model: 'test',
    usedBy: ['test'],
    stressMethod: 'fixed',
    nodes: [
      { id: 'a', label: 'A', domain: 'd' },
      { id: 'b', label: 'B', domain: 'd' },
      { id: 'c', label: 'C', domain: 'd' },
    ],
    edges: [
      { from: 'a', to: 'b', weight: 0.5, class: 'k', mechanism: 'a to b' },
      { from: 'b', to: 'c', weight: 0.25, class: 'k', mechanism: 'b to c' },
      { from: 'c', to: 'a', weight: 0.9, class: 'k', mechanism: 'c to a' },
    ],
    stressOf: (id) => stresses[id] ?? null,
  };
  const { graph } = computeCausalGraph([network], PARAMETERS);

  it('an edge carries its source stress times its weight, and never more than its source', () => {
    expect(graph.networks[0]!.edges.map((edge) => edge.stress)).toEqual([45, 10, null]);
  });
  it('an edge from an unmeasured node carries no stress and no evidence', () => {
    expect(graph.networks[0]!.edges[2]).toMatchObject({ stress: null, evidence: null });
  });
  it('summarises measured counts, the mean edge stress, the hot nodes and the hottest edges first', () => {
    expect(graph.summary).toMatchObject({ nodes: 3, edges: 3, measuredNodes: 2, measuredEdges: 2, systemStress: 27.5, hotNodes: ['a'] });
    expect(graph.summary.hottestEdges.map((edge) => `${edge.from}->${edge.to}`)).toEqual(['a->b', 'b->c']);
    expect(graph.synthesis).toContain('a -> b (45)');
  });
});
