import { describe, expect, it } from 'vitest';
import parametersJson from '../../data/parameters/instability.json' with { type: 'json' };
import { shiftDate } from '../../domain/index.js';
import { testSeries } from '../../market/testing.js';
import { computeInstability, deficitTrend, fiscalDominanceScore, fiscalScenarioHolds, type InstabilityParameters, overallIntensity, policyScenarioHolds, usInstabilityScore } from './index.js';

const parameters = parametersJson as InstabilityParameters;
const propagation = { layerMovedAt: 60, formingWithinDays: 30 };

/** A daily series from `start` rising linearly from `from` to `to` over `days` days. */
function daily(id: string, days: number, from: number, to: number, start = '2026-01-01') {
  return testSeries(
    id,
    Array.from({ length: days + 1 }, (_, index) => [shiftDate(start, index), from + ((to - from) * index) / days] as const),
  );
}

function instabilityOf(...series: ReturnType<typeof testSeries>[]) {
  return computeInstability(new Map(series.map((one) => [one.id, one])), { layers: [], propagation }, parameters).body;
}

describe('the intensity ladder (spec §3)', () => {
  it('ACUTE at 70 on either score, ELEVATED 45, MODERATE 20, LOW below, NONE without data', () => {
    const ladder = parameters.intensity;
    expect(overallIntensity(70, 0, ladder)).toBe('ACUTE');
    expect(overallIntensity(0, 70, ladder)).toBe('ACUTE');
    expect(overallIntensity(69.9, 45, ladder)).toBe('ELEVATED');
    expect(overallIntensity(44.9, null, ladder)).toBe('MODERATE');
    expect(overallIntensity(null, 20, ladder)).toBe('MODERATE');
    expect(overallIntensity(19.9, 19.9, ladder)).toBe('LOW');
    expect(overallIntensity(null, null, ladder)).toBe('NONE');
  });
});

describe('the two scores with the spec weights', () => {
  it('US instability: policy uncertainty 40%, trade policy volatility 20%, dollar weaponization 20%, uncertainty trend 20%', () => {
    const weights = parameters.usInstability.weights;
    expect(weights).toEqual({ policyUncertainty: 0.4, tradePolicyVolatility: 0.2, dollarWeaponization: 0.2, uncertaintyTrend: 0.2 });
    const base = { policyUncertainty: 0, tradePolicyVolatility: 0, dollarWeaponization: 0, uncertaintyTrend: 0, uncertaintyLevel: 'NORMAL' };
    expect(usInstabilityScore({ ...base, policyUncertainty: 100 }, weights)).toBe(40);
    expect(usInstabilityScore({ ...base, tradePolicyVolatility: 100 }, weights)).toBe(20);
    expect(usInstabilityScore({ ...base, policyUncertainty: null, dollarWeaponization: 100 }, weights)).toBe(33.3);
    expect(usInstabilityScore({ policyUncertainty: null, tradePolicyVolatility: null, dollarWeaponization: null, uncertaintyTrend: null, uncertaintyLevel: null }, weights)).toBeNull();
  });

  it('fiscal dominance: debt to GDP 40%, deficit trend 30%, inflation expectations 30%', () => {
    const weights = parameters.fiscalDominance.weights;
    expect(weights).toEqual({ debtToGdp: 0.4, deficitTrend: 0.3, inflationExpectations: 0.3 });
    const base = { debtToGdpPct: 0, debtToGdpScore: 0, deficitTrend: null, deficitTrendScore: 0, inflationExpectationsPct: 0, inflationExpectationsScore: 0, cpiInflationPct: 0 };
    expect(fiscalDominanceScore({ ...base, debtToGdpScore: 100 }, weights)).toBe(40);
    expect(fiscalDominanceScore({ ...base, deficitTrendScore: 100, inflationExpectationsScore: 100 }, weights)).toBe(60);
  });

  it('deficit trend: the balance falling more than 5% deteriorates, rising more than 5% improves', () => {
    expect(deficitTrend(-105.01, -100, 5)).toBe('DETERIORATING');
    expect(deficitTrend(-105, -100, 5)).toBe('STABLE');
    expect(deficitTrend(-95, -100, 5)).toBe('STABLE');
    expect(deficitTrend(-94.99, -100, 5)).toBe('IMPROVING');
  });
});

describe('the US scenarios at their bounds', () => {
  const policy = parameters.scenarios.US_POLICY_INSTABILITY;
  const dominance = parameters.scenarios.US_FISCAL_DOMINANCE_RISK;

  it('US_POLICY_INSTABILITY: uncertainty HIGH or EXTREME and the US score 30 or more', () => {
    expect(policyScenarioHolds('HIGH', 30, policy)).toBe(true);
    expect(policyScenarioHolds('EXTREME', 30, policy)).toBe(true);
    expect(policyScenarioHolds('HIGH', 29.9, policy)).toBe(false);
    expect(policyScenarioHolds('ELEVATED', 90, policy)).toBe(false);
    expect(policyScenarioHolds(null, 90, policy)).toBe(false);
  });

  it('US_FISCAL_DOMINANCE_RISK: debt above 100% and (deficit deteriorating or inflation above 2.5%), score 30 or more', () => {
    const components = {
      debtToGdpPct: 100.1,
      debtToGdpScore: 0,
      deficitTrend: 'STABLE' as const,
      deficitTrendScore: 0,
      inflationExpectationsPct: 2,
      inflationExpectationsScore: 0,
      cpiInflationPct: 2.51,
    };
    expect(fiscalScenarioHolds(components, 30, dominance)).toBe(true);
    expect(fiscalScenarioHolds({ ...components, debtToGdpPct: 100 }, 30, dominance)).toBe(false);
    expect(fiscalScenarioHolds({ ...components, cpiInflationPct: 2.5 }, 30, dominance)).toBe(false);
    expect(fiscalScenarioHolds({ ...components, cpiInflationPct: 2.5, deficitTrend: 'DETERIORATING' }, 30, dominance)).toBe(true);
    expect(fiscalScenarioHolds(components, 29.9, dominance)).toBe(false);
  });
});

describe('the actors by their trigger rules', () => {
  const cny = parameters.series.cny;
  const eur = parameters.series.eur;
  const actors = (body: ReturnType<typeof instabilityOf>) => body.origins.map((origin) => [origin.actor, origin.intensity]);

  it('China: listed when CNY/USD is above 7.25 (ACUTE above 7.5), not at 7.25', () => {
    expect(actors(instabilityOf(daily(cny, 60, 7.25, 7.25)))).not.toContainEqual(['China', expect.anything()]);
    const listed = instabilityOf(daily(cny, 60, 7.2501, 7.2501));
    expect(listed.origins.find((origin) => origin.actor === 'China')).toMatchObject({ mode: 'EXPORT_CONTROLS_AND_CAPITAL_MANAGEMENT', intensity: 'ELEVATED', ongoingSince: '2026-01-01' });
    expect(actors(instabilityOf(daily(cny, 60, 7.5001, 7.5001)))).toContainEqual(['China', 'ACUTE']);
  });

  it('China: listed when the 30-day depreciation is above 2%, not at 2%', () => {
    expect(actors(instabilityOf(daily(cny, 30, 7.0, 7.14)))).not.toContainEqual(['China', expect.anything()]);
    expect(actors(instabilityOf(daily(cny, 30, 7.0, 7.1401)))).toContainEqual(['China', 'ELEVATED']);
  });

  it('European Union: listed when the EUR falls more than 3% in 30 days (ACUTE above 6%)', () => {
    expect(actors(instabilityOf(daily(eur, 30, 1, 1.03)))).not.toContainEqual(['European Union', expect.anything()]);
    expect(actors(instabilityOf(daily(eur, 30, 1, 1.035)))).toContainEqual(['European Union', 'ELEVATED']);
    expect(actors(instabilityOf(daily(eur, 30, 1, 1.07)))).toContainEqual(['European Union', 'ACUTE']);
  });

  it('Russia: always present since 2022-02-24; NONE overall and no US actor without data', () => {
    const body = instabilityOf();
    expect(body.origins).toEqual([expect.objectContaining({ actor: 'Russia', mode: 'ENERGY_WEAPONIZATION_AND_SANCTIONS_EVASION', ongoingSince: '2022-02-24' })]);
    expect(body).toMatchObject({ overallIntensity: 'NONE', scenarios: [], dataAsOf: { epuDate: null, tradeDate: null, deficitDate: null } });
  });
});
