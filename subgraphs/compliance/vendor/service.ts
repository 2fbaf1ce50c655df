import { getAddress, isAddress } from 'viem';
import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { type FatfList, fatfStatusOf, type SanctionsIndex } from '../domain/index.js';
import { type EntityEsgParameters, entityEsgTierOf } from '../esg/domain/index.js';
import type { EntityEsgService } from '../esg/service.js';
import type { UboChainResult, UboService } from '../ownership/service.js';
import type { PepScreenResult, PepScreenService } from '../pep/service.js';
import { BoundedMemo } from '../shared/cache.js';
import type { LeiRegistry } from '../shared/lei-registry.js';
import { type PayeeNameMatcher, verifyPayee } from '../vop/domain/index.js';
import type { ComplianceStore, WalletRegistration } from '../vop/store.js';
import { assessVendorRisk, COMPLIANCE_WEIGHT, DEFAULT_ESG_SCORE, ESG_WEIGHT, type VendorFindings, vendorScreeningOf } from './domain/index.js';

/** Document 2 §8: `refreshAt` is one day after `generatedAt`. */
export const VENDOR_RISK_REFRESH_MS = 24 * 60 * 60 * 1000;
/** The sanctions name matches read per vendor (the strongest first). */
const NAME_MATCH_LIMIT = 10;

export interface VendorRiskRequest {
  name: string;
  lei?: string | undefined;
  wallet?: string | undefined;
  /** ISO 3166-1 alpha-2. */
  country?: string | undefined;
  /** USD; informational (the spec's body carries it; the score does not depend on it). */
  amount?: number | undefined;
}

export interface VendorRiskDeps {
  clock: Clock;
  registry: Pick<ComplianceStore, 'activeRegistration'>;
  leiRegistry: LeiRegistry;
  matcher: PayeeNameMatcher;
  sanctions: () => SanctionsIndex;
  fatf: () => FatfList;
  esg: Pick<EntityEsgService, 'entityEsg'>;
  pep: Pick<PepScreenService, 'pepScreen'>;
  ubo: Pick<UboService, 'ownershipChains'>;
  esgParameters: () => EntityEsgParameters;
  /** The ESG service the score came from, as `esg.source` names it: <host>/compliance/esg. */
  esgServiceHost: string;
}

/** The ESG part: the entity's score when an LEI is known (given, or the wallet's), else the spec's default 50. */
async function esgOf(deps: VendorRiskDeps, lei: string | undefined, request: VendorRiskRequest) {
  if (lei) {
    const scored = await deps.esg.entityEsg(lei, { name: request.name, ...(request.country ? { country: request.country } : {}) });
    return { score: scored.composite, tier: scored.feeTier, source: `${deps.esgServiceHost}/score/${lei}` };
  }
  return {
    score: DEFAULT_ESG_SCORE,
    tier: entityEsgTierOf(DEFAULT_ESG_SCORE, deps.esgParameters()).tier,
    source: `${deps.esgServiceHost} (default ${DEFAULT_ESG_SCORE}: no LEI given or registered to the wallet)`,
  };
}

/**
 * The scores of a name's strongest sanctions matches, held per sanctions index (a new list is a new
 * index, so its screens are new keys): a vendor's name is screened once per list, not per request.
 */
const nameScreens = new WeakMap<SanctionsIndex, BoundedMemo<number[]>>();

function nameMatchScores(sanctions: SanctionsIndex, name: string): number[] {
  let screens = nameScreens.get(sanctions);
  if (!screens) nameScreens.set(sanctions, (screens = new BoundedMemo()));
  let scores = screens.get(name);
  if (!scores) screens.set(name, (scores = sanctions.screenName(name, { limit: NAME_MATCH_LIMIT }).matches.map((match) => match.score)));
  return scores;
}

/** What the screens read from the registry and the PEP lists, besides the request. */
interface ScreenInputs {
  registration: WalletRegistration | undefined;
  lei: string | undefined;
  pep: PepScreenResult;
  chains: readonly (UboChainResult | null)[];
}

/** The screens of Document 2 §4 POST /vendor-risk: sanctions (name, wallet, owners), PEP, FATF, VoP. */
function findingsOf(deps: VendorRiskDeps, request: VendorRiskRequest, inputs: ScreenInputs): VendorFindings {
  const sanctions = deps.sanctions();
  const { registration, lei, pep, chains } = inputs;
  const country = request.country ?? (lei ? deps.leiRegistry.find(lei)?.jurisdiction?.slice(0, 2) : undefined) ?? undefined;
  const vop = request.wallet ? verifyPayee({ registration, submittedName: request.name }, deps.matcher) : undefined;
  return {
    nameMatchScores: nameMatchScores(sanctions, request.name),
    walletListed: request.wallet ? sanctions.findAddress(request.wallet).length > 0 : false,
    ownershipMatchScores: chains[0]?.sanctionsMatches.map((match) => match.score) ?? [],
    pepRiskLevel: pep.riskLevel,
    fatfStatus: country ? fatfStatusOf(country, deps.fatf()) : undefined,
    vopResult: vop?.result,
  };
}

/**
 * Everything the assessment reads, side by side: the wallet's registration (the one database read
 * of a warm request), the PEP screen, and, as soon as the LEI is known (given, or the wallet's),
 * the ownership chain and the entity ESG score.
 */
async function screenInputsOf(deps: VendorRiskDeps, request: VendorRiskRequest) {
  const registrationRead = request.wallet && isAddress(request.wallet, { strict: false }) ? deps.registry.activeRegistration(getAddress(request.wallet)) : Promise.resolve(undefined);
  const leiRead = request.lei ? Promise.resolve(request.lei.toUpperCase()) : registrationRead.then((registration) => registration?.lei ?? undefined);
  const byLei = leiRead.then((lei) => Promise.all([lei ? deps.ubo.ownershipChains([{ lei, deep: false }]) : [], esgOf(deps, lei, request)]));
  const [registration, lei, pep, [chains, esg]] = await Promise.all([
    registrationRead,
    leiRead,
    deps.pep.pepScreen({ name: request.name, ...(request.country ? { country: request.country } : {}) }),
    byLei,
  ]);
  return { inputs: { registration, lei, pep, chains }, esg };
}

/** One assessment, with the registration and PEP screen it read (the graph's fields answer from them). */
async function assess(deps: VendorRiskDeps, request: VendorRiskRequest) {
  if (request.lei && !deps.leiRegistry.isValidLei(request.lei)) {
    throw new AppError('CMP_ERR_INVALID_LEI', { message: 'lei is not a valid LEI: 20 letters and digits with ISO 17442 check digits.' });
  }
  const { inputs, esg } = await screenInputsOf(deps, request);
  const screening = vendorScreeningOf(findingsOf(deps, request, inputs));
  const risk = assessVendorRisk(screening, esg.score);
  const generatedAt = deps.clock.now();
  const answer = {
    vendorRiskScore: risk.vendorRiskScore,
    riskTier: risk.riskTier,
    recommendation: risk.recommendation,
    entity: { name: request.name, lei: inputs.lei ?? null },
    breakdown: { complianceScore: risk.complianceScore, esgScore: esg.score, complianceWeight: COMPLIANCE_WEIGHT, esgWeight: ESG_WEIGHT },
    compliance: {
      verdict: risk.verdict,
      signals: risk.signals,
      sanctions: screening.sanctionsHit || screening.sanctionsNearMatch,
      pep: screening.pepMatch,
      fatfBlacklist: screening.fatfBlacklist,
    },
    esg,
    generatedAt: generatedAt.toISOString(),
    refreshAt: new Date(generatedAt.getTime() + VENDOR_RISK_REFRESH_MS).toISOString(),
  };
  return { answer, registration: inputs.registration, pep: inputs.pep };
}

/** POST /compliance/vendor-risk and the graph's vendorAssessment: one assessment, no key and no payment (Document 2 §4). */
export function createVendorRiskService(deps: VendorRiskDeps) {
  return {
    vendorRisk: async (request: VendorRiskRequest) => (await assess(deps, request)).answer,
    /** The assessment with what it read, for the graph: its VoP field verifies against the same registration read. */
    assess: (request: VendorRiskRequest) => assess(deps, request),
  };
}

export type VendorRiskService = ReturnType<typeof createVendorRiskService>;
export type VendorRiskAnswer = Awaited<ReturnType<VendorRiskService['vendorRisk']>>;
