// Rule-based recommendations for a stressed portfolio, in a fixed order so the list is deterministic.

import type { ModelParameters } from './dataset.js';
import { compareText, sum } from './numeric.js';
import type { PortfolioEvaluation } from './portfolio-evaluation.js';
import { fixed, usd } from './present.js';
import type { CommodityAssessment } from './score-commodity.js';
import type { CommoditySymbol } from './types.js';

interface Holding {
  symbol: CommoditySymbol;
  notionalUsd: number;
  lossUsd: number;
  assessment: CommodityAssessment;
}

/**
 * Rules, in order: RED holdings, YELLOW holdings, provisional (UNCERTAIN) outlooks, concentration,
 * share of notional at elevated risk; a single all-clear line when none fires.
 */
export function recommend(evaluation: PortfolioEvaluation, params: ModelParameters): string[] {
  if (evaluation.positions.length === 0) return ['No positions supplied: nothing to stress-test.'];
  const holdings = holdingsOf(evaluation);
  const advice = [
    ...holdings.filter((h) => h.assessment.status === 'RED').map(redAdvice),
    ...holdings.filter((h) => h.assessment.status === 'YELLOW').map(yellowAdvice),
    ...holdings.filter((h) => h.assessment.outlook === 'UNCERTAIN').map(provisionalAdvice),
    ...concentrationAdvice(holdings, evaluation.totalNotionalUsd, params.portfolio.concentrationLimitPct),
    ...atRiskAdvice(evaluation, params.portfolio.atRiskShareLimitPct),
  ];
  if (advice.length > 0) return advice;
  return ['No climate hedge indicated: every position is GREEN with a confident outlook; re-run when the climate inputs refresh.'];
}

/** Positions of the same symbol summed; largest notional first, then by symbol. */
function holdingsOf(evaluation: PortfolioEvaluation): Holding[] {
  const bySymbol = new Map<CommoditySymbol, Holding>();
  for (const e of evaluation.positions) {
    const held = bySymbol.get(e.position.symbol);
    bySymbol.set(e.position.symbol, {
      symbol: e.position.symbol,
      notionalUsd: (held?.notionalUsd ?? 0) + e.position.notionalUsd,
      lossUsd: (held?.lossUsd ?? 0) + e.lossUsd,
      assessment: e.assessment,
    });
  }
  return [...bySymbol.values()].sort((a, b) => b.notionalUsd - a.notionalUsd || compareText(a.symbol, b.symbol));
}

function driver(h: Holding): string {
  const top = h.assessment.contributions[0];
  return top === undefined ? 'no current observation' : `${top.assessment.primaryThreat} in ${top.region.name}`;
}

function redAdvice(h: Holding): string {
  return `Reduce or hedge ${h.symbol}: RED at ${fixed(h.assessment.score, 1)}/100 (${driver(h)}); ` + `${usd(h.notionalUsd)} exposed, worst-case loss ${usd(h.lossUsd)}.`;
}

function yellowAdvice(h: Holding): string {
  return `Hedge ${h.symbol}: YELLOW at ${fixed(h.assessment.score, 1)}/100, monitor ${driver(h)}; ${usd(h.notionalUsd)} exposed.`;
}

function provisionalAdvice(h: Holding): string {
  return `Treat the ${h.symbol} outlook as provisional: it is UNCERTAIN (confidence ${fixed(h.assessment.confidence, 2)}); refresh the climate inputs before acting on it.`;
}

function concentrationAdvice(holdings: readonly Holding[], total: number, limitPct: number): string[] {
  if (total <= 0) return [];
  return holdings
    .filter((h) => (100 * h.notionalUsd) / total > limitPct)
    .map(
      (h) =>
        `Concentration: ${h.symbol} is ${fixed((100 * h.notionalUsd) / total, 1)}% of notional (limit ${fixed(limitPct, 0)}%); spread exposure across benchmarks with different production regions.`,
    );
}

function atRiskAdvice(evaluation: PortfolioEvaluation, limitPct: number): string[] {
  const total = evaluation.totalNotionalUsd;
  if (total <= 0) return [];
  const atRisk = sum([evaluation.exposureByTier.YELLOW, evaluation.exposureByTier.RED]);
  const pct = (100 * atRisk) / total;
  if (pct <= limitPct) return [];
  return [`${fixed(pct, 1)}% of notional (${usd(atRisk)}) is in YELLOW or RED commodities (limit ${fixed(limitPct, 0)}%); review the climate hedge ratio of the book.`];
}
