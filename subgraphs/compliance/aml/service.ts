import { createHash } from 'node:crypto';
import { type Clock, epochSeconds } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { Logger } from '../../../platform/log.js';
import { RULE_BASED_MODEL, type Synthesiser } from '../../../platform/synthesis.js';
import { addressKey, type DatasetProvenance, type FatfList, type FatfStanding, fatfStandingOf, listAge, looksLikeWalletAddress, normaliseName, type SanctionsIndex } from '../domain/index.js';
import {
  type AmlAction,
  type AmlConfidence,
  type AmlDirection,
  type AmlEventLevel,
  type AmlMaturity,
  type AmlProfileStats,
  type AmlRecommendation,
  type AmlRiskTier,
  type AmlSignal,
  type AmlWeights,
  amountStdDev,
  assessScreen,
  maturityOf,
  recordScreen,
  type SanctionsFinding,
  screenSanctions,
} from './domain/index.js';
import type { AmlScreenBody } from './inputs.js';
import type { AmlScreeningRow, AmlScreenState, AmlScreenWrite, AmlStore } from './store.js';

/** Document 2 §8: GET /aml/events/:wallet answers the last 50. */
export const AML_EVENTS_LIMIT = 50;

export interface AmlServiceDeps {
  clock: Clock;
  store: AmlStore;
  weights: AmlWeights;
  /** The SDN screening index (names, aliases and digital-currency addresses), built once on first use. */
  sanctionsIndex: () => SanctionsIndex;
  sanctionsProvenance: () => DatasetProvenance;
  /** The current FATF lists. */
  fatfList: () => FatfList;
  synthesiser: Synthesiser;
  logger?: Logger;
}

export interface AmlReasoning {
  recommendation: AmlRecommendation;
  confidence: AmlConfidence;
  rationale: string;
  keyFactors: string[];
  processedAt: number;
  /** Which synthesiser worded the rationale; the rule-based one says so. */
  model: string;
}

/** The AML screening result (Document 2 §2), as answered and as stored. */
export interface AmlScreenResult {
  wallet: string;
  riskScore: number;
  riskTier: AmlRiskTier;
  action: AmlAction;
  signals: AmlSignal[];
  sanctions: { hit: boolean; matches: SanctionsFinding[]; list: { source: string; url: string; asOf: string; stale: boolean } };
  profile: { maturity: AmlMaturity; txCount: number; txVolumeAvg: number; riskScore: number };
  paymentId: string;
  checkedAt: number;
  reasoning?: AmlReasoning;
}

const epochOrNull = (date: Date | null) => (date === null ? null : epochSeconds(date));
const round2 = (value: number) => Math.round(value * 100) / 100;
const HOUR_MS = 3_600_000;

/** What a paymentId commits to: a second screen of it must screen the same thing. */
function fingerprintOf(body: AmlScreenBody, amountUsd: number): string {
  const terms = [body.counterparty, body.counterpartyName ?? '', body.counterpartyCountry ?? '', body.amount, body.currency, amountUsd, body.direction];
  return createHash('sha256').update(JSON.stringify(terms)).digest('hex');
}

/** The counterparty as its wallet's counterparties are keyed: an address by addressKey, a name by its normalised tokens. */
const counterpartyKeyOf = (counterparty: string) =>
  looksLikeWalletAddress(counterparty.trim()) ? addressKey(counterparty) : `name:${normaliseName(counterparty) || counterparty.trim().toLowerCase()}`;

function presentProfile(wallet: string, profile: AmlProfileStats) {
  const sd = amountStdDev(profile);
  return {
    wallet,
    maturity: maturityOf(profile.txCount),
    txCount: profile.txCount,
    txVolumeAvg: round2(profile.amountMeanUsd),
    txVolumeStdDev: sd === null ? null : round2(sd),
    txVolumeTotal: round2(profile.volumeTotalUsd),
    txVolumeMax: round2(profile.amountMaxUsd),
    counterpartyCount: profile.counterpartyCount,
    screenCount: profile.screenCount,
    blockedCount: profile.blockedCount,
    riskScore: profile.riskScore === null ? null : round2(profile.riskScore),
    firstSeenAt: epochOrNull(profile.firstSeenAt),
    lastSeenAt: epochOrNull(profile.lastSeenAt),
    lastScreenedAt: epochOrNull(profile.lastScreenedAt),
  };
}

function presentEvent(row: AmlScreeningRow) {
  const result = row.result as AmlScreenResult;
  return {
    paymentId: row.paymentId,
    level: row.level as Exclude<AmlEventLevel, 'INFO'>,
    riskScore: row.riskScore,
    riskTier: result.riskTier,
    action: row.action,
    direction: row.direction,
    amountUsd: row.amountUsd,
    signals: result.signals.map((signal) => signal.code),
    sanctionsHit: result.sanctions.hit,
    recommendation: result.reasoning?.recommendation ?? null,
    checkedAt: epochSeconds(row.checkedAt),
  };
}

/** The reasoning's rationale worded by the synthesiser; on failure the rule-based wording stays (decision 0017). */
async function worded(deps: AmlServiceDeps, result: AmlScreenResult): Promise<AmlScreenResult> {
  const reasoning = result.reasoning;
  if (!reasoning) return result;
  const synthesis = await deps.synthesiser
    .synthesise({
      topic: 'AML screening reasoning',
      facts: {
        riskScore: result.riskScore,
        riskTier: result.riskTier,
        action: result.action,
        recommendation: reasoning.recommendation,
        confidence: reasoning.confidence,
        keyFactors: reasoning.keyFactors,
      },
      ruleBasedText: reasoning.rationale,
    })
    .catch((error: unknown) => {
      deps.logger?.warn({ err: error }, 'AML reasoning synthesis failed; the rule-based rationale is kept');
      return null;
    });
  if (!synthesis || (synthesis.text === reasoning.rationale && synthesis.model === reasoning.model)) return result;
  return { ...result, reasoning: { ...reasoning, rationale: synthesis.text, model: synthesis.model } };
}

/** What one screen is decided on besides the store's state: the request, its USD amount, the findings, the clock. */
interface ScreenRequest {
  body: AmlScreenBody;
  amountUsd: number;
  fingerprint: string;
  findings: SanctionsFinding[];
  jurisdiction: FatfStanding | null;
  provenance: DatasetProvenance;
  now: Date;
}

/** The store's decision for one screen (pure): the result, the profile after it, and the screen's row. */
function decideScreen(weights: AmlWeights, screen: ScreenRequest, state: AmlScreenState): AmlScreenWrite {
  const { body, amountUsd, findings, jurisdiction, provenance, now } = screen;
  const assessment = assessScreen(
    {
      amountUsd,
      direction: body.direction as AmlDirection,
      profile: state.profile,
      newCounterparty: state.newCounterparty,
      recentScreens: state.recentScreens,
      recentNearThreshold: state.recentNearThreshold,
      jurisdiction,
      sanctions: findings,
      now,
    },
    weights,
  );
  const blocked = assessment.action === 'BLOCK';
  const profile = recordScreen(state.profile, { amountUsd, riskScore: assessment.riskScore, blocked, newCounterparty: state.newCounterparty, now }, weights.parameters.riskScoreSmoothing);
  const result: AmlScreenResult = {
    wallet: body.wallet,
    riskScore: assessment.riskScore,
    riskTier: assessment.riskTier,
    action: assessment.action,
    signals: assessment.signals,
    sanctions: { hit: assessment.sanctionsHit, matches: findings, list: { source: 'OFAC SDN list', url: provenance.url, asOf: provenance.asOf, stale: listAge(provenance.asOf, now).stale } },
    profile: { maturity: maturityOf(profile.txCount), txCount: profile.txCount, txVolumeAvg: round2(profile.amountMeanUsd), riskScore: round2(profile.riskScore ?? assessment.riskScore) },
    paymentId: body.paymentId,
    checkedAt: epochSeconds(now),
    ...(assessment.reasoning ? { reasoning: { ...assessment.reasoning, model: RULE_BASED_MODEL } } : {}),
  };
  return {
    profile,
    countCounterparty: !blocked,
    screening: {
      fingerprint: screen.fingerprint,
      direction: body.direction,
      amountUsd,
      nearThreshold: assessment.nearThreshold,
      riskScore: assessment.riskScore,
      action: assessment.action,
      level: assessment.level,
      result,
      checkedAt: now,
    },
  };
}

/** POST /aml/screen: one screen, counted once per (paymentId, wallet); a repeat answers the stored result. */
async function screen(deps: AmlServiceDeps, body: AmlScreenBody): Promise<AmlScreenResult> {
  const parameters = deps.weights.parameters;
  const now = deps.clock.now();
  const amountUsd = body.amountUsd ?? body.amount;
  const fingerprint = fingerprintOf(body, amountUsd);
  const walletKey = addressKey(body.wallet);
  const findings = screenSanctions(deps.sanctionsIndex(), { wallet: body.wallet, counterparty: body.counterparty, counterpartyName: body.counterpartyName });
  const jurisdiction = body.counterpartyCountry === undefined ? null : fatfStandingOf(body.counterpartyCountry, deps.fatfList());
  const request: ScreenRequest = { body, amountUsd, fingerprint, findings, jurisdiction, provenance: deps.sanctionsProvenance(), now };
  const outcome = await deps.store.screen(
    {
      walletKey,
      paymentId: body.paymentId,
      counterpartyKey: counterpartyKeyOf(body.counterparty),
      velocitySince: new Date(now.getTime() - parameters.velocityWindowMinutes * 60_000),
      structuringSince: new Date(now.getTime() - parameters.structuringWindowHours * HOUR_MS),
    },
    (state) => decideScreen(deps.weights, request, state),
  );
  if (outcome.kind === 'REPLAYED') {
    if (outcome.row.fingerprint !== fingerprint) throw new AppError('CMP_ERR_AML_PAYMENT_CONFLICT');
    return outcome.row.result as AmlScreenResult;
  }
  const stored = outcome.row.result as AmlScreenResult;
  const answer = await worded(deps, stored);
  if (answer !== stored) {
    await deps.store.replaceResult(body.paymentId, walletKey, answer).catch((error: unknown) => deps.logger?.warn({ err: error }, 'could not store the worded AML reasoning'));
  }
  return answer;
}

/**
 * AML screening (Document 2 §2-§4), called alike by aml/routes.ts and in-process by the payments
 * subgraph through `screen`. The internal key is checked by the routes: in-process calls are internal.
 */
export function createAmlService(deps: AmlServiceDeps) {
  return {
    screen: (body: AmlScreenBody) => screen(deps, body),

    /** GET /aml/profile/:wallet: maturity, rolling statistics and risk score; a never-screened wallet is UNKNOWN with zeros (decision 0017). */
    async profile(wallet: string) {
      return presentProfile(wallet, await deps.store.profile(addressKey(wallet)));
    },

    /** GET /aml/events/:wallet: the last 50 screens of level WARNING and above, newest first. */
    async events(wallet: string) {
      const rows = await deps.store.events(addressKey(wallet), AML_EVENTS_LIMIT);
      return { wallet, count: rows.length, events: rows.map(presentEvent) };
    },
  };
}

export type AmlService = ReturnType<typeof createAmlService>;
