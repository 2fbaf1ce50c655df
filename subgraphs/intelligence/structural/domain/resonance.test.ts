import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/resonance.json' with { type: 'json' };
import { seriesAsOf } from '../../domain/index.js';
import { testSeries } from '../../market/testing.js';
import { cycleCatalogue } from '../catalogues.js';
import type { CycleDefinition, ResonanceParameters } from './catalogue.js';
import { dateInQuarters } from './grid.js';
import { approachingPairs, computeResonance, type CyclePhase, readCycle, resonanceRegime, resonanceScore, synchronise } from './resonance.js';

const parameters = parametersJson as ResonanceParameters;
const catalogue = cycleCatalogue();
const degrees = (value: number) => (value * Math.PI) / 180;

/** A phased cycle for the synchrony tests: phase and velocity in degrees (per quarter). */
function phased(id: string, phaseDegrees: number, velocityDegrees = 10, amplitude = 1): CyclePhase {
  return {
    id,
    label: id,
    domain: 'financial',
    channel: `${id} channel`,
    phase: degrees(phaseDegrees),
    velocity: degrees(velocityDegrees),
    amplitude,
    history: { times: [0], unwrapped: [0] },
    asOf: '2026Q1',
  };
}

/** A quarterly cosine with period `periodYears`, dated from 1990Q1, peaking at `peakQuarter`. */
function quarterlyCycle(quarters: number, periodYears: number, peakQuarter: number) {
  return testSeries(
    'CYCLE',
    Array.from(
      { length: quarters },
      (_, q) => [`${1990 + Math.floor(q / 4)}-${String((q % 4) * 3 + 2).padStart(2, '0')}-15`, Math.cos((2 * Math.PI * (q - peakQuarter)) / (periodYears * 4))] as const,
    ),
    'quarterly',
  );
}

const testCycle: CycleDefinition = {
  id: 'economic.test',
  label: 'Test',
  domain: 'economic',
  band: { minYears: 4, maxYears: 6 },
  channel: 'test',
  indicator: { grid: 'quarterly', combine: 'mean', members: [{ series: 'CYCLE' }] },
  sign: 1,
};

describe('the cycle catalogue', () => {
  it('holds the 28 signals of the spec: 7 financial, 6 economic, 5 geopolitical, 5 climate, 5 commodity', () => {
    expect(catalogue.cycles).toHaveLength(28);
    const byDomain = Object.groupBy(catalogue.cycles, (cycle) => cycle.domain);
    expect(Object.fromEntries(Object.entries(byDomain).map(([domain, cycles]) => [domain, cycles!.length]))).toEqual({ financial: 7, economic: 6, geopolitical: 5, climate: 5, commodity: 5 });
  });
});

describe('the resonance regime (spec §3, from the top)', () => {
  it.each([
    [80, 'RESONANCE_CASCADE'],
    [79.9, 'HIGH_RESONANCE'],
    [60, 'HIGH_RESONANCE'],
    [59.9, 'ELEVATED_RESONANCE'],
    [40, 'ELEVATED_RESONANCE'],
    [39.9, 'MODERATE_RESONANCE'],
    [20, 'MODERATE_RESONANCE'],
    [19.9, 'LOW_RESONANCE'],
    [0, 'LOW_RESONANCE'],
  ])('score %d is %s', (score, regime) => {
    expect(resonanceRegime(score, parameters)).toBe(regime);
  });
});

describe('reading one cycle', () => {
  it('finds the phase of a known cycle and projects it to the day at its phase velocity', () => {
    // 120 quarters (1990Q1-2019Q4) of a 5-year cycle peaking at quarter 118 (2019Q3); read at 2020-02-15.
    const series = new Map([['CYCLE', quarterlyCycle(120, 5, 118)]]);
    const now = dateInQuarters('2020-02-15');
    const reading = readCycle(testCycle, series, now, parameters);
    if (!('phase' in reading)) throw new Error(reading.missing);
    const expected = (2 * Math.PI * (now - (1990 * 4 + 118 + 0.5))) / 20;
    expect(reading.phase.velocity).toBeCloseTo((2 * Math.PI) / 20, 2);
    expect(Math.abs(reading.phase.phase - expected)).toBeLessThan(0.05);
    expect(reading.phase.amplitude).toBeCloseTo(1, 1);
    expect(reading.phase.asOf).toBe('2019Q4');
  });

  it('names a cycle whose series is too short, too old to project, or absent', () => {
    const short = readCycle(testCycle, new Map([['CYCLE', quarterlyCycle(20, 5, 0)]]), dateInQuarters('1995-02-01'), parameters);
    expect(short).toMatchObject({ missing: expect.stringMatching(/^Test: 5 years of data, fewer than 1.5 of its shortest period/) });
    const stale = readCycle(testCycle, new Map([['CYCLE', quarterlyCycle(120, 5, 0)]]), dateInQuarters('2023-01-01'), parameters);
    expect(stale).toMatchObject({ missing: 'Test: last value 2019Q4, too old to project its phase to today' });
    expect(readCycle(testCycle, new Map(), 8000, parameters)).toMatchObject({ missing: 'Test: CYCLE not available' });
    const unseriesed = catalogue.cycles.find((cycle) => cycle.id === 'commodity.green_transition')!;
    expect(readCycle(unseriesed, snapshotSeries(), 8000, parameters)).toEqual({ missing: unseriesed.missing, used: [] });
  });
});

describe('synchrony of phased cycles', () => {
  it('clusters cycles within the resonance threshold, largest combined amplitude first, and counts resonant pairs', () => {
    const body = synchronise([phased('a.one', 0), phased('a.two', 15), phased('a.three', 100), phased('a.four', 105), phased('a.five', -120)], 0, 8000, parameters);
    expect(body.summary.resonantPairs).toBe(2);
    expect(body.clusters.map((cluster) => cluster.signals)).toEqual([
      ['a.three', 'a.four'],
      ['a.one', 'a.two'],
    ]);
    expect(body.clusters[0]).toMatchObject({ id: 'cluster-1', avgPhaseDiff: 5, domains: ['financial'] });
    expect(body.clusters[1]).toMatchObject({ id: 'cluster-2', avgPhaseDiff: 15 });
  });

  it('sums the amplitudes of a cluster as phasors: amplification √n for n equal cycles in phase', () => {
    const body = synchronise([phased('a.one', 0, 10, 1), phased('a.two', 0, 10, 1), phased('a.three', 0, 10, 1)], 0, 8000, parameters);
    expect(body.clusters[0]).toMatchObject({ combinedAmplitude: 3, amplificationFactor: round(Math.sqrt(3)), dangerLevel: 'CRITICAL' });
    expect(body.summary).toMatchObject({ systemResonanceScore: 100, regime: 'RESONANCE_CASCADE', criticalClusters: 1 });
  });

  it('rates a cluster at the trough of its cycles LOW: in phase, but not where they add stress', () => {
    const body = synchronise([phased('a.one', 180, 10, 2), phased('a.two', 175, 10, 2)], 0, 8000, parameters);
    expect(body.clusters[0]!.dangerLevel).toBe('LOW');
  });

  it('scores evenly spread cycles LOW_RESONANCE', () => {
    const spread = Array.from({ length: 12 }, (_, k) => phased(`a.c${k}`, k * 30));
    expect(resonanceScore(spread, 0, parameters)).toBe(0);
    expect(synchronise(spread, 0, 8000, parameters).summary.regime).toBe('LOW_RESONANCE');
  });

  it('finds pairs closing on each other: quarters = wrapped difference / relative angular velocity', () => {
    const alignments = approachingPairs([phased('a.lead', 60, 10), phased('a.lag', 0, 40), phased('a.away', -60, 5)], parameters);
    expect(alignments).toEqual([
      { signalA: 'a.lead', signalB: 'a.lag', currentDiff: 60, quartersToAlignment: 2, mechanism: 'a.lead (a.lead channel) and a.lag (a.lag channel): 60 degrees apart, closing 30 degrees a quarter' },
    ]);
  });

  it('leaves out pairs beyond the alignment horizon', () => {
    expect(approachingPairs([phased('a.lead', 120, 10), phased('a.lag', 0, 30)], parameters)).toEqual([]);
  });
});

describe('computeResonance on the shipped snapshot', () => {
  const today = '2026-11-22';
  const answer = computeResonance(seriesAsOf(snapshotSeries(), today), catalogue, parameters, dateInQuarters(today));

  it('phases the cycles with open, recent series and lists the others as missing', () => {
    expect(answer.missing).toHaveLength(10);
    expect(answer.missing).toContain('Monsoon variability: last value 2019, too old to project its phase to today');
    expect(answer.inputs.map((input) => input.id)).toEqual(expect.arrayContaining(['oni_noaa_cpc', 'amo_kaplan_psl', 'DRTSCILM', 'VIXCLS_1990', 'wb_crude_brent_monthly']));
  });

  it('answers a consistent summary', () => {
    const { summary, clusters, approachingAlignment } = answer.body;
    expect(summary.clusters).toBe(clusters.length);
    expect(summary.criticalClusters).toBe(clusters.filter((cluster) => cluster.dangerLevel === 'CRITICAL').length);
    expect(summary.approachingAlignment).toBe(approachingAlignment.length);
    expect(summary.regime).toBe(resonanceRegime(summary.systemResonanceScore, parameters));
    for (const cluster of clusters) expect(cluster.avgPhaseDiff).toBeLessThanOrEqual(parameters.resonanceThresholdDegrees * (cluster.signals.length - 1));
  });

  it('is deterministic', () => {
    expect(computeResonance(seriesAsOf(snapshotSeries(), today), catalogue, parameters, dateInQuarters(today))).toEqual(answer);
  });
});

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
