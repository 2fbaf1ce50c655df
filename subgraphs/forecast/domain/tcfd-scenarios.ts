// Deterministic choice of the moderate and severe scenarios of a disclosure report, by exposure.

import type { Position, Scenario } from './dataset.js';
import { evaluateScenario, type ScenarioEvaluation } from './scenario-evaluation.js';
import { SCENARIO_IDS, type ScenarioId } from './types.js';

export interface TcfdScenarioChoice {
  moderate: ScenarioEvaluation;
  severe: ScenarioEvaluation;
}

/**
 * 1. Every scenario is applied to the positions.
 * 2. Severe: the exposed scenario with the largest high-end price impact in USD (the tail);
 *    without exposure, the scenario with the largest high-end move of any commodity.
 * 3. Moderate: among the other exposed scenarios, the largest expected impact
 *    (probability × mid-range USD); without one, the most probable remaining scenario.
 * Ties fall to the rarer scenario for severe, the likelier for moderate, then catalogue order.
 */
export function chooseTcfdScenarios(scenarios: Readonly<Record<ScenarioId, Scenario>>, positions: readonly Position[]): TcfdScenarioChoice {
  const evaluations = SCENARIO_IDS.map((id) => evaluateScenario(scenarios[id], positions));
  const exposed = evaluations.filter((e) => e.portfolio.affectedNotionalUsd > 0);
  const severe = exposed.length > 0 ? best(exposed, tailUsd, rarer) : best(evaluations, intrinsicTail, rarer);
  const others = (list: ScenarioEvaluation[]) => list.filter((e) => e.scenario.id !== severe.scenario.id);
  const exposedOthers = others(exposed);
  const moderate = exposedOthers.length > 0 ? best(exposedOthers, expectedUsd, likelier) : best(others(evaluations), (e) => e.scenario.probability, likelier);
  return { moderate, severe };
}

const tailUsd = (e: ScenarioEvaluation) => e.portfolio.priceImpactUsd.high;
const expectedUsd = (e: ScenarioEvaluation) => (e.scenario.probability * (e.portfolio.priceImpactUsd.low + e.portfolio.priceImpactUsd.high)) / 2;
const intrinsicTail = (e: ScenarioEvaluation) => Math.max(...e.scenario.affectedCommodities.map((i) => i.priceImpactPct.high));
const rarer = (a: ScenarioEvaluation, b: ScenarioEvaluation) => a.scenario.probability < b.scenario.probability;
const likelier = (a: ScenarioEvaluation, b: ScenarioEvaluation) => a.scenario.probability > b.scenario.probability;

/** Highest measure; on a tie the first that wins the tie-break, else the earlier in catalogue order. */
function best(list: readonly ScenarioEvaluation[], measure: (e: ScenarioEvaluation) => number, winsTie: (a: ScenarioEvaluation, b: ScenarioEvaluation) => boolean): ScenarioEvaluation {
  const [first, ...rest] = list;
  if (first === undefined) throw new Error('the scenario catalogue is empty');
  return rest.reduce((top, e) => {
    const difference = measure(e) - measure(top);
    return difference > 0 || (difference === 0 && winsTie(e, top)) ? e : top;
  }, first);
}
