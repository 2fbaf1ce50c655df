import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/tectonic.json' with { type: 'json' };
import { snapshotWithout, testSeries } from '../../market/testing.js';
import { tippingPointTable } from '../../planetary/reference.js';
import { faultLineCatalogue } from '../catalogues.js';
import { type FaultStatus, parseFaultLineCatalogue, type TectonicParameters } from './catalogue.js';
import { computeTectonic, faultStatus, ownStress, slope, stressOf, tectonicRegime, transferStress, yearsToRupture } from './tectonic.js';

const parameters = parametersJson as TectonicParameters;
const catalogue = faultLineCatalogue();
const counts = (partial: Partial<Record<FaultStatus, number>>): Record<FaultStatus, number> => ({ RUPTURED: 0, CRITICAL: 0, ELEVATED: 0, BUILDING: 0, STABLE: 0, ...partial });

describe('the fault-line catalogue', () => {
  it('holds the 21 lines the spec lists, 4 demographic, 4 fiscal, 4 environmental, 4 infrastructure and 5 geopolitical structural', () => {
    expect(catalogue.faultLines).toHaveLength(21);
    const byDomain = Object.groupBy(catalogue.faultLines, (line) => line.domain);
    expect(Object.fromEntries(Object.entries(byDomain).map(([domain, lines]) => [domain, lines!.length]))).toEqual({ demographic: 4, fiscal: 4, environmental: 4, infrastructure: 4, geopolitical: 5 });
  });

  it('refuses a coupling to an unknown line and a line with neither indicator nor prior', () => {
    const raw = JSON.parse(JSON.stringify(catalogue));
    expect(() => parseFaultLineCatalogue({ ...raw, couplings: [{ source: 'fiscal.debt_supercycle', target: 'fiscal.nowhere', weight: 0.1, channel: 'x' }] })).toThrow(/unknown line/);
    expect(() => parseFaultLineCatalogue({ ...raw, faultLines: [{ id: 'fiscal.bare', label: 'Bare', domain: 'fiscal', threshold: 85 }] })).toThrow(/either an indicator/);
  });

  it('anchors permafrost rupture at the minimum published threshold of boreal permafrost collapse', () => {
    const permafrost = catalogue.faultLines.find((line) => line.id === 'environmental.permafrost_thaw')!;
    expect(permafrost.rupture).toBe(tippingPointTable().elements.find((element) => element.id === 'PFTP')!.minC);
  });
});

describe('stress, rupture time and status', () => {
  it('maps calm to 0 and rupture to the threshold, either way round, clamped to 0-100', () => {
    expect(stressOf(60, 60, 200, 85)).toBe(0);
    expect(stressOf(200, 60, 200, 85)).toBe(85);
    expect(stressOf(130, 60, 200, 85)).toBe(42.5);
    expect(stressOf(0.8, 1, 0.6, 85)).toBeCloseTo(42.5, 9);
    expect(stressOf(500, 60, 200, 85)).toBe(100);
    expect(stressOf(10, 60, 200, 85)).toBe(0);
  });

  it('years to rupture is the linear time to threshold, 0 at or past it, null without accumulation', () => {
    expect(yearsToRupture(60, 85, 2.5)).toBe(10);
    expect(yearsToRupture(85, 85, 2.5)).toBe(0);
    expect(yearsToRupture(90, 85, -1)).toBe(0);
    expect(yearsToRupture(60, 85, 0)).toBeNull();
    expect(yearsToRupture(60, 85, -0.5)).toBeNull();
  });

  it('years to rupture never rise as the accumulation rate rises (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0.01, max: 20, noNaN: true }), fc.double({ min: 0.01, max: 20, noNaN: true }), (stress, a, b) => {
        const [slow, fast] = a <= b ? [a, b] : [b, a];
        expect(yearsToRupture(stress, 85, fast)!).toBeLessThanOrEqual(yearsToRupture(stress, 85, slow)!);
      }),
    );
  });

  it('climbs the status ladder on stress over threshold, each rung at its boundary', () => {
    const at = (ratio: number) => faultStatus(ratio * 80, 80, parameters);
    expect([at(1), at(0.999)]).toEqual(['RUPTURED', 'CRITICAL']);
    expect([at(0.85), at(0.849)]).toEqual(['CRITICAL', 'ELEVATED']);
    expect([at(0.7), at(0.699)]).toEqual(['ELEVATED', 'BUILDING']);
    expect([at(0.5), at(0.499)]).toEqual(['BUILDING', 'STABLE']);
  });

  it('the slope is the least-squares rate', () => {
    expect(
      slope([
        [2000, 10],
        [2001, 12],
        [2002, 14],
      ]),
    ).toBe(2);
  });
});

describe('the tectonic regime (spec §3, from the top)', () => {
  it('is CASCADING_RUPTURE from 3 ruptured lines, whatever else', () => {
    expect(tectonicRegime(counts({ RUPTURED: 3 }), 10, parameters.regime)).toBe('CASCADING_RUPTURE');
    expect(tectonicRegime(counts({ RUPTURED: 2 }), 10, parameters.regime)).toBe('STABLE');
  });

  it('is PRE_RUPTURE from 4 critical lines', () => {
    expect(tectonicRegime(counts({ RUPTURED: 2, CRITICAL: 4 }), 10, parameters.regime)).toBe('PRE_RUPTURE');
    expect(tectonicRegime(counts({ CRITICAL: 3 }), 10, parameters.regime)).toBe('STABLE');
  });

  it('is ELEVATED_STRESS from an average of 65 and BUILDING from 50', () => {
    expect(tectonicRegime(counts({ CRITICAL: 3 }), 65, parameters.regime)).toBe('ELEVATED_STRESS');
    expect(tectonicRegime(counts({}), 64.9, parameters.regime)).toBe('BUILDING');
    expect(tectonicRegime(counts({}), 50, parameters.regime)).toBe('BUILDING');
    expect(tectonicRegime(counts({}), 49.9, parameters.regime)).toBe('STABLE');
  });
});

describe('stress transfer', () => {
  const couplings = [
    { source: 'a.one', target: 'b.two', weight: 0.2, channel: 'x' },
    { source: 'c.three', target: 'b.two', weight: 0.5, channel: 'y' },
  ];

  it('transfers weight × stress above the onset, naming the sources largest first', () => {
    const received = transferStress(
      new Map([
        ['a.one', 80],
        ['c.three', 60],
      ]),
      couplings,
      parameters,
    );
    expect(received.get('b.two')!.total).toBeCloseTo(0.2 * 30 + 0.5 * 10, 9);
    expect(received.get('b.two')!.from.map((source) => source.id)).toEqual(['a.one', 'c.three']);
  });

  it('transfers nothing at the onset', () => {
    expect(
      transferStress(
        new Map([
          ['a.one', 50],
          ['c.three', 50],
        ]),
        couplings,
        parameters,
      ).size,
    ).toBe(0);
  });
});

describe('a line without its series', () => {
  it('carries no invented level and names the series it misses', () => {
    const line = catalogue.faultLines.find((one) => one.id === 'demographic.labour_shortage')!;
    const own = ownStress(line, snapshotWithout('UNRATE'), 2026.9, parameters);
    expect(own.stress).toBe(0);
    expect(own.missing).toEqual(['Structural labour shortage: UNRATE']);
  });

  it('reads the prior of a line with no open series and states what it misses', () => {
    const line = catalogue.faultLines.find((one) => one.id === 'infrastructure.grid_fragility')!;
    const own = ownStress(line, snapshotSeries(), 2030, parameters);
    expect(own.stress).toBeCloseTo(line.prior!.baselineStress + line.prior!.accumulationRate * 10, 9);
    expect(own.missing).toEqual(line.missing);
  });

  it('takes its rate from the trend of its indicator', () => {
    const line = { ...catalogue.faultLines.find((one) => one.id === 'demographic.labour_shortage')!, indicator: { grid: 'annual' as const, combine: 'mean' as const, members: [{ series: 'TEST' }] } };
    const rising = testSeries(
      'TEST',
      Array.from({ length: 12 }, (_, index) => [`${2010 + index}-06-01`, 7 - 0.2 * index] as const),
      'annual',
    );
    const own = ownStress(line, new Map([['TEST', rising]]), 2022, parameters);
    expect(own.accumulationRate).toBeCloseTo((85 * 0.2) / 4, 9);
    expect(own.stress).toBeCloseTo((85 * (7 - 4.8)) / 4, 9);
  });
});

describe('computeTectonic on the shipped snapshot', () => {
  const answer = computeTectonic(snapshotSeries(), catalogue, parameters, 2026.9);

  it('answers every line with its node, stress, status and rupture time, and a consistent summary', () => {
    expect(answer.body.faultLines).toHaveLength(21);
    const { byStatus, avgStress, regime, mostUrgent } = answer.body.summary;
    expect(Object.values(byStatus).reduce((sum, count) => sum + count, 0)).toBe(21);
    expect(avgStress).toBeCloseTo(answer.body.faultLines.reduce((sum, line) => sum + line.currentStress, 0) / 21, 1);
    expect(regime).toBe(tectonicRegime(byStatus, avgStress, parameters.regime));
    expect(mostUrgent).toEqual(answer.body.ruptureSequence.slice(0, 3).map((entry) => entry.label));
    const years = answer.body.ruptureSequence.map((entry) => entry.yearsToRupture);
    expect(years).toEqual([...years].sort((a, b) => a - b));
  });

  it('reads the observed lines from their series and lists the inputs of the others as missing', () => {
    expect(answer.inputs.map((input) => input.id)).toEqual(
      expect.arrayContaining(['GFDEGDQ188S', 'T10YIE', 'UNRATE', 'temperature_anomaly_world_owid', 'red_list_index_world', 'un_wpp_total_dependency:JPN']),
    );
    expect(answer.missing).toHaveLength(14);
  });

  it('is deterministic', () => {
    expect(computeTectonic(snapshotSeries(), catalogue, parameters, 2026.9)).toEqual(answer);
  });

  it('composes its synthesis from the computed values', () => {
    expect(answer.body.synthesis).toContain(`average stress ${answer.body.summary.avgStress}`);
    expect(answer.body.synthesis.startsWith(answer.body.summary.regime)).toBe(true);
  });
});
