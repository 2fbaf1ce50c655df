// The vendor-risk score (Document 2 §2 and §4): compliance x 0.65 + ESG x 0.35, with the verdict
// scores, deductions and tiers of decisions 0014 and 0020. Pure: the screening results are given.

import { SANCTIONS_BLOCK_SCORE, SANCTIONS_MATCH_THRESHOLD } from '../../domain/index.js';
import type { VopResult } from '../../vop/domain/index.js';

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
  /** A listed wallet address, or a sanctions name match at SANCTIONS_BLOCK_SCORE (0.95) or more, of the vendor or an owner. */
  sanctionsHit: boolean;
  /** A sanctions name match at 0.70 or more but below 0.95, of the vendor or an owner: exposure to review, not a block. */
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
  const deductions = (screening.sanctionsNearMatch ? DEDUCTIONS.sanctionsExposure : 0) + (screening.pepMatch ? DEDUCTIONS.pepLinkage : 0) + (screening.fatfGreylist ? DEDUCTIONS.fatfGreyList : 0);
  const complianceScore = Math.max(0, VERDICT_SCORES[verdict] - (verdict === 'BLOCKED' ? 0 : deductions));
  const vendorRiskScore = round2(complianceScore * COMPLIANCE_WEIGHT + esgScore * ESG_WEIGHT);
  const riskTier = vendorRiskTier(vendorRiskScore);
  return { vendorRiskScore, riskTier, recommendation: RECOMMENDATIONS[riskTier], verdict, complianceScore, signals };
}

/** What the vendor's screens found, before they are read as a verdict. */
export interface VendorFindings {
  /** Similarities of the SDN names and aliases matching the vendor's name (0.70 or more). */
  nameMatchScores: readonly number[];
  /** The wallet is an SDN digital-currency address. */
  walletListed: boolean;
  /** Similarities of the SDN matches on the vendor's ownership chain (its LEI, parents). */
  ownershipMatchScores: readonly number[];
  /** PEP screen of the name: NONE when nothing matched at 0.60. */
  pepRiskLevel: 'HIGH' | 'MEDIUM' | 'LOW' | 'NONE';
  /** FATF standing of the vendor's country (given, or its LEI's jurisdiction); undefined when unknown. */
  fatfStatus: 'CALL_FOR_ACTION' | 'INCREASED_MONITORING' | 'NOT_LISTED' | undefined;
  /** The VoP result of the name against the wallet's registration, when a wallet was given. */
  vopResult: VopResult | undefined;
}

/**
 * Reads the findings as the screening the score is built from (decision 0020): a listed wallet or
 * a strong (0.95) sanctions match on the vendor or its owners is a hit, as the sanctions widget and
 * the ownership chain block; a match from 0.70 up to that is exposure to review.
 */
export function vendorScreeningOf(findings: VendorFindings): VendorScreening {
  const scores = [...findings.nameMatchScores, ...findings.ownershipMatchScores].filter((score) => score >= SANCTIONS_MATCH_THRESHOLD);
  const sanctionsHit = findings.walletListed || scores.some((score) => score >= SANCTIONS_BLOCK_SCORE);
  return {
    sanctionsHit,
    sanctionsNearMatch: !sanctionsHit && scores.length > 0,
    pepMatch: findings.pepRiskLevel !== 'NONE',
    fatfBlacklist: findings.fatfStatus === 'CALL_FOR_ACTION',
    fatfGreylist: findings.fatfStatus === 'INCREASED_MONITORING',
    vopBlocked: findings.vopResult === 'BLOCKED',
  };
}
