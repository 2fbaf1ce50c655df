import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/fx-settlement.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { snapshotWithout } from '../testing.js';
import { computeFxSettlement, type FxSettlementParameters, settlementBufferBps } from './fx-settlement.js';

const parameters = parametersJson as FxSettlementParameters;
const TODAY = '2026-11-22';

describe('the corridor ladder and timing of data/parameters/fx-settlement.json', () => {
  it.each([
    [90, 'STRESSED', 'DEFER'],
    [89.9, 'ELEVATED', 'STAGGER'],
    [70, 'ELEVATED', 'STAGGER'],
    [69.9, 'NORMAL', 'SETTLE_NOW'],
    [30, 'NORMAL', 'SETTLE_NOW'],
    [29.9, 'CALM', 'SETTLE_NOW'],
  ] as const)('the larger percentile %s is %s: %s', (percentile, regime, timing) => {
    expect(climbLadder(parameters.regimes, percentile)).toBe(regime);
    expect(parameters.recommendations[regime]).toBe(timing);
  });
});

describe('the settlement buffer', () => {
  it.each([
    // z 2.326 x (vol / 100 / sqrt(252)) x sqrt(48 / 24) x 10,000, rounded up
    // 5.0226: 2.326 x 0.0031639 x 1.41421 x 10,000 = 104.08 -> 105
    [5.0226048, 48, 105],
    // 11.4697: 237.67 -> 238
    [11.4697192, 48, 238],
    // 24 hours: sqrt(1): 5.0226 -> 73.59 -> 74
    [5.0226048, 24, 74],
    // 0.2% (a peg): 4.14 -> 5, the floor
    [0.2, 48, 5],
  ])('volatility %s percent over %s hours: %s bps', (volatility, hours, bps) => {
    expect(settlementBufferBps(volatility, hours, parameters.buffer)).toBe(bps);
  });
});

describe('fx settlement over the shipped snapshot', () => {
  const answer = computeFxSettlement(snapshotSeries(), parameters, { today: TODAY });
  const { corridors } = answer.body;

  it('covers every configured corridor, each with the documented fields', () => {
    expect(Object.keys(corridors)).toEqual(Object.keys(parameters.corridors));
    for (const corridor of Object.values(corridors)) {
      expect(corridor).toEqual({
        base: 'USD',
        quote: expect.any(String),
        rate: expect.any(Number),
        asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        rateAgeDays: expect.any(Number),
        change30dPct: expect.any(Number),
        movePercentile: expect.any(Number),
        realisedVolatility30d: expect.any(Number),
        volatilityPercentile: expect.any(Number),
        regime: expect.stringMatching(/^(CALM|NORMAL|ELEVATED|STRESSED)$/),
        settlementBufferBps: expect.any(Number),
        recommendation: expect.stringMatching(/^(SETTLE_NOW|STAGGER|DEFER)$/),
        reasons: expect.any(Array),
        carry: corridor.carry === null ? null : expect.any(Object),
      });
    }
    expect(answer.body.horizonHours).toBe(48);
  });

  it('pins USD_EUR, its carry and the age of its rate', () => {
    // EUR: +1.2623% (0.8744 -> 0.8635 EUR per USD), move percentile 49.62, 30-day volatility 5.0226% at percentile 25.07:
    // the larger percentile 49.62 -> NORMAL -> SETTLE_NOW; buffer 105 bps (above)
    expect(corridors.USD_EUR).toMatchObject({
      rate: 0.8635,
      asOf: '2026-08-14',
      change30dPct: 1.26,
      movePercentile: 49.6,
      realisedVolatility30d: 5.02,
      volatilityPercentile: 25.1,
      regime: 'NORMAL',
      settlementBufferBps: 105,
      recommendation: 'SETTLE_NOW',
      // 2026-08-14 to 2026-11-22: 17 + 30 + 31 + 22 = 100 days
      rateAgeDays: 100,
    });
    // SOFR 3.65 (2026-08-06) - €STR 2.185 (2026-08-05) = 1.465pp = 146.5 bps a year; over 48 hours: 146.5 x 2 / 360 = 0.8139 -> 0.81
    expect(corridors.USD_EUR?.carry).toEqual({ usdRateName: 'SOFR', usdRate: 3.65, quoteRateName: '€STR', quoteRate: 2.185, differentialBps: 146.5, horizonCarryBps: 0.81, asOf: '2026-08-05' });
    expect(corridors.USD_EUR?.reasons.at(-1)).toBe('the rate is 100 days old (2026-08-14): confirm a live quote before converting');
  });

  it('pins the corridors that are not SETTLE_NOW, and the summary', () => {
    // JPY volatility percentile 85.30: 70 <= 85.30 < 90: ELEVATED -> STAGGER; buffer 238 bps
    expect(corridors.USD_JPY).toMatchObject({ regime: 'ELEVATED', recommendation: 'STAGGER', settlementBufferBps: 238, carry: null });
    // CHF volatility percentile 74.29 (move 24.87): ELEVATED -> STAGGER
    expect(corridors.USD_CHF).toMatchObject({ regime: 'ELEVATED', recommendation: 'STAGGER' });
    // KRW +5.24% in 30 days, move size percentile 96.96 >= 90: STRESSED -> DEFER
    expect(corridors.USD_KRW).toMatchObject({ regime: 'STRESSED', recommendation: 'DEFER', movePercentile: 97 });
    expect(answer.body.summary.stagger).toEqual(['USD_JPY', 'USD_CHF']);
    expect(answer.body.summary.defer).toEqual(['USD_KRW']);
    // ZAR 30-day volatility 12.4566%: 2.326 x 0.124566/sqrt(252) x sqrt(2) x 10,000 = 258.1 -> 259, the widest
    expect(answer.body.summary.widestBuffer).toEqual({ corridor: 'USD_ZAR', settlementBufferBps: 259 });
  });

  it('narrows to one corridor, and reports only its inputs', () => {
    const one = computeFxSettlement(snapshotSeries(), parameters, { today: TODAY, corridor: 'USD_GBP' });
    expect(Object.keys(one.body.corridors)).toEqual(['USD_GBP']);
    expect(one.inputs.map((input) => input.id)).toEqual(['fx_daily_GBP_per_USD', 'SOFR_daily', 'SONIA_daily']);
    // SOFR 3.65 - SONIA 3.7313 = -8.13bp -> -8.1: holding GBP pays more
    expect(one.body.corridors.USD_GBP?.carry).toMatchObject({ differentialBps: -8.1, horizonCarryBps: -0.05 });
  });

  it('names a missing rate series and a missing carry rate', () => {
    const partial = computeFxSettlement(snapshotWithout('fx_daily_MXN_per_USD', 'ESTR_daily'), parameters, { today: TODAY });
    expect(partial.body.corridors.USD_MXN).toBeUndefined();
    expect(partial.body.corridors.USD_EUR?.carry).toBeNull();
    expect(partial.missing).toEqual(['USD_EUR.carry: ESTR_daily', 'USD_MXN: fx_daily_MXN_per_USD']);
  });

  it('refuses a corridor it does not know (the endpoint answers 400 before it gets here)', () => {
    expect(() => computeFxSettlement(snapshotSeries(), parameters, { today: TODAY, corridor: 'USD_XYZ' })).toThrow(/unknown corridor USD_XYZ/);
  });
});
