import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/commodity.json' with { type: 'json' };
import { climbLadder, type Series } from '../../domain/index.js';
import { snapshotWithout, testSeries } from '../testing.js';
import { type CommodityParameters, computeCommodityStress } from './commodity.js';
import { crossCommoditySignal, inflationLeadSignal, readDemandRegime, readFlightToSafety } from './commodity-signals.js';
import { seriesAsOfDay } from './series-pick.js';

const parameters = parametersJson as CommodityParameters;

describe('the ladders of data/parameters/commodity.json, at their bounds and just below', () => {
  it.each([
    [80, 'CRISIS'],
    [79.9, 'STRESSED'],
    [65, 'STRESSED'],
    [64.9, 'MODERATE'],
    [50, 'MODERATE'],
    [49.9, 'CALM'],
    [0, 'CALM'],
  ])('stress index %s is %s', (index, regime) => {
    expect(climbLadder(parameters.regimes, index)).toBe(regime);
  });

  it.each([
    [90, 'EXTREME'],
    [89.9, 'ELEVATED'],
    [70, 'ELEVATED'],
    [69.9, 'NORMAL'],
    [30, 'NORMAL'],
    [29.9, 'SUBDUED'],
  ])('commodity score %s is %s', (score, level) => {
    expect(climbLadder(parameters.commoditySignals, score)).toBe(level);
  });

  it.each([
    [5, 'EXPANDING'],
    [4.99, 'STABLE'],
    [-5, 'STABLE'],
    [-5.01, 'CONTRACTING'],
  ])('copper-to-gold 3-month change %s percent is demand %s', (change, regime) => {
    expect(climbLadder(parameters.demandRegime.ladder, change)).toBe(regime);
  });

  it.each([
    [10, 'UPSIDE_PRESSURE'],
    [9.99, 'MILD_UPSIDE'],
    [3, 'MILD_UPSIDE'],
    [2.99, 'NEUTRAL'],
    [-3, 'NEUTRAL'],
    [-3.01, 'MILD_DOWNSIDE'],
    [-10, 'MILD_DOWNSIDE'],
    [-10.01, 'DOWNSIDE_PRESSURE'],
  ])('energy and food %s percent over 3 months is %s', (change, level) => {
    expect(inflationLeadSignal([{ name: 'oil', change }], parameters.inflationLead).split(':')[0]).toBe(level);
  });

  it.each([
    [3, 'BROAD_STRESS'],
    [2, 'CONCENTRATED'],
    [1, 'CONCENTRATED'],
    [0, 'CONTAINED'],
  ])('%s commodities at percentile 70 or above is %s', (count, level) => {
    // One commodity exactly at the bound counts, one just below does not.
    const scores = [...Array.from({ length: count }, (_, index) => ({ name: `c${index}`, score: 70 })), { name: 'below', score: 69.9 }];
    expect(crossCommoditySignal(scores, parameters.crossCommodity).split(':')[0]).toBe(level);
  });
});

describe('commodity stress over the shipped snapshot', () => {
  const answer = computeCommodityStress(snapshotSeries(), parameters);
  const { commodities } = answer.body;

  it('pins the index and the regime', () => {
    // Commodity scores (mean over a commodity's series of (percentile of |1m move| + percentile of |3m move|) / 2,
    // each percentile over every observation of the last ten years, computed independently in Python):
    //   oil    = (Brent (78.32 + 74.85) / 2 = 76.59 ; WTI (27.08 + 83.40) / 2 = 55.24) / 2 = 65.91 -> 65.9
    //   gas    = (Henry Hub (14.02 + 28.40) / 2 = 21.21 ; TTF (31.41 + 80.17) / 2 = 55.79) / 2 = 38.50 -> 38.5
    //   gold   = (72.73 + 90.08) / 2 = 81.41 -> 81.4      wheat = (80.99 + 89.26) / 2 = 85.12 -> 85.1
    //   corn   = (19.01 + 20.66) / 2 = 19.83 -> 19.8      copper = (72.73 + 46.28) / 2 = 59.50 -> 59.5
    // index = 0.25*65.9 + 0.15*38.5 + 0.15*81.4 + 0.15*85.1 + 0.10*19.8 + 0.20*59.5 = 61.105 -> 61.1: MODERATE (50 <= 61.1 < 65)
    expect(answer.body.stressIndex).toBe(61.1);
    expect(answer.body.regime).toBe('MODERATE');
    expect([commodities.oil?.score, commodities.gas?.score, commodities.gold?.score, commodities.wheat?.score, commodities.corn?.score, commodities.copper?.score]).toEqual([
      65.9, 38.5, 81.4, 85.1, 19.8, 59.5,
    ]);
  });

  it('pins the headline prices and their changes', () => {
    // Brent 2026-08-18 95.29 against 2026-07-17 85.01 (newest on or before 2026-07-18): +12.0927% -> 12.09; WTI 86.48: spread 8.81
    expect(commodities.oil).toMatchObject({ value: 95.29, asOf: '2026-08-18', monthlyChange: 12.09, wti: 86.48, brentWtiSpread: 8.81 });
    // Wheat HRW 2026-05 303 against 2026-04 282: +7.4468% -> 7.45; against 2026-02 257.55: +17.6471% -> 17.65
    expect(commodities.wheat).toMatchObject({ value: 303, asOf: '2026-05-01', monthlyChange: 7.45, threeMonthChange: 17.65 });
    // Gold (datahub copy of the World Bank series, two months fresher) 2026-07 4073 against 2026-04 4721: -13.7259% -> -13.73
    expect(commodities.gold).toMatchObject({ value: 4073, asOf: '2026-07-01', threeMonthChange: -13.73, flightToSafety: 'ABSENT', realYield10y: 2.35 });
    // Copper/gold ratio 2026-05 13543.2/4587 = 2.95252 against 2026-02 12951.4/5020 = 2.57996: +14.44% -> EXPANDING
    expect(commodities.copper).toMatchObject({ demandRegime: 'EXPANDING', copperGoldRatioChange: 14.44 });
    // TTF is the second gas series: its price and date are shown beside Henry Hub's
    expect(commodities.gas).toMatchObject({ value: 2.82, europeTtf: 16.17, europeTtfAsOf: '2026-05-01' });
  });

  it('reads the inflation lead and the cross-commodity picture', () => {
    // 0.4 * (-18.37 Brent) + 0.2 * (-8.14 Henry Hub) + 0.2 * 17.65 + 0.2 * 3.14 = -4.82: MILD_DOWNSIDE (-10 <= -4.82 < -3)
    expect(answer.body.inflationLeadSignal).toMatch(/^MILD_DOWNSIDE: energy and food -4\.8% over 3 months/);
    // gold 81.4 and wheat 85.1 at 70 or above: two, CONCENTRATED
    expect(answer.body.crossCommoditySignal).toMatch(/^CONCENTRATED: 2 of 6 commodities .* \(gold, wheat\)/);
    expect(answer.body.narrative).toContain('Stress index 61.1');
  });

  it('has every documented field with its type, and says the drought inputs are missing', () => {
    for (const reading of Object.values(commodities)) {
      expect(reading).toMatchObject({ value: expect.any(Number), signal: expect.any(String), score: expect.any(Number), asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
      expect(typeof reading.monthlyChange).toBe('number');
    }
    expect(commodities.wheat?.droughtExposure).toMatch(/^UNKNOWN: /);
    expect(commodities.corn?.droughtExposure).toMatch(/^UNKNOWN: /);
    expect(answer.missing).toEqual(parameters.droughtExposure.missing);
    expect(answer.inputs.map((input) => input.id)).toEqual([
      'brent_daily_eia',
      'wti_daily_eia',
      'henry_hub_daily_eia',
      'wb_natgas_europe_ttf_monthly',
      'gold_monthly_datahub',
      'wb_wheat_us_hrw_monthly',
      'wb_maize_monthly',
      'wb_copper_monthly',
      'DFII10',
      'VIXCLS',
    ]);
  });
});

describe('commodity stress with an input taken away', () => {
  it('leaves a commodity out, names its series and renormalises the weights', () => {
    const answer = computeCommodityStress(snapshotWithout('wb_maize_monthly'), parameters);
    // Without corn (weight 0.10): (0.25*65.9 + 0.15*38.5 + 0.15*81.4 + 0.15*85.1 + 0.20*59.5) / 0.90 = 59.125 / 0.9 = 65.69 -> 65.7: STRESSED
    expect(answer.body.stressIndex).toBe(65.7);
    expect(answer.body.regime).toBe('STRESSED');
    expect(answer.body.commodities.corn).toBeUndefined();
    expect(answer.missing).toContain('corn: wb_maize_monthly');
  });

  it('falls back to the World Bank gold series when the fresher copy is absent, and reports only the one used', () => {
    const answer = computeCommodityStress(snapshotWithout('gold_monthly_datahub'), parameters);
    expect(answer.body.commodities.gold).toMatchObject({ value: 4587.21, asOf: '2026-05-01' });
    const ids = answer.inputs.map((input) => input.id);
    expect(ids).toContain('wb_gold_monthly');
    expect(ids).not.toContain('gold_monthly_datahub');
  });

  it('names the slot when neither gold series is there, and copper demand becomes UNKNOWN', () => {
    const answer = computeCommodityStress(snapshotWithout('gold_monthly_datahub', 'wb_gold_monthly'), parameters);
    expect(answer.missing).toContain('gold: gold_monthly_datahub or wb_gold_monthly');
    expect(answer.body.commodities.copper?.demandRegime).toBe('UNKNOWN');
  });
});

describe('commodity stress on a day in the past', () => {
  it('sees only the observations dated by then', () => {
    const answer = computeCommodityStress(seriesAsOfDay(snapshotSeries(), '2026-06-30'), parameters);
    // gold (datahub) 2026-06-01 4228 against 2026-05-01 4587: -7.8266% -> -7.83; Brent's last day by then is in June
    expect(answer.body.commodities.gold).toMatchObject({ value: 4228, asOf: '2026-06-01', monthlyChange: -7.83 });
    expect(answer.body.commodities.oil?.asOf.slice(0, 7)).toBe('2026-06');
    expect(answer.inputs.every((input) => input.asOf <= '2026-06-30')).toBe(true);
  });
});

describe('gold as a safe haven', () => {
  /** Monthly gold: 100 three months before the last month, then `last`. */
  const gold = (last: number) =>
    testSeries(
      'gold',
      [
        ['2026-01-01', 100],
        ['2026-02-01', 100],
        ['2026-03-01', 100],
        ['2026-04-01', last],
      ],
      'monthly',
    ).observations;
  const realYield = (change: number): Series =>
    testSeries('DFII10', [
      ['2026-01-01', 2],
      ['2026-04-01', 2 + change],
    ]);
  /** A fear gauge whose last value ranks at `percentile` of its ten values. */
  const fearGauge = (percentile: number): Series =>
    testSeries(
      'VIXCLS',
      Array.from({ length: 10 }, (_, index) => [`2026-03-${String(index + 10)}`, index < 9 ? (index + 1) * 10 : percentile] as const),
    );
  const read = (goldLast: number, yieldChange: number, fear: number) =>
    readFlightToSafety(
      gold(goldLast),
      new Map([
        ['DFII10', realYield(yieldChange)],
        ['VIXCLS', fearGauge(fear)],
      ]),
      parameters.flightToSafety,
      10,
    ).state;

  it.each([
    // gold +5% (the bound) with real yields flat (0 >= -0.1): the rally is not the real yields' doing
    [105, 0, 5, 'ACTIVE'],
    // +5% with real yields down exactly 0.1pp (at the bound: not falling enough to explain it)
    [105, -0.1, 5, 'ACTIVE'],
    // +5% with real yields down 0.2pp and a calm fear gauge: explained by real yields
    [105, -0.2, 5, 'WATCH'],
    // +5% explained by real yields, but the fear gauge at its top: ACTIVE
    [105, -0.2, 95, 'ACTIVE'],
    // +4.99%: no rally; the fear gauge at its top alone: WATCH
    [104.99, 0, 95, 'WATCH'],
    [104.99, 0, 5, 'ABSENT'],
  ])('gold %s, real yield %spp, fear gauge value %s: %s', (goldLast, yieldChange, fear, state) => {
    expect(read(goldLast, yieldChange, fear)).toBe(state);
  });

  it('names the inputs it misses', () => {
    const reading = readFlightToSafety(gold(110), new Map(), parameters.flightToSafety, 10);
    expect(reading.state).toBe('WATCH');
    expect(reading.missing).toEqual(['gold.flightToSafety: DFII10', 'gold.flightToSafety: VIXCLS']);
  });
});

describe('copper demand', () => {
  it('reads the copper-to-gold ratio on the months both series have', () => {
    const copper = testSeries(
      'cu',
      [
        ['2026-01-01', 100],
        ['2026-02-01', 100],
        ['2026-03-01', 100],
        ['2026-04-01', 110],
      ],
      'monthly',
    ).observations;
    const gold = testSeries(
      'au',
      [
        ['2026-01-01', 100],
        ['2026-04-01', 100],
        ['2026-05-01', 50],
      ],
      'monthly',
    ).observations;
    // Common months 2026-01 (1.0) and 2026-04 (1.1): +10% -> EXPANDING; gold's May has no copper beside it
    expect(readDemandRegime(copper, gold, parameters.demandRegime)).toEqual({ regime: 'EXPANDING', ratioChange: 10 });
  });
});
