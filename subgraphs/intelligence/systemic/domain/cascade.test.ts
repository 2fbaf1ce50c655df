import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import parametersJson from '../../data/parameters/cascade.json' with { type: 'json' };
import { cascadeConfidence, type CascadeParameters, cascadeStatus, computeCascade, conditionHolds, type ConditionRule, evaluateCondition, propagate, readLayers, systemicRiskScore } from './index.js';

const parameters = parametersJson as CascadeParameters;
const STEP = 0.01;

/** Every layer at the same score: what the trigger tests hold the layers at. */
function layersAt(score: number): Record<string, number> {
  return Object.fromEntries(parameters.layers.map((layer) => [layer.reading, score]));
}

function bound(rule: ConditionRule): number {
  return (rule.above ?? rule.atLeast ?? rule.below)!;
}

/** A value just inside the condition (met) and one just outside (not met). */
function metAndNot(rule: ConditionRule): { met: number; notMet: number } {
  const at = bound(rule);
  if (rule.above !== undefined) return { met: at + STEP, notMet: at };
  if (rule.atLeast !== undefined) return { met: at, notMet: at - STEP };
  return { met: at - STEP, notMet: at };
}

describe('trigger conditions at their bounds', () => {
  for (const cascade of parameters.cascades) {
    for (const rule of cascade.conditions) {
      it(`${cascade.type} ${rule.id} (${rule.reading} ${JSON.stringify({ above: rule.above, atLeast: rule.atLeast, below: rule.below })})`, () => {
        const at = bound(rule);
        const below = evaluateCondition(rule, { [rule.reading]: at - STEP }).met;
        const exactly = evaluateCondition(rule, { [rule.reading]: at }).met;
        const above = evaluateCondition(rule, { [rule.reading]: at + STEP }).met;
        if (rule.above !== undefined) expect([below, exactly, above]).toEqual([false, false, true]);
        if (rule.atLeast !== undefined) expect([below, exactly, above]).toEqual([false, true, true]);
        if (rule.below !== undefined) expect([below, exactly, above]).toEqual([true, false, false]);
        expect(evaluateCondition(rule, {}).met).toBeNull();
      });
    }
  }

  it('the spec bounds: oil above 12%, supply chain above 1.5, VIX above 35, dollar above 5%, debt above 100%, curve inversion below 0', () => {
    const rules = parameters.cascades.flatMap((cascade) => cascade.conditions);
    const byReading = (reading: string) => rules.find((rule) => rule.reading === reading)!;
    expect(byReading('oilMonthlyChangePct').above).toBe(12);
    expect(byReading('gscpiZScore').above).toBe(1.5);
    expect(byReading('vix').above).toBe(35);
    expect(byReading('dollarThreeMonthChangePct').above).toBe(5);
    expect(byReading('italyGermanySpreadBp').above).toBe(600);
    expect(byReading('usDebtToGdpPct').above).toBe(100);
    expect(byReading('curve10y3mBp').below).toBe(0);
    expect(parameters.cascades.map((cascade) => [cascade.type, cascade.entryLayer])).toEqual([
      ['MIDDLE_EAST_OIL_SHOCK', 2],
      ['TRADE_WAR_ESCALATION', 3],
      ['FINANCIAL_CONTAGION', 6],
      ['FOOD_SUPPLY_CRISIS', 2],
      ['ENERGY_TRANSITION_DISRUPTION', 2],
      ['EM_CURRENCY_CRISIS', 5],
      ['CENTRAL_BANK_POLICY_SHOCK', 4],
      ['SOVEREIGN_DEBT_CRISIS', 6],
    ]);
  });
});

describe('cascade status from its triggers', () => {
  const result = (met: boolean | null) => ({ id: 'x', label: 'x', value: null, threshold: '', met, meaning: '' });

  it('all: ACTIVE when every condition holds, FORMING at the forming share, DORMANT below it; unknown is not met', () => {
    expect(cascadeStatus({ combine: 'all' }, [result(true), result(true), result(true)], 0.5)).toBe('ACTIVE');
    expect(cascadeStatus({ combine: 'all' }, [result(true), result(true), result(false)], 0.5)).toBe('FORMING');
    expect(cascadeStatus({ combine: 'all' }, [result(true), result(true), result(null)], 0.5)).toBe('FORMING');
    expect(cascadeStatus({ combine: 'all' }, [result(true), result(false), result(null)], 0.5)).toBe('DORMANT');
    expect(cascadeStatus({ combine: 'all' }, [result(true), result(false)], 0.5)).toBe('FORMING');
    expect(cascadeStatus({ combine: 'all' }, [result(true), result(false)], 0.51)).toBe('DORMANT');
  });

  it('any (surprise rate pivot or yield-curve inversion): ACTIVE on one, DORMANT on none', () => {
    expect(cascadeStatus({ combine: 'any' }, [result(false), result(true)], 0.5)).toBe('ACTIVE');
    expect(cascadeStatus({ combine: 'any' }, [result(false), result(null)], 0.5)).toBe('DORMANT');
  });

  it('every shipped cascade is ACTIVE with all its conditions met and listed with its ACTIVE analog', () => {
    for (const cascade of parameters.cascades) {
      const readings = { ...layersAt(50), ...Object.fromEntries(cascade.conditions.map((rule) => [rule.reading, metAndNot(rule).met])) };
      const answer = computeCascade(readings, parameters);
      const listed = answer.activeCascades.find((entry) => entry.type === cascade.type);
      expect(listed, cascade.type).toMatchObject({ status: 'ACTIVE', entryLayer: cascade.entryLayer, historicalAnalog: cascade.analogs.ACTIVE });
      expect(answer.nervousSystem.activeCascadeCount).toBeGreaterThanOrEqual(1);
    }
  });

  it('a cascade with one condition short is FORMING (listed, not counted); with none met it is not listed', () => {
    const oil = parameters.cascades.find((cascade) => cascade.type === 'MIDDLE_EAST_OIL_SHOCK')!;
    const [spike, gold, shipping] = oil.conditions as [ConditionRule, ConditionRule, ConditionRule];
    const forming = computeCascade({ ...layersAt(50), [spike.reading]: 12.01, [gold.reading]: 3, [shipping.reading]: 60 }, parameters);
    expect(forming.activeCascades.find((entry) => entry.type === oil.type)).toMatchObject({ status: 'FORMING', historicalAnalog: oil.analogs.FORMING });
    expect(forming.evaluated.find((entry) => entry.type === oil.type)).toEqual({ type: oil.type, status: 'FORMING', conditionsMet: 2, conditionsKnown: 3, conditionsTotal: 3 });
    const dormant = computeCascade({ ...layersAt(50), [spike.reading]: 12, [gold.reading]: 3, [shipping.reading]: 59.99 }, parameters);
    expect(dormant.activeCascades.find((entry) => entry.type === oil.type)).toBeUndefined();
  });
});

describe('layers, propagation and the nervous system', () => {
  it('places each layer on its ladder: CRITICAL 80, STRESSED 60, ELEVATED 40, NORMAL below; NO_DATA without input', () => {
    const [l1, l2, l3, l4, l5, l6] = parameters.layers;
    const layers = readLayers({ [l1!.reading]: 80, [l2!.reading]: 79.9, [l3!.reading]: 60, [l4!.reading]: 40, [l5!.reading]: 39.9, [l6!.reading]: 0 }, parameters);
    expect(layers.map((layer) => layer.status)).toEqual(['CRITICAL', 'STRESSED', 'STRESSED', 'ELEVATED', 'NORMAL', 'NORMAL', 'NO_DATA']);
  });

  it('propagates: entry carries the cascade status; a moved layer is ACTIVE and priced in; within 30 days FORMING; later EXPECTED', () => {
    const layers = readLayers({ ...layersAt(0), l3ShippingStress: 60, l4BreakevenPercentile: 59.9 }, parameters);
    const path = [
      { layer: 2, typicalLag: 'now', lagDays: 0, leadSignal: 'a' },
      { layer: 3, typicalLag: 'far', lagDays: 300, leadSignal: 'b' },
      { layer: 4, typicalLag: '30 days', lagDays: 30, leadSignal: 'c' },
      { layer: 5, typicalLag: '31 days', lagDays: 31, leadSignal: 'd' },
    ];
    const active = propagate(path, 2, 'ACTIVE', layers, parameters);
    expect(active.map((step) => [step.status, step.pricedIn])).toEqual([
      ['ACTIVE', false],
      ['ACTIVE', true],
      ['FORMING', false],
      ['EXPECTED', false],
    ]);
    // Finding: downstream of a FORMING cascade a layer that had moved on its own was called ACTIVE,
    // crediting the cascade with stress it did not cause; it is EXPECTED, priced in.
    const forming = propagate(path, 2, 'FORMING', layers, parameters);
    expect(forming.map((step) => [step.status, step.pricedIn])).toEqual([
      ['FORMING', false],
      ['EXPECTED', true],
      ['EXPECTED', false],
      ['EXPECTED', false],
    ]);
  });

  it('scores the system: mean of the layers measured, plus 10 per active and 4 per forming cascade, capped at 100', () => {
    const layers = readLayers({ l1PolicyUncertaintyPercentile: 40, l2CommodityStress: 60 }, parameters);
    expect(systemicRiskScore(layers, 0, 0, parameters.systemicScore)).toBe(50);
    expect(systemicRiskScore(layers, 1, 2, parameters.systemicScore)).toBe(68);
    expect(systemicRiskScore(layers, 9, 0, parameters.systemicScore)).toBe(100);
    expect(systemicRiskScore(readLayers({}, parameters), 0, 0, parameters.systemicScore)).toBeNull();
  });

  it('overall status: CRITICAL 80, HIGH 60, ELEVATED 40, STABLE below, NO_DATA with no layer', () => {
    const status = (score: number) => computeCascade(layersAt(score), parameters).nervousSystem.overallStatus;
    expect([status(80), status(79.9), status(60), status(40), status(39.9)]).toEqual(['CRITICAL', 'HIGH', 'HIGH', 'ELEVATED', 'STABLE']);
    expect(computeCascade({}, parameters).nervousSystem).toMatchObject({ overallStatus: 'NO_DATA', activeCascadeCount: 0 });
  });

  it('confidence weighs the trigger share 0.6 and the entry layer score 0.4', () => {
    expect(cascadeConfidence(1, 100, parameters.confidenceWeights)).toBe(1);
    expect(cascadeConfidence(2 / 3, 50, parameters.confidenceWeights)).toBe(0.6);
    expect(cascadeConfidence(0.5, null, parameters.confidenceWeights)).toBe(0.3);
  });

  it('is deterministic, and no confidence leaves 0-1, whatever the readings', () => {
    const readingNames = [...new Set([...parameters.layers.map((layer) => layer.reading), ...parameters.cascades.flatMap((cascade) => cascade.conditions.map((rule) => rule.reading))])];
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: readingNames.length, maxLength: readingNames.length }), (values) => {
        const readings = Object.fromEntries(readingNames.map((name, index) => [name, values[index]]));
        const first = computeCascade(readings, parameters);
        expect(computeCascade(readings, parameters)).toEqual(first);
        for (const cascade of first.activeCascades) expect(cascade.confidence >= 0 && cascade.confidence <= 1).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('conditionHolds refuses a rule without a bound', () => {
    expect(() => conditionHolds({ id: 'x', label: 'x', reading: 'x', meaning: '' }, 1)).toThrow();
  });
});
