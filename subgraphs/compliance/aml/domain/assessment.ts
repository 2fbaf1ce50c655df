// One AML screen assessed (docs/aml-model.md): the signals with their cohort weights, the risk
// score and its tier, action and event level (Document 2 §3 "AML tiers"), and for a FLAG the
// rule-based reasoning pass whose ESCALATE_TO_BLOCK turns the action into BLOCK. Pure.

import { type FatfStanding, isCountermeasuresCall } from '../../domain/index.js';
import {
  type AmlAction,
  type AmlConfidence,
  type AmlDirection,
  type AmlEventLevel,
  type AmlMaturity,
  type AmlProfileStats,
  type AmlRecommendation,
  type AmlRiskTier,
  type AmlSignalCategory,
  type AmlSignalCode,
  type AmlWeights,
  amountStdDev,
  maturityOf,
  type SanctionsFinding,
} from './aml.js';

/** What one screen is assessed on: the profile before it, the window counts, the findings, the clock. */
export interface AmlScreenFacts {
  amountUsd: number;
  direction: AmlDirection;
  profile: AmlProfileStats;
  /** The counterparty is not among the wallet's counterparties yet. */
  newCounterparty: boolean;
  /** The wallet's screens within the velocity window before this one. */
  recentScreens: number;
  /** The wallet's structuring-band screens within the structuring window before this one. */
  recentNearThreshold: number;
  jurisdiction: FatfStanding | null;
  sanctions: readonly SanctionsFinding[];
  now: Date;
}

export interface AmlSignal {
  code: AmlSignalCode;
  category: AmlSignalCategory;
  description: string;
  /** Points this signal adds to the risk score: baseWeight x multiplier. */
  weight: number;
  baseWeight: number;
  /** The cohort multiplier as applied (1 for FIXED; never below 1 for ELEVATE_ONLY). */
  multiplier: number;
  sanctionsCorrelated: boolean;
  /** The measured value behind the signal (an amount, a z-score, a count, a day count), or null. */
  measured: number | null;
  /** The rule's threshold it was compared with, or null. */
  threshold: number | null;
}

export interface AmlRuleReasoning {
  recommendation: AmlRecommendation;
  confidence: AmlConfidence;
  rationale: string;
  keyFactors: string[];
  /** Epoch seconds. */
  processedAt: number;
}

export interface AmlAssessment {
  maturity: AmlMaturity;
  riskScore: number;
  riskTier: AmlRiskTier;
  /** After the reasoning pass: ESCALATE_TO_BLOCK makes a FLAG a BLOCK. */
  action: AmlAction;
  level: AmlEventLevel;
  sanctionsHit: boolean;
  nearThreshold: boolean;
  signals: AmlSignal[];
  /** Present when the tier's action is FLAG (Document 2 §2). */
  reasoning: AmlRuleReasoning | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const round2 = (value: number) => Math.round(value * 100) / 100;
/** USD 10,000.00: fixed two decimals and thousands separators, independent of the locale. */
export const usdText = (amount: number) => {
  const [whole, cents] = amount.toFixed(2).split('.');
  return `USD ${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
};

/** Document 2 §3: 0-24 LOW PROCEED; 25-49 MEDIUM PROCEED; 50-74 HIGH FLAG; 75-100 CRITICAL BLOCK. */
export function tierOf(riskScore: number): { riskTier: AmlRiskTier; action: AmlAction } {
  if (riskScore >= 75) return { riskTier: 'CRITICAL', action: 'BLOCK' };
  if (riskScore >= 50) return { riskTier: 'HIGH', action: 'FLAG' };
  if (riskScore >= 25) return { riskTier: 'MEDIUM', action: 'PROCEED' };
  return { riskTier: 'LOW', action: 'PROCEED' };
}

/** INFO for LOW, WARNING for MEDIUM, ALERT for a FLAG, CRITICAL for a BLOCK (by the final action). */
export function levelOf(riskTier: AmlRiskTier, action: AmlAction): AmlEventLevel {
  if (action === 'BLOCK') return 'CRITICAL';
  if (action === 'FLAG') return 'ALERT';
  return riskTier === 'MEDIUM' ? 'WARNING' : 'INFO';
}

/** Whether an amount lies in the structuring band just under the reporting threshold. */
export function inStructuringBand(amountUsd: number, weights: AmlWeights): boolean {
  const { reportingThresholdUsd, structuringBandFraction } = weights.parameters;
  return amountUsd >= reportingThresholdUsd * (1 - structuringBandFraction) && amountUsd <= reportingThresholdUsd;
}

/** The sum of the signals' weights, rounded half up to a whole point and capped at 100. */
export const riskScoreOf = (signals: readonly Pick<AmlSignal, 'weight'>[]): number => Math.min(100, Math.round(signals.reduce((sum, signal) => sum + signal.weight, 0)));

interface Detected {
  code: AmlSignalCode;
  description: string;
  measured: number | null;
  threshold: number | null;
}

function sanctionsSignals(facts: AmlScreenFacts): Detected[] {
  const codes = { WALLET_ADDRESS: 'SANCTIONS_WALLET_ADDRESS', COUNTERPARTY_ADDRESS: 'SANCTIONS_COUNTERPARTY_ADDRESS', COUNTERPARTY_NAME: 'SANCTIONS_COUNTERPARTY_NAME' } as const;
  return facts.sanctions.map((finding) => ({
    code: codes[finding.kind],
    description:
      finding.kind === 'COUNTERPARTY_NAME'
        ? `The counterparty's name matches "${finding.matchedName}" (${finding.name}, OFAC SDN ${finding.programs.join(', ')}) at ${finding.score.toFixed(2)}.`
        : `The ${finding.kind === 'WALLET_ADDRESS' ? "wallet's" : "counterparty's"} address is listed by OFAC as a ${finding.currency} address of ${finding.name} (SDN ${finding.programs.join(', ')}).`,
    measured: round2(finding.score),
    threshold: finding.kind === 'COUNTERPARTY_NAME' ? 0.7 : null,
  }));
}

function behaviouralSignals(facts: AmlScreenFacts, weights: AmlWeights): Detected[] {
  const p = weights.parameters;
  const { profile, amountUsd } = facts;
  const found: Detected[] = [];
  const threshold = p.reportingThresholdUsd;
  if (facts.jurisdiction) {
    const { country, list, call, plenary } = facts.jurisdiction;
    found.push(
      list === 'CALL_FOR_ACTION'
        ? {
            code: 'FATF_CALL_FOR_ACTION',
            description: `The counterparty's country ${country} is a high-risk jurisdiction subject to a FATF call for action (${call}; ${plenary}).`,
            measured: null,
            threshold: null,
          }
        : { code: 'FATF_INCREASED_MONITORING', description: `The counterparty's country ${country} is under FATF increased monitoring (${plenary}).`, measured: null, threshold: null },
    );
  }
  if (profile.blockedCount > 0) found.push({ code: 'PRIOR_BLOCKS', description: `The wallet had ${profile.blockedCount} earlier payment(s) blocked.`, measured: profile.blockedCount, threshold: 1 });
  if (inStructuringBand(amountUsd, weights)) {
    found.push({
      code: 'STRUCTURING_BAND',
      description: `${usdText(amountUsd)} is within ${p.structuringBandFraction * 100}% under the ${usdText(threshold)} reporting threshold.`,
      measured: amountUsd,
      threshold,
    });
    if (facts.recentNearThreshold >= p.structuringPatternMinPrior) {
      found.push({
        code: 'STRUCTURING_PATTERN',
        description: `${facts.recentNearThreshold + 1} payments just under the reporting threshold within ${p.structuringWindowHours} hours.`,
        measured: facts.recentNearThreshold + 1,
        threshold: p.structuringPatternMinPrior + 1,
      });
    }
  }
  const sd = amountStdDev(profile);
  if (profile.txCount >= p.zScoreMinTransactions && sd !== null && amountUsd > profile.amountMeanUsd) {
    const z = (amountUsd - profile.amountMeanUsd) / Math.max(sd, profile.amountMeanUsd * p.zScoreStdDevFloorFraction);
    const versus = `${usdText(amountUsd)} is ${z.toFixed(1)} standard deviations above the wallet's mean of ${usdText(profile.amountMeanUsd)}`;
    if (z >= p.zScoreExtreme) found.push({ code: 'AMOUNT_EXTREME', description: `${versus}.`, measured: round2(z), threshold: p.zScoreExtreme });
    else if (z >= p.zScoreAnomaly) found.push({ code: 'AMOUNT_ANOMALY', description: `${versus}.`, measured: round2(z), threshold: p.zScoreAnomaly });
  }
  if (amountUsd > threshold) {
    if (profile.txCount < 10)
      found.push({
        code: 'LARGE_INITIAL_AMOUNT',
        description: `A reportable amount (${usdText(amountUsd)}) from a wallet with ${profile.txCount} earlier transaction(s).`,
        measured: amountUsd,
        threshold,
      });
    found.push({ code: 'REPORTABLE_AMOUNT', description: `${usdText(amountUsd)} is above the ${usdText(threshold)} reporting threshold.`, measured: amountUsd, threshold });
  }
  if (facts.recentScreens >= p.velocityBurstScreens) {
    found.push({
      code: 'VELOCITY_BURST',
      description: `${facts.recentScreens + 1} payments screened for this wallet within ${p.velocityWindowMinutes} minutes.`,
      measured: facts.recentScreens + 1,
      threshold: p.velocityBurstScreens + 1,
    });
  }
  if (profile.lastSeenAt !== null) {
    const idleDays = Math.floor((facts.now.getTime() - profile.lastSeenAt.getTime()) / DAY_MS);
    if (idleDays >= p.dormancyDays)
      found.push({ code: 'DORMANT_REACTIVATION', description: `The wallet transacts again after ${idleDays} days without a transaction.`, measured: idleDays, threshold: p.dormancyDays });
  }
  if (profile.txCount > 0 && facts.newCounterparty) {
    found.push({
      code: 'NEW_COUNTERPARTY',
      description: `A counterparty this wallet has not transacted with (it has ${profile.counterpartyCount} known).`,
      measured: profile.counterpartyCount,
      threshold: null,
    });
  }
  if (amountUsd >= p.roundAmountMinUsd && amountUsd % p.roundAmountUnitUsd === 0) {
    found.push({ code: 'ROUND_AMOUNT', description: `${usdText(amountUsd)} is a round multiple of ${usdText(p.roundAmountUnitUsd)}.`, measured: amountUsd, threshold: p.roundAmountUnitUsd });
  }
  if (profile.txCount === 0) found.push({ code: 'NO_HISTORY', description: 'The wallet has no transaction history with the rail.', measured: 0, threshold: null });
  return found;
}

/** Every signal of the screen, weighted for the wallet's cohort (docs/aml-model.md), heaviest first. */
export function detectSignals(facts: AmlScreenFacts, weights: AmlWeights): AmlSignal[] {
  const cohort = weights.cohortMultipliers[maturityOf(facts.profile.txCount)];
  return [...sanctionsSignals(facts), ...behaviouralSignals(facts, weights)]
    .map((detected) => {
      const parameters = weights.signals[detected.code];
      const multiplier = parameters.scaling === 'FIXED' ? 1 : parameters.scaling === 'ELEVATE_ONLY' ? Math.max(1, cohort) : cohort;
      return {
        code: detected.code,
        category: parameters.category,
        description: detected.description,
        weight: round2(parameters.weight * multiplier),
        baseWeight: parameters.weight,
        multiplier,
        sanctionsCorrelated: parameters.sanctionsCorrelated,
        measured: detected.measured,
        threshold: detected.threshold,
      };
    })
    .sort((a, b) => b.weight - a.weight);
}

/**
 * The reasoning pass of a FLAG (HIGH tier), in this order:
 * 1. The counterparty's jurisdiction is under a FATF call for countermeasures: ESCALATE_TO_BLOCK, HIGH.
 * 2. A structuring pattern from a wallet with little history (UNKNOWN, NEW): ESCALATE_TO_BLOCK, MEDIUM.
 * 3. A score within reach of CRITICAL (escalationMinScore) carried by several signals at once
 *    (escalationMinSignals, NO_HISTORY not counted): ESCALATE_TO_BLOCK, MEDIUM.
 * 4. Otherwise PROCEED_WITH_REVIEW; confidence HIGH for an ESTABLISHED wallet, MEDIUM for a
 *    DEVELOPING one, LOW with little history.
 */
export function reasonAboutFlag(
  facts: Pick<AmlScreenFacts, 'jurisdiction' | 'now'>,
  assessed: { maturity: AmlMaturity; riskScore: number; signals: readonly AmlSignal[] },
  weights: AmlWeights,
): AmlRuleReasoning {
  const { maturity, riskScore, signals } = assessed;
  const processedAt = Math.floor(facts.now.getTime() / 1000);
  const keyFactors = signals.slice(0, 5).map((signal) => signal.description);
  const has = (code: AmlSignalCode) => signals.some((signal) => signal.code === code);
  const young = maturity === 'UNKNOWN' || maturity === 'NEW';
  const substantive = signals.filter((signal) => signal.code !== 'NO_HISTORY').length;
  const lead = `Risk score ${riskScore} (HIGH) for a ${maturity} wallet on ${signals.length} signal(s)`;
  if (has('FATF_CALL_FOR_ACTION') && isCountermeasuresCall(facts.jurisdiction)) {
    return {
      recommendation: 'ESCALATE_TO_BLOCK',
      confidence: 'HIGH',
      rationale: `${lead}. FATF calls on its members to apply countermeasures to ${facts.jurisdiction!.country}; the payment should not proceed without enhanced due diligence outside the rail.`,
      keyFactors,
      processedAt,
    };
  }
  if (has('STRUCTURING_PATTERN') && young) {
    return {
      recommendation: 'ESCALATE_TO_BLOCK',
      confidence: 'MEDIUM',
      rationale: `${lead}. Repeated amounts just under the reporting threshold from a wallet with little history is the structuring typology; no track record offsets it.`,
      keyFactors,
      processedAt,
    };
  }
  const { escalationMinScore, escalationMinSignals } = weights.parameters;
  if (riskScore >= escalationMinScore && substantive >= escalationMinSignals) {
    return {
      recommendation: 'ESCALATE_TO_BLOCK',
      confidence: 'MEDIUM',
      rationale: `${lead}. ${substantive} independent risk indicators together bring the score within ${75 - riskScore} point(s) of CRITICAL.`,
      keyFactors,
      processedAt,
    };
  }
  const confidence: AmlConfidence = maturity === 'ESTABLISHED' ? 'HIGH' : maturity === 'DEVELOPING' ? 'MEDIUM' : 'LOW';
  const basis = young
    ? 'the wallet has too little history to judge the deviation, so the review should confirm the counterparty'
    : "the wallet's track record makes a legitimate explanation plausible";
  return { recommendation: 'PROCEED_WITH_REVIEW', confidence, rationale: `${lead}. No escalation rule applies and ${basis}.`, keyFactors, processedAt };
}

/** The screen assessed: a sanctions hit is always CRITICAL and BLOCK with score 100; a FLAG gets the reasoning pass. */
export function assessScreen(facts: AmlScreenFacts, weights: AmlWeights): AmlAssessment {
  const maturity = maturityOf(facts.profile.txCount);
  const signals = detectSignals(facts, weights);
  const sanctionsHit = facts.sanctions.length > 0;
  const riskScore = sanctionsHit ? 100 : riskScoreOf(signals);
  const { riskTier, action: tierAction } = tierOf(riskScore);
  const reasoning = tierAction === 'FLAG' ? reasonAboutFlag(facts, { maturity, riskScore, signals }, weights) : null;
  const action = reasoning?.recommendation === 'ESCALATE_TO_BLOCK' ? 'BLOCK' : tierAction;
  return { maturity, riskScore, riskTier, action, level: levelOf(riskTier, action), sanctionsHit, nearThreshold: inStructuringBand(facts.amountUsd, weights), signals, reasoning };
}
