// A scenario's price impacts on a set of positions, before presentation: what the scenario result,
// its explanation and the TCFD scenario choice all read.

import type { PctRange, Position, Scenario, ScenarioImpact } from './dataset.js';
import { sum } from './numeric.js';

export interface PositionScenarioImpact {
  position: Position;
  impact?: ScenarioImpact;
  /** notional × priceImpactPct / 100; zero for a commodity the scenario does not touch. */
  priceImpactUsd: PctRange;
}

export interface ScenarioEvaluation {
  scenario: Scenario;
  positions: PositionScenarioImpact[];
  portfolio: {
    totalNotionalUsd: number;
    affectedNotionalUsd: number;
    priceImpactUsd: PctRange;
    /** priceImpactUsd / totalNotionalUsd × 100; zero without notional. */
    priceImpactPct: PctRange;
  };
}

export function evaluateScenario(scenario: Scenario, positions: readonly Position[]): ScenarioEvaluation {
  const impacts = positions.map((position) => {
    const impact = scenario.affectedCommodities.find((i) => i.symbol === position.symbol);
    const scale = (pct: number) => (position.notionalUsd * pct) / 100;
    return {
      position,
      ...(impact === undefined ? {} : { impact }),
      priceImpactUsd: impact === undefined ? { low: 0, high: 0 } : { low: scale(impact.priceImpactPct.low), high: scale(impact.priceImpactPct.high) },
    };
  });
  const total = sum(positions.map((p) => p.notionalUsd));
  const low = sum(impacts.map((i) => i.priceImpactUsd.low));
  const high = sum(impacts.map((i) => i.priceImpactUsd.high));
  const pctOf = (usdAmount: number) => (total > 0 ? (100 * usdAmount) / total : 0);
  return {
    scenario,
    positions: impacts,
    portfolio: {
      totalNotionalUsd: total,
      affectedNotionalUsd: sum(impacts.filter((i) => i.impact !== undefined).map((i) => i.position.notionalUsd)),
      priceImpactUsd: { low, high },
      priceImpactPct: { low: pctOf(low), high: pctOf(high) },
    },
  };
}
