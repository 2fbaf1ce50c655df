// AML screening (Document 2 §2 "AML screening result", §3 "AML tiers" and "Wallet profile
// maturity"): the wallet's behavioural profile, the signals of one screen with their cohort
// weights, the risk score, tier, action and event level, and the rule-based reasoning pass of a
// FLAG. Pure: the profile, the window counts, the sanctions findings and the clock are passed in.
// The model is explained signal by signal in docs/aml-model.md; its weights are data/aml-weights.json.

import { looksLikeWalletAddress, type SanctionsIndex, type SdnType } from '../../domain/index.js';

export const AML_MATURITIES = ['UNKNOWN', 'NEW', 'DEVELOPING', 'ESTABLISHED'] as const;
export const AML_RISK_TIERS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export const AML_ACTIONS = ['PROCEED', 'FLAG', 'BLOCK'] as const;
/** SEND appears in the spec; RECEIVE is ours (decision 0017): the wallet is the payee. */
export const AML_DIRECTIONS = ['SEND', 'RECEIVE'] as const;
/** INFO: LOW and PROCEED; WARNING: MEDIUM; ALERT: FLAG; CRITICAL: BLOCK. WARNING and above are events. */
export const AML_EVENT_LEVELS = ['INFO', 'WARNING', 'ALERT', 'CRITICAL'] as const;
export const AML_RECOMMENDATIONS = ['PROCEED_WITH_REVIEW', 'ESCALATE_TO_BLOCK'] as const;
export const AML_CONFIDENCES = ['HIGH', 'MEDIUM', 'LOW'] as const;
export const AML_SIGNAL_CODES = [
  'SANCTIONS_WALLET_ADDRESS',
  'SANCTIONS_COUNTERPARTY_ADDRESS',
  'SANCTIONS_COUNTERPARTY_NAME',
  'FATF_CALL_FOR_ACTION',
  'FATF_INCREASED_MONITORING',
  'PRIOR_BLOCKS',
  'STRUCTURING_BAND',
  'STRUCTURING_PATTERN',
  'AMOUNT_ANOMALY',
  'AMOUNT_EXTREME',
  'LARGE_INITIAL_AMOUNT',
  'REPORTABLE_AMOUNT',
  'VELOCITY_BURST',
  'DORMANT_REACTIVATION',
  'NEW_COUNTERPARTY',
  'ROUND_AMOUNT',
  'NO_HISTORY',
] as const;
export const AML_SIGNAL_CATEGORIES = ['SANCTIONS', 'JURISDICTION', 'AMOUNT', 'PATTERN', 'COUNTERPARTY', 'HISTORY'] as const;
/** COHORT: times the cohort multiplier; ELEVATE_ONLY: raised for young wallets, never reduced; FIXED: as listed. */
export const AML_SIGNAL_SCALINGS = ['COHORT', 'ELEVATE_ONLY', 'FIXED'] as const;
export const SANCTIONS_FINDING_KINDS = ['WALLET_ADDRESS', 'COUNTERPARTY_ADDRESS', 'COUNTERPARTY_NAME'] as const;

export type AmlMaturity = (typeof AML_MATURITIES)[number];
export type AmlRiskTier = (typeof AML_RISK_TIERS)[number];
export type AmlAction = (typeof AML_ACTIONS)[number];
export type AmlDirection = (typeof AML_DIRECTIONS)[number];
export type AmlEventLevel = (typeof AML_EVENT_LEVELS)[number];
export type AmlRecommendation = (typeof AML_RECOMMENDATIONS)[number];
export type AmlConfidence = (typeof AML_CONFIDENCES)[number];
export type AmlSignalCode = (typeof AML_SIGNAL_CODES)[number];
export type AmlSignalCategory = (typeof AML_SIGNAL_CATEGORIES)[number];
export type AmlSignalScaling = (typeof AML_SIGNAL_SCALINGS)[number];
export type SanctionsFindingKind = (typeof SANCTIONS_FINDING_KINDS)[number];

export interface AmlSignalParameters {
  category: AmlSignalCategory;
  /** Points at the DEVELOPING baseline (multiplier 1). */
  weight: number;
  scaling: AmlSignalScaling;
  sanctionsCorrelated: boolean;
}

/** data/aml-weights.json (docs/aml-model.md): the cohort multipliers, the signals' weights and the rule parameters. */
export interface AmlWeights {
  version: string;
  cohortMultipliers: Record<AmlMaturity, number>;
  signals: Record<AmlSignalCode, AmlSignalParameters>;
  parameters: {
    /** USD; 31 CFR 1010.311 reports transactions of more than this. */
    reportingThresholdUsd: number;
    reportingThresholdSource: { rule: string; url: string };
    /** The structuring band: [threshold x (1 - fraction), threshold]. */
    structuringBandFraction: number;
    structuringWindowHours: number;
    /** Other band screens of the wallet within the window that make a pattern. */
    structuringPatternMinPrior: number;
    zScoreMinTransactions: number;
    /** The standard deviation is at least this fraction of the mean. */
    zScoreStdDevFloorFraction: number;
    zScoreAnomaly: number;
    zScoreExtreme: number;
    velocityWindowMinutes: number;
    velocityBurstScreens: number;
    dormancyDays: number;
    roundAmountUnitUsd: number;
    roundAmountMinUsd: number;
    /** Weight of the newest screen in the profile's exponentially weighted risk score. */
    riskScoreSmoothing: number;
    escalationMinScore: number;
    escalationMinSignals: number;
  };
}

/** What is wrong with a set of weights (empty when none): sanctions-correlated signals must never be reduced. */
export function amlWeightProblems(weights: AmlWeights): string[] {
  const problems: string[] = [];
  for (const code of AML_SIGNAL_CODES) {
    const signal = weights.signals[code];
    if (signal.sanctionsCorrelated && signal.scaling === 'COHORT') problems.push(`${code} is sanctions-correlated: its scaling must be ELEVATE_ONLY or FIXED, never COHORT`);
    if (signal.category === 'SANCTIONS' && signal.weight < 75) problems.push(`${code} must weigh at least 75 (CRITICAL) on its own`);
  }
  if (weights.cohortMultipliers.ESTABLISHED > 1) problems.push('ESTABLISHED is reduced caution: its multiplier must be at most 1');
  if (weights.cohortMultipliers.UNKNOWN < 1 || weights.cohortMultipliers.NEW < 1) problems.push('UNKNOWN and NEW are elevated caution: their multipliers must be at least 1');
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The behavioural profile
// ---------------------------------------------------------------------------------------------

export interface AmlProfileStats {
  /** Counted transactions: screens that were not BLOCKed. */
  txCount: number;
  amountMeanUsd: number;
  /** Welford's M2, the sum of squared deviations from the mean. */
  amountM2: number;
  volumeTotalUsd: number;
  amountMaxUsd: number;
  counterpartyCount: number;
  screenCount: number;
  blockedCount: number;
  /** Exponentially weighted mean of the screens' risk scores; null before the first screen. */
  riskScore: number | null;
  firstSeenAt: Date | null;
  lastSeenAt: Date | null;
  lastScreenedAt: Date | null;
}

export const EMPTY_AML_PROFILE: AmlProfileStats = Object.freeze({
  txCount: 0,
  amountMeanUsd: 0,
  amountM2: 0,
  volumeTotalUsd: 0,
  amountMaxUsd: 0,
  counterpartyCount: 0,
  screenCount: 0,
  blockedCount: 0,
  riskScore: null,
  firstSeenAt: null,
  lastSeenAt: null,
  lastScreenedAt: null,
});

/** Document 2 §3: UNKNOWN none; NEW fewer than 10; DEVELOPING 10-99; ESTABLISHED 100 or more. */
export function maturityOf(txCount: number): AmlMaturity {
  if (txCount <= 0) return 'UNKNOWN';
  if (txCount < 10) return 'NEW';
  if (txCount < 100) return 'DEVELOPING';
  return 'ESTABLISHED';
}

/** The sample standard deviation of the counted amounts; null below two transactions. */
export function amountStdDev(profile: Pick<AmlProfileStats, 'txCount' | 'amountM2'>): number | null {
  return profile.txCount < 2 ? null : Math.sqrt(Math.max(0, profile.amountM2) / (profile.txCount - 1));
}

export interface ScreenOutcome {
  amountUsd: number;
  riskScore: number;
  blocked: boolean;
  newCounterparty: boolean;
  now: Date;
}

/**
 * The profile after one screen. A BLOCKed payment is not sent, so it is not a transaction: it moves
 * the risk score and the screen and blocked counts only. Otherwise Welford's update:
 * n' = n + 1, mean' = mean + (x - mean) / n', M2' = M2 + (x - mean)(x - mean').
 */
export function recordScreen(profile: AmlProfileStats, outcome: ScreenOutcome, smoothing: number): AmlProfileStats {
  const riskScore = profile.riskScore === null ? outcome.riskScore : profile.riskScore + smoothing * (outcome.riskScore - profile.riskScore);
  const screened = { ...profile, riskScore, screenCount: profile.screenCount + 1, lastScreenedAt: outcome.now };
  if (outcome.blocked) return { ...screened, blockedCount: profile.blockedCount + 1 };
  const x = outcome.amountUsd;
  const txCount = profile.txCount + 1;
  const delta = x - profile.amountMeanUsd;
  const amountMeanUsd = profile.amountMeanUsd + delta / txCount;
  return {
    ...screened,
    txCount,
    amountMeanUsd,
    amountM2: profile.amountM2 + delta * (x - amountMeanUsd),
    volumeTotalUsd: profile.volumeTotalUsd + x,
    amountMaxUsd: Math.max(profile.amountMaxUsd, x),
    counterpartyCount: profile.counterpartyCount + (outcome.newCounterparty ? 1 : 0),
    firstSeenAt: profile.firstSeenAt ?? outcome.now,
    lastSeenAt: outcome.now,
  };
}

// ---------------------------------------------------------------------------------------------
// Sanctions and jurisdiction
// ---------------------------------------------------------------------------------------------

export interface SanctionsFinding {
  kind: SanctionsFindingKind;
  /** OFAC ent_num. */
  entNum: number;
  /** The SDN entry's name. */
  name: string;
  type: SdnType;
  programs: string[];
  /** The listed name or alias that matched, or the listed address. */
  matchedName: string;
  /** 1 for an address; the name similarity (>= 0.70) for a name. */
  score: number;
  currency: string | null;
  address: string | null;
}

/**
 * The OFAC SDN findings of one screen: the wallet's and the counterparty's addresses against the
 * digital-currency addresses OFAC lists (exact, after addressKey), and the counterparty's name
 * (when it does not read as a wallet address, and counterpartyName when given) against every SDN name and alias at
 * the sanctions threshold (0.70).
 */
export function screenSanctions(index: SanctionsIndex, subject: { wallet: string; counterparty: string; counterpartyName?: string | undefined }): SanctionsFinding[] {
  const findings: SanctionsFinding[] = [];
  const byAddress = (address: string, kind: SanctionsFindingKind) => {
    for (const match of index.findAddress(address)) {
      findings.push({
        kind,
        entNum: match.entry.entNum,
        name: match.entry.name,
        type: match.entry.type,
        programs: [...match.entry.programs],
        matchedName: match.address,
        score: 1,
        currency: match.currency,
        address: match.address,
      });
    }
  };
  byAddress(subject.wallet, 'WALLET_ADDRESS');
  byAddress(subject.counterparty, 'COUNTERPARTY_ADDRESS');
  const names = new Set<string>();
  if (!looksLikeWalletAddress(subject.counterparty.trim())) names.add(subject.counterparty.trim());
  if (subject.counterpartyName !== undefined) names.add(subject.counterpartyName.trim());
  const seen = new Set<number>();
  for (const name of names) {
    for (const match of index.screenName(name, { limit: 5 }).matches) {
      if (seen.has(match.entry.entNum)) continue;
      seen.add(match.entry.entNum);
      findings.push({
        kind: 'COUNTERPARTY_NAME',
        entNum: match.entry.entNum,
        name: match.entry.name,
        type: match.entry.type,
        programs: [...match.entry.programs],
        matchedName: match.matchedName,
        score: match.score,
        currency: null,
        address: null,
      });
    }
  }
  return findings;
}
