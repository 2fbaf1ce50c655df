import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import parametersJson from '../../data/parameters/mycelium.json' with { type: 'json' };
import type { CurrencyStress } from '../../market/domain/index.js';
import { computeMycelium, fruitingProbability, leadTimeWeeks, type MyceliumParameters, networkRegime } from './index.js';

const parameters = parametersJson as unknown as MyceliumParameters;

/** A currency-stress body with every currency at `score`: the currency nodes' only input. */
function currenciesAt(score: number): CurrencyStress {
  const entry = { signal: '', '30dChange': '+0.00%', score, rate: 1, asOf: '2026-01-01' };
  const codes = ['CNY', 'INR', 'BRL', 'MXN', 'KRW', 'ZAR', 'THB', 'MYR', 'SGD', 'TWD'];
  return {
    dollarRegime: 'RANGE_BOUND',
    stressIndex: score,
    g10: { JPY: entry, EUR: entry },
    emergingMarkets: Object.fromEntries(codes.map((code) => [code, entry])),
    settlementCorridorImpact: {},
    narrative: '',
  };
}

function networkAt(score: number) {
  return computeMycelium({ date: '2026-01-01', series: new Map(), currencyStress: currenciesAt(score) }, undefined, parameters, {}).body;
}

describe('the network regime ladder (decision 0070)', () => {
  it('on network stress (100 - health): FRUITING_BODY_IMMINENT 70, DEAD_ZONE_FORMING 55, STRESSED_CONNECTIVITY 45, THINNING 35, HEALTHY below', () => {
    const regime = (health: number) => networkRegime(health, 0, parameters);
    expect([regime(30), regime(30.1), regime(45), regime(45.1), regime(55), regime(55.1), regime(65), regime(65.1)]).toEqual([
      'FRUITING_BODY_IMMINENT',
      'DEAD_ZONE_FORMING',
      'DEAD_ZONE_FORMING',
      'STRESSED_CONNECTIVITY',
      'STRESSED_CONNECTIVITY',
      'THINNING',
      'THINNING',
      'HEALTHY',
    ]);
  });

  it('two dead-zone nodes raise a milder regime to DEAD_ZONE_FORMING, never lower a worse one', () => {
    expect(networkRegime(90, 1, parameters)).toBe('HEALTHY');
    expect(networkRegime(90, 2, parameters)).toBe('DEAD_ZONE_FORMING');
    expect(networkRegime(20, 2, parameters)).toBe('FRUITING_BODY_IMMINENT');
  });
});

describe('node status from its connectivity', () => {
  it('DEAD_ZONE at stress 75, STRESSED 55, THINNING 40, HEALTHY below; NO_DATA without input', () => {
    const status = (score: number) => networkAt(score).nodes.ASIAN_CAPITAL_FLOWS!.status;
    expect([status(75), status(74.9), status(55), status(54.9), status(40), status(39.9)]).toEqual(['DEAD_ZONE', 'STRESSED', 'STRESSED', 'THINNING', 'THINNING', 'HEALTHY']);
    expect(networkAt(50).nodes.US_TREASURY_INTERBANK).toMatchObject({ connectivity: null, status: 'NO_DATA' });
  });

  it('network health is the mean connectivity of the nodes measured', () => {
    const body = networkAt(40);
    const measured = Object.values(body.nodes).filter((node) => node.connectivity !== null);
    expect(measured.map((node) => node.name)).toEqual(['EM dollar funding', 'European sovereign and fiscal nodes', 'Asian capital flows']);
    expect(body.networkHealth).toBe(60);
  });
});

describe('the fruiting body', () => {
  const fruiting = parameters.fruitingBody;

  it('probability: 0.6 network stress + 0.25 credit boom (BIS gap 2 to 10 pp) + 0.15 dead-zone share', () => {
    expect(fruitingProbability(100, null, 0, fruiting)).toBe(0);
    expect(fruitingProbability(50, 2, 0, fruiting)).toBe(0.3);
    expect(fruitingProbability(50, 6, 0, fruiting)).toBe(0.43);
    expect(fruitingProbability(0, 10, 1, fruiting)).toBe(1);
  });

  it('lead time: 14 weeks at probability 0, 6 at 1, always within 6-14', () => {
    expect(leadTimeWeeks(0, fruiting.leadTimeWeeks)).toBe(14);
    expect(leadTimeWeeks(1, fruiting.leadTimeWeeks)).toBe(6);
    expect(leadTimeWeeks(0.5, fruiting.leadTimeWeeks)).toBe(10);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (health, gap, share) => {
        const probability = fruitingProbability(health, gap, share, fruiting);
        expect(probability).toBeGreaterThanOrEqual(0);
        expect(probability).toBeLessThanOrEqual(1);
        const weeks = leadTimeWeeks(probability, fruiting.leadTimeWeeks);
        expect(weeks).toBeGreaterThanOrEqual(6);
        expect(weeks).toBeLessThanOrEqual(14);
      }),
    );
  });

  it('threads: a thread thinning below 50 now; one that was below and is at 50 or above is a new connection', () => {
    const now = { date: '2026-04-01', series: new Map(), currencyStress: currenciesAt(50) };
    const before = { date: '2026-01-01', series: new Map(), currencyStress: currenciesAt(51) };
    const healed = computeMycelium(now, before, parameters, {}).body.threadHealth;
    expect(healed.newConnections).toContain('EM_DOLLAR_FUNDING-ASIAN_CAPITAL_FLOWS: strength 50 (was 49)');
    expect(healed.thinningThreads).toEqual([]);
    const thinned = computeMycelium(before, now, parameters, {}).body.threadHealth;
    expect(thinned.thinningThreads).toContain('EM_DOLLAR_FUNDING-ASIAN_CAPITAL_FLOWS: strength 49 (was 50)');
  });

  it('finding: a weak thread regaining strength was listed as thinning; below 50 and rising it is neither thinning nor new', () => {
    const now = { date: '2026-04-01', series: new Map(), currencyStress: currenciesAt(51) };
    const before = { date: '2026-01-01', series: new Map(), currencyStress: currenciesAt(53) };
    const health = computeMycelium(now, before, parameters, {}).body.threadHealth;
    expect(health.thinningThreads.filter((thread) => thread.startsWith('EM_DOLLAR_FUNDING-ASIAN_CAPITAL_FLOWS'))).toEqual([]);
    expect(health.newConnections.filter((thread) => thread.startsWith('EM_DOLLAR_FUNDING-ASIAN_CAPITAL_FLOWS'))).toEqual([]);
    const falling = computeMycelium(before, now, parameters, {}).body.threadHealth;
    expect(falling.thinningThreads.some((thread) => thread.startsWith('EM_DOLLAR_FUNDING-ASIAN_CAPITAL_FLOWS'))).toBe(true);
  });
});
