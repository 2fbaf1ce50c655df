// Sections of the disclosure report computed per position: physical risks and top risks.

import type { ModelParameters, Position } from './dataset.js';
import { compareText, sum } from './numeric.js';
import type { PortfolioEvaluation } from './portfolio-evaluation.js';
import { fixed, plural, presentScore, presentUsd, signed } from './present.js';
import type { CommodityAssessment } from './score-commodity.js';
import type { CommoditySymbol, PrimaryThreat, RiskStatus, SeverityLevel } from './types.js';

export interface ExposureFacet {
  /** 0-100. */
  index: number;
  level: SeverityLevel;
  drivers: string;
}

export interface PhysicalRisk {
  symbol: CommoditySymbol;
  notionalUsd: number;
  /** Sudden events: wildfires and disaster alerts in the production regions. */
  acute: ExposureFacet;
  /** Slow-onset conditions: temperature anomaly and drought. */
  chronic: ExposureFacet;
}

export interface TopRisk {
  rank: number;
  symbol: CommoditySymbol;
  status: RiskStatus;
  climateRiskScore: number;
  notionalUsd: number;
  /** notional × score / 100: the ranking measure. */
  riskWeightedNotionalUsd: number;
  primaryThreat?: PrimaryThreat;
  region?: string;
}

export function severityLevel(index: number, thresholds: ModelParameters['severity']): SeverityLevel {
  const shown = presentScore(index);
  if (shown >= thresholds.highFrom) return 'HIGH';
  if (shown >= thresholds.moderateFrom) return 'MODERATE';
  return 'LOW';
}

export function physicalRiskOf(position: Position, a: CommodityAssessment, params: ModelParameters): PhysicalRisk {
  const s = a.signals;
  return {
    symbol: position.symbol,
    notionalUsd: presentUsd(position.notionalUsd),
    acute: {
      index: presentScore(a.acuteIndex),
      level: severityLevel(a.acuteIndex, params.severity),
      drivers: `${plural(s.wildfireActivity, 'active wildfire')} and ${plural(s.extremeWeatherEvents, 'disaster alert')} in its production regions`,
    },
    chronic: {
      index: presentScore(a.chronicIndex),
      level: severityLevel(a.chronicIndex, params.severity),
      drivers: `share-weighted temperature anomaly ${signed(s.temperatureAnomaly, 2)} °C and drought index ${fixed(s.droughtIndex, 2)} of 5`,
    },
  };
}

/** Holdings summed per symbol, ranked by notional × score / 100, then by symbol. */
export function topRisksOf(evaluation: PortfolioEvaluation, count: number): TopRisk[] {
  const bySymbol = new Map<CommoditySymbol, { notional: number; assessment: CommodityAssessment }>();
  for (const e of evaluation.positions) {
    const held = bySymbol.get(e.position.symbol);
    bySymbol.set(e.position.symbol, { notional: (held?.notional ?? 0) + e.position.notionalUsd, assessment: e.assessment });
  }
  const ranked = [...bySymbol.entries()]
    .map(([symbol, h]) => ({ symbol, ...h, weighted: (h.notional * h.assessment.score) / 100 }))
    .sort((a, b) => b.weighted - a.weighted || compareText(a.symbol, b.symbol));
  return ranked.slice(0, count).map((r, i) => {
    const top = r.assessment.contributions[0];
    return {
      rank: i + 1,
      symbol: r.symbol,
      status: r.assessment.status,
      climateRiskScore: presentScore(r.assessment.score),
      notionalUsd: presentUsd(r.notional),
      riskWeightedNotionalUsd: presentUsd(r.weighted),
      ...(top === undefined ? {} : { primaryThreat: top.assessment.primaryThreat, region: top.region.name }),
    };
  });
}

export function notionalAtRisk(evaluation: PortfolioEvaluation): number {
  return sum([evaluation.exposureByTier.YELLOW, evaluation.exposureByTier.RED]);
}
