import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import shippingJson from '../../data/parameters/shipping-stress.json' with { type: 'json' };
import supplyChainJson from '../../data/parameters/supply-chain.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { computeShippingStress, type GaugesParameters, type ShippingStressParameters } from './index.js';
import { testSeries, withoutSeries, withSeries } from './testing.js';

const parameters = shippingJson as ShippingStressParameters;
const gauges = supplyChainJson as GaugesParameters;
const snapshot = snapshotSeries();
const TODAY = '2026-11-22';

describe('shipping-stress against the shipped snapshot', () => {
  const { body, inputs, missing } = computeShippingStress(snapshot, parameters, gauges, TODAY);

  it('scores each freight mode from its open substitute', () => {
    // ocean: GSCPI 2026-06 = 1.249 is at or above 90 of the 121 monthly values since 2016-06-01: 74.38 -> 74.4 STRESSED
    expect(body.modes.ocean).toMatchObject({ score: 74.4, status: 'STRESSED', asOf: '2026-06-01', stale: true });
    // air and truck: Brent 2026-08-18 = 95.29 is at or above 2319 of the 2537 daily prices since 2016-08-18: 91.41 -> 91.4 SEVERE
    expect(body.modes.air).toMatchObject({ score: 91.4, status: 'SEVERE' });
    expect(body.modes.truck).toMatchObject({ score: 91.4, status: 'SEVERE' });
    // rail: 2026-01-14 BNSF 27.5 mph at the 95.43rd and UP 27.3 mph at the 97.61st percentile of 460 weeks: fast trains,
    // 100 - (95.43 + 97.61) / 2 = 3.48 -> 3.5 CALM
    expect(body.modes.rail).toMatchObject({ score: 3.5, status: 'CALM', asOf: '2026-01-14' });
    // inland waterways: Kaub SEVERE 95, Mississippi MODERATE 50, Great Lakes LOW 10 -> 155 / 3 = 51.67 -> 51.7 NORMAL; oldest reading 2026-01-01
    expect(body.modes.inlandWaterway).toMatchObject({ score: 51.7, status: 'NORMAL', asOf: '2026-01-01', stale: true });
    for (const mode of Object.values(body.modes)) expect(mode.missing.length).toBeGreaterThan(0);
  });

  it('weights the modes into the composite index and its regime', () => {
    // 0.35 x 74.4 + 0.1 x 91.4 + 0.2 x 91.4 + 0.15 x 3.5 + 0.2 x 51.7 = 26.04 + 9.14 + 18.28 + 0.525 + 10.34 = 64.325 -> 64.3 (weights sum to 1)
    expect(body.compositeIndex).toBe(64.3);
    expect(body.regime).toBe('STRESSED');
  });

  it('reads the energy cost driver from Brent', () => {
    // 95.29 against 85.01 on 2026-07-17 (+12.09 %) and 108.93 on 2026-05-20 (-12.52 %)
    expect(body.energyCosts).toEqual({
      brentUsd: 95.29,
      asOf: '2026-08-18',
      change30dPct: 12.09,
      change90dPct: -12.52,
      percentile: 91.4,
      costPressure: 'HIGH',
      basis: expect.stringContaining('Brent'),
    });
  });

  it('rates eight trade routes by their worst driver', () => {
    expect(Object.keys(body.tradeRoutes)).toHaveLength(8);
    const status = Object.fromEntries(Object.entries(body.tradeRoutes).map(([name, route]) => [name, [route.status, route.score]]));
    expect(status).toEqual({
      transPacific: ['DISRUPTED', 74.4], // max(ocean 74.4, rail 3.5)
      asiaNorthEurope: ['DISRUPTED', 74.4],
      transatlantic: ['DISRUPTED', 74.4],
      asiaUsEastCoastViaPanama: ['DISRUPTED', 74.4], // the Panama gauge is unavailable: ocean alone
      usGulfGrainExports: ['DISRUPTED', 74.4], // max(ocean 74.4, Mississippi MODERATE 50)
      rhineCorridor: ['SEVERELY_DISRUPTED', 95], // max(truck 91.4, Kaub SEVERE 95)
      greatLakesStLawrence: ['NORMAL', 10],
      northAmericaCrossBorder: ['SEVERELY_DISRUPTED', 91.4],
    });
    expect(body.tradeRoutes.asiaUsEastCoastViaPanama!.missingDrivers).toEqual(['panamaCanal gauge']);
    expect(body.tradeRoutes.rhineCorridor!.drivers).toEqual(['truck SEVERE (91.4)', 'rhineKaub EXTREME_LOW (25.9 cm on 2026-09-09)']);
  });

  it('maps logistics onto settlement: invoice delays, trade finance and the corridors of disrupted routes', () => {
    // composite 64.3 in [60, 75) -> HIGH; ocean 74.4 in [55, 75) -> ELEVATED; every route but the Great Lakes is disrupted
    expect(body.settlementRelevance).toEqual({
      invoiceDelayRisk: 'HIGH',
      tradeFinanceStress: 'ELEVATED',
      affectedCorridors: ['EUR_CHF', 'EUR_CNY', 'EUR_JPY', 'EUR_KRW', 'USD_CAD', 'USD_CNY', 'USD_EUR', 'USD_GBP', 'USD_JPY', 'USD_KRW', 'USD_MXN', 'USD_TWD'],
      guidance: parameters.settlement.guidance.HIGH,
    });
  });

  it('names each input once and each missing input', () => {
    expect(inputs.map((input) => input.id).sort()).toEqual([
      'GSCPI',
      'brent_daily_eia',
      'great_lakes_michigan_huron_monthly_m',
      'mississippi_st_louis_daily_ft',
      'rhine_kaub_daily_cm',
      'stb_train_speed_bnsf_weekly_mph',
      'stb_train_speed_up_weekly_mph',
    ]);
    expect(missing).toContain('modes.ocean: Baltic Dry Index: proprietary');
    expect(missing).toContain('waterLevels.panamaCanal: Gatun Lake level (Panama Canal Authority); no open, licensed copy found in a public repository');
  });
});

describe('shipping-stress when inputs are missing or move', () => {
  it('leaves a mode without inputs out of the composite and renormalises the weights', () => {
    const answer = computeShippingStress(withoutSeries(snapshot, 'stb_train_speed_bnsf_weekly_mph', 'stb_train_speed_up_weekly_mph'), parameters, gauges, TODAY);
    expect(answer.body.modes.rail).toMatchObject({ score: null, status: 'UNKNOWN' });
    // (26.04 + 9.14 + 18.28 + 10.34) / 0.85 = 63.8 / 0.85 = 75.06 -> 75.1 SEVERE
    expect(answer.body.compositeIndex).toBe(75.1);
    expect(answer.body.regime).toBe('SEVERE');
    expect(answer.missing).toContain('modes.rail: stb_train_speed_bnsf_weekly_mph');
  });

  it('inverts train speed: the slower of two weeks scores 50 on rail', () => {
    const slow = (id: string) =>
      testSeries(
        id,
        [
          ['2026-01-07', 25],
          ['2026-01-14', 20],
        ],
        'weekly',
      );
    const answer = computeShippingStress(withSeries(snapshot, slow('stb_train_speed_bnsf_weekly_mph'), slow('stb_train_speed_up_weekly_mph')), parameters, gauges, TODAY);
    // 20 mph is the lower of two: percentile 50, inverted 50 -> NORMAL
    expect(answer.body.modes.rail).toMatchObject({ score: 50, status: 'NORMAL' });
  });
});

describe('shipping-stress ladders at their bounds', () => {
  type Case = [number, string];
  const cases: Record<string, { ladder: Parameters<typeof climbLadder<string>>[0]; cases: Case[] }> = {
    modeStatus: {
      ladder: parameters.modeStatus,
      cases: [
        [85, 'SEVERE'],
        [84.9, 'STRESSED'],
        [65, 'STRESSED'],
        [64.9, 'NORMAL'],
        [30, 'NORMAL'],
        [29.9, 'CALM'],
      ],
    },
    regimes: {
      ladder: parameters.regimes,
      cases: [
        [75, 'SEVERE'],
        [74.9, 'STRESSED'],
        [60, 'STRESSED'],
        [59.9, 'MODERATE'],
        [40, 'MODERATE'],
        [39.9, 'CALM'],
      ],
    },
    routeStatus: {
      ladder: parameters.routeStatus,
      cases: [
        [85, 'SEVERELY_DISRUPTED'],
        [84.9, 'DISRUPTED'],
        [65, 'DISRUPTED'],
        [64.9, 'WATCH'],
        [45, 'WATCH'],
        [44.9, 'NORMAL'],
      ],
    },
    invoiceDelayRisk: {
      ladder: parameters.settlement.invoiceDelayRisk,
      cases: [
        [75, 'SEVERE'],
        [74.9, 'HIGH'],
        [60, 'HIGH'],
        [59.9, 'MODERATE'],
        [40, 'MODERATE'],
        [39.9, 'LOW'],
      ],
    },
    tradeFinanceStress: {
      ladder: parameters.settlement.tradeFinanceStress,
      cases: [
        [75, 'HIGH'],
        [74.9, 'ELEVATED'],
        [55, 'ELEVATED'],
        [54.9, 'NORMAL'],
        [25, 'NORMAL'],
        [24.9, 'LOW'],
      ],
    },
    costPressure: {
      ladder: parameters.energy.costPressure,
      cases: [
        [80, 'HIGH'],
        [79.9, 'ELEVATED'],
        [60, 'ELEVATED'],
        [59.9, 'NORMAL'],
        [30, 'NORMAL'],
        [29.9, 'LOW'],
      ],
    },
  };

  it.each(Object.keys(cases))('%s: each bound reached and just missed', (name) => {
    const { ladder, cases: values } = cases[name]!;
    expect(values.map(([value]) => climbLadder(ladder, value))).toEqual(values.map(([, regime]) => regime));
  });
});
