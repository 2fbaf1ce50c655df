// A set of positions against the shared assessment, before presentation: what the stress result,
// its recommendations and the TCFD report all read.

import type { Position } from './dataset.js';
import type { PriceRisk } from './price-risk.js';
import type { CommodityAssessment } from './score-commodity.js';
import type { CommoditySymbol, RiskStatus } from './types.js';

export interface PositionEvaluation {
  position: Position;
  assessment: CommodityAssessment;
  priceRisk: PriceRisk;
  lossFraction: number;
  lossUsd: number;
}

export interface PortfolioEvaluation {
  positions: PositionEvaluation[];
  totalNotionalUsd: number;
  portfolioRiskScore: number;
  exposureByTier: Record<RiskStatus, number>;
  worstCaseLossUsd: number;
  /** worstCaseLossUsd / totalNotionalUsd × 100; 0 without notional. */
  worstCaseLossPct: number;
  assessments: Readonly<Record<CommoditySymbol, CommodityAssessment>>;
  asOf?: string;
}
