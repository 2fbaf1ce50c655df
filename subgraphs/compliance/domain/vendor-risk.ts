// The vendor-risk score (Document 2 §2 and §4): compliance x 0.65 + ESG x 0.35, with the verdict
// scores, deductions and tiers of decision 0014. Pure: the screening results are given.

export const COMPLIANCE_WEIGHT = 0.65;
export const ESG_WEIGHT = 0.35;
/** Document 2 §4: the ESG score when neither wallet nor LEI is supplied. */
export const DEFAULT_ESG_SCORE = 50;

export type ComplianceVerdict = 'APPROVED' | 'FLAGGED' | 'BLOCKED';
export type VendorRiskTier = 'LOW' | 'MODERATE' | 'ELEVATED' | 'HIGH';

/** Document 2 §4: the compliance score each verdict starts from. */
export const VERDICT_SCORES: Readonly<Record<ComplianceVerdict, number>> = { APPROVED: 100, FLAGGED: 35, BLOCKED: 0 };

/**
 * Deductions from the verdict's score (the spec names the causes, not the amounts; decision 0014).
 * A sanctions hit or a FATF black-list jurisdiction already blocks; these cover the exposure that
 * does not: a near sanctions match, a PEP link, a grey-list jurisdiction.
 */
export const DEDUCTIONS = { sanctionsExposure: 20, pepLinkage: 15, fatfGreyList: 10 } as const;

export interface VendorScreening {
  /** A sanctions match at 0.70 or more, by name or by wallet address. */
  sanctionsHit: boolean;
  /** The best sanctions similarity below the match threshold, if it came close (0.50 or more). */
  sanctionsNearMatch: boolean;
  pepMatch: boolean;
  fatfBlacklist: boolean;
  fatfGreylist: boolean;
  /** A VoP BLOCKED for the wallet and name given. */
  vopBlocked: boolean;
}

export interface VendorRisk {
  vendorRiskScore: number;
  riskTier: VendorRiskTier;
  recommendation: string;
  verdict: ComplianceVerdict;
  complianceScore: number;
  signals: string[];
}

export function vendorRiskTier(score: number): VendorRiskTier {
  if (score >= 80) return 'LOW';
  if (score >= 60) return 'MODERATE';
  if (score >= 35) return 'ELEVATED';
  return 'HIGH';
}

const RECOMMENDATIONS: Readonly<Record<VendorRiskTier, string>> = {
  LOW: 'Proceed: standard monitoring.',
  MODERATE: 'Proceed with enhanced monitoring.',
  ELEVATED: 'Manual review before paying this vendor.',
  HIGH: 'Block or escalate: do not pay this vendor without compliance sign-off.',
};

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Verdict, compliance score with its deductions, and the weighted vendor-risk score with its tier. */
export function assessVendorRisk(screening: VendorScreening, esgScore: number): VendorRisk {
  const signals: string[] = [];
  if (screening.sanctionsHit) signals.push('SANCTIONS_MATCH');
  if (screening.fatfBlacklist) signals.push('FATF_BLACKLIST_JURISDICTION');
  if (screening.vopBlocked) signals.push('VOP_BLOCKED');
  if (screening.sanctionsNearMatch) signals.push('SANCTIONS_NEAR_MATCH');
  if (screening.pepMatch) signals.push('PEP_MATCH');
  if (screening.fatfGreylist) signals.push('FATF_GREYLIST_JURISDICTION');

  const verdict: ComplianceVerdict =
    screening.sanctionsHit || screening.fatfBlacklist || screening.vopBlocked ? 'BLOCKED' : screening.sanctionsNearMatch || screening.pepMatch || screening.fatfGreylist ? 'FLAGGED' : 'APPROVED';
  const deductions =
    (screening.sanctionsNearMatch ? DEDUCTIONS.sanctionsExposure : 0) + (screening.pepMatch ? DEDUCTIONS.pepLinkage : 0) + (screening.fatfGreylist ? DEDUCTIONS.fatfGreyList : 0);
  const complianceScore = Math.max(0, VERDICT_SCORES[verdict] - (verdict === 'BLOCKED' ? 0 : deductions));
  const vendorRiskScore = round2(complianceScore * COMPLIANCE_WEIGHT + esgScore * ESG_WEIGHT);
  const riskTier = vendorRiskTier(vendorRiskScore);
  return { vendorRiskScore, riskTier, recommendation: RECOMMENDATIONS[riskTier], verdict, complianceScore, signals };
}
