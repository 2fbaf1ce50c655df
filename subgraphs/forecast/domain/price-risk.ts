// Historical price risk of a benchmark and the climate-scaled worst-case loss fraction of a position.

import type { DrawdownParameters } from './dataset.js';
import { clamp, sampleStdDev } from './numeric.js';
import type { PricePoint } from './types.js';

export interface PriceRisk {
  /** Sample standard deviation of monthly simple returns over the lookback. */
  monthlyVolatility: number;
  /** Largest peak-to-trough fall of the monthly prices over the lookback, 0-1. */
  maxDrawdown: number;
  /** tailZ × monthlyVolatility × √horizonMonths. */
  tailMove: number;
  /** max(maxDrawdown, tailMove): the larger of the realised and the parametric tail. */
  baseLossFraction: number;
  /** Monthly returns used. */
  returnsUsed: number;
}

/** Uses the last lookbackMonths returns (lookbackMonths + 1 prices); prices must ascend by date. */
export function measurePriceRisk(prices: readonly PricePoint[], params: DrawdownParameters): PriceRisk {
  const window = prices.slice(-(params.lookbackMonths + 1)).map((p) => p.price);
  const returns = window.slice(1).map((price, i) => price / (window[i] ?? price) - 1);
  const monthlyVolatility = sampleStdDev(returns);
  const maxDrawdown = largestDrawdown(window);
  const tailMove = params.tailZ * monthlyVolatility * Math.sqrt(params.horizonMonths);
  return { monthlyVolatility, maxDrawdown, tailMove, baseLossFraction: Math.max(maxDrawdown, tailMove), returnsUsed: returns.length };
}

export function largestDrawdown(prices: readonly number[]): number {
  let peak = -Infinity;
  let worst = 0;
  for (const price of prices) {
    peak = Math.max(peak, price);
    if (peak > 0) worst = Math.max(worst, (peak - price) / peak);
  }
  return worst;
}

/** Linear from minRiskScale at score 0 to maxRiskScale at score 100. */
export function riskScale(score: number, params: DrawdownParameters): number {
  return params.minRiskScale + ((params.maxRiskScale - params.minRiskScale) * clamp(score, 0, 100)) / 100;
}

/** min(maxLossFraction, baseLossFraction × riskScale(score)). */
export function worstCaseLossFraction(risk: PriceRisk, score: number, params: DrawdownParameters): number {
  return Math.min(params.maxLossFraction, risk.baseLossFraction * riskScale(score, params));
}
