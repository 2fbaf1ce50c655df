import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import { type Access, type Offer, paidWork } from '../../../platform/access/admission.js';
import { requireAdminKey } from '../../../platform/access/shared-secret.js';
import { type Clock, epochSeconds } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { Synthesiser } from '../../../platform/synthesis.js';
import { regulatoryCalendar } from '../data/regulatory-calendar.js';
import type { LeiEntry, LeiRegistry } from '../shared/lei-registry.js';
import type { VopCheckLog } from './check-log.js';
import { assessNameDiscrepancy, type GrayZoneReasoning, type PayeeNameMatcher, type PayeeVerification, searchLeiByName, verifyPayee } from './domain/index.js';
import type { RegisterBody, VopVerifyBody } from './inputs.js';
import type { ComplianceStore, VopCheckRecord, WalletRegistration } from './store.js';

/** Document 2 §8: USD 0.075 per verification (75000 base units, 6 decimals). */
export const VOP_OFFER: Offer = { price: { amount: 75_000n, description: 'Verification of payee: the registered entity of a wallet against a submitted name or LEI' } };

/** The name comparison of VoP, and the normalised tokens the gray-zone assessment reads. */
export interface ComplianceMatcher extends PayeeNameMatcher {
  tokens(name: string): string[];
  /** The screening score (fuzzy), for finding LEI records by name; VoP uses `similarity`. */
  searchSimilarity(query: string, name: string): number;
}

export interface ComplianceServiceDeps {
  clock: Clock;
  store: ComplianceStore;
  access: Access;
  matcher: ComplianceMatcher;
  leiRegistry: LeiRegistry;
  adminKey: string | undefined;
  /** Words the gray-zone rationale (rule-based by default). */
  synthesiser: Synthesiser;
  /** The VoP history, written behind the answer (decision 0096). */
  checks: VopCheckLog;
}

/** The wallet's registration as the caller already read it in this request (the vendor view), so VoP does not read it again. */
export interface KnownRegistration {
  registration: WalletRegistration | undefined;
}

export type VopAnswer = Omit<PayeeVerification, 'matchedName'> & { requestId: string; grayZoneReasoning?: GrayZoneReasoning };

/** A wallet address as answered: EIP-55 checksummed. */
const checksummed = (address: string): string => getAddress(address);

/** The registered entity as GET /vop/lookup/:wallet documents it. */
function presentRegistration(registration: WalletRegistration) {
  return {
    walletAddress: checksummed(registration.walletAddress),
    legalName: registration.legalName,
    lei: registration.lei,
    leiStatus: registration.leiStatus,
    aliases: registration.aliases,
    registeredAt: epochSeconds(registration.registeredAt),
    registrationType: registration.registrationType,
    country: registration.country,
  };
}

function presentCheck(check: VopCheckRecord) {
  return {
    requestId: check.requestId,
    result: check.result,
    score: check.score,
    resolvedBy: check.resolvedBy,
    submittedName: check.submittedName,
    submittedLei: check.submittedLei,
    checkedAt: epochSeconds(check.checkedAt),
  };
}

function checkedLei(deps: ComplianceServiceDeps, lei: string): string {
  const upper = lei.toUpperCase();
  if (!deps.leiRegistry.isValidLei(upper)) throw new AppError('CMP_ERR_INVALID_LEI');
  return upper;
}

async function registrationOf(deps: ComplianceServiceDeps, walletAddress: string): Promise<WalletRegistration> {
  const registration = await deps.store.activeRegistration(walletAddress);
  if (!registration) throw new AppError('CMP_ERR_WALLET_NOT_REGISTERED');
  return registration;
}

/**
 * The VoP result, taken into the wallet's history (written behind the answer, decision 0096); the
 * gray-zone assessment where the spec asks for it.
 */
async function decide(deps: ComplianceServiceDeps, body: VopVerifyBody, known?: KnownRegistration): Promise<VopAnswer> {
  const registration = known ? known.registration : await deps.store.activeRegistration(body.walletAddress);
  const { matchedName, ...verification } = verifyPayee({ registration, submittedName: body.submittedName, submittedLei: body.submittedLei }, deps.matcher);
  const now = deps.clock.now();
  const requestId = randomUUID();
  await deps.checks.record({
    requestId,
    walletAddress: body.walletAddress,
    submittedName: body.submittedName,
    submittedLei: body.submittedLei ?? null,
    result: verification.result,
    score: verification.score,
    resolvedBy: verification.resolvedBy,
    checkedAt: now,
  });
  const answer: VopAnswer = { requestId, ...verification };
  if ((verification.result === 'PROCEED_FLAGGED' || verification.result === 'PROCEED_UNVERIFIED') && matchedName !== null) {
    const reasoning = await grayZoneReasoning(deps, body.submittedName, matchedName, verification.score ?? 0, now);
    if (reasoning) answer.grayZoneReasoning = reasoning;
  }
  return answer;
}

/**
 * The advisory assessment of a gray-zone name (Document 2 §2): the domain's rules decide it, the
 * synthesiser words its rationale; when the synthesiser fails, the field is omitted as the spec says.
 */
async function grayZoneReasoning(deps: ComplianceServiceDeps, submitted: string, registered: string, score: number, now: Date): Promise<GrayZoneReasoning | undefined> {
  const assessed = assessNameDiscrepancy({ submitted, registered, submittedTokens: deps.matcher.tokens(submitted), registeredTokens: deps.matcher.tokens(registered) }, score, now);
  const worded = await deps.synthesiser.synthesise({
    topic: 'vop-gray-zone',
    facts: { submitted, registered, score, assessment: assessed.assessment, likelyCause: assessed.likelyCause },
    ruleBasedText: assessed.rationale,
  });
  return worded ? { ...assessed, rationale: worded.text } : undefined;
}

/** GET /lei/:lei: the registry record and every active wallet registered under it. */
async function leiRecord(deps: ComplianceServiceDeps, lei: string) {
  const entry = deps.leiRegistry.find(checkedLei(deps, lei));
  if (!entry) throw new AppError('CMP_ERR_LEI_NOT_FOUND');
  const wallets = await deps.store.walletsByLei([entry.lei]);
  return { ...entry, otherNames: [...entry.otherNames], wallets: wallets.map(presentRegistration) };
}

/** For the graph's DataLoaders: the active wallets under each LEI, one query for the batch. */
async function walletsUnder(deps: ComplianceServiceDeps, leis: readonly string[]) {
  const byLei = new Map<string, ReturnType<typeof presentRegistration>[]>(leis.map((lei) => [lei, []]));
  for (const registration of await deps.store.walletsByLei(leis)) byLei.get(registration.lei!)?.push(presentRegistration(registration));
  return byLei;
}

/** POST /register (admin): SELF_DECLARED by name, REGISTRY_VERIFIED when the LEI is in the registry. */
async function register(deps: ComplianceServiceDeps, request: RequestContext, body: RegisterBody) {
  requireAdminKey(request, deps.adminKey);
  const entry = body.lei === undefined ? undefined : deps.leiRegistry.find(checkedLei(deps, body.lei));
  if (body.lei !== undefined && !entry)
    throw new AppError('CMP_ERR_LEI_NOT_VERIFIED', { message: 'The LEI is well-formed but not in the LEI registry snapshot; register without it (SELF_DECLARED) or with a registered LEI.' });
  const now = deps.clock.now();
  const { registration, created } = await deps.store.register(
    {
      walletAddress: body.walletAddress,
      legalName: body.legalName ?? entry!.legalName,
      country: body.country ?? entry?.jurisdiction ?? null,
      aliases: [...new Set([...(body.aliases ?? []), ...(entry?.otherNames ?? [])])],
      lei: entry?.lei ?? null,
      leiStatus: entry?.leiStatus ?? null,
      registrationType: entry ? 'REGISTRY_VERIFIED' : 'SELF_DECLARED',
      registeredAt: now,
    },
    now,
  );
  return { created, registration: presentRegistration(registration) };
}

/** DELETE /register/:wallet (admin): inactive from now on; the audit trail stays. */
async function deregister(deps: ComplianceServiceDeps, request: RequestContext, walletAddress: string) {
  requireAdminKey(request, deps.adminKey);
  if (!(await deps.store.deactivate(walletAddress, deps.clock.now()))) throw new AppError('CMP_ERR_WALLET_NOT_REGISTERED');
  return { walletAddress: checksummed(walletAddress), active: false, deactivatedAt: epochSeconds(deps.clock.now()) };
}

/** The VoP, registry, LEI and calendar capabilities, called alike by routes.ts and resolvers.ts. */
export function createComplianceService(deps: ComplianceServiceDeps) {
  return {
    /** POST /vop/verify: paid (x402, 0.075 USDC) or taken with an API key; the payment settles once the check is taken for the history. */
    verifyPayee: (request: RequestContext, body: VopVerifyBody, resource: string, known?: KnownRegistration) => paidWork(deps.access, request, VOP_OFFER, resource, () => decide(deps, body, known)),

    async lookup(walletAddress: string) {
      return presentRegistration(await registrationOf(deps, walletAddress));
    },

    async history(walletAddress: string) {
      await deps.checks.flush();
      const checks = (await deps.store.history([walletAddress])).get(walletAddress.toLowerCase()) ?? [];
      return { walletAddress: checksummed(walletAddress), count: checks.length, checks: checks.map(presentCheck) };
    },

    lei: (lei: string) => leiRecord(deps, lei),

    /** GET /lei/search?name=: LEIs whose legal or other name matches, best first (decision 0034). */
    searchLei(name: string) {
      const matches = searchLeiByName(deps.leiRegistry.entries?.() ?? [], name, deps.matcher.searchSimilarity);
      return { query: name, count: matches.length, matches };
    },

    /** GET /compliance/regulatory-calendar: the 16 events in effective-date order, each with its citation. */
    regulatoryCalendar() {
      return { count: regulatoryCalendar.length, events: regulatoryCalendar.map((event) => ({ ...event, jurisdictions: [...event.jurisdictions], citation: { ...event.citation } })) };
    },

    /** For the graph's DataLoaders: the active registrations of these wallets, by lower-case address. */
    async registrations(walletAddresses: readonly string[]) {
      const rows = await deps.store.activeRegistrations(walletAddresses);
      return new Map([...rows].map(([address, registration]) => [address, presentRegistration(registration)]));
    },

    /** For the graph's DataLoaders: each wallet's last 50 checks, one query for the batch. */
    async histories(walletAddresses: readonly string[]) {
      await deps.checks.flush();
      const rows = await deps.store.history(walletAddresses);
      return new Map([...rows].map(([address, checks]) => [address, checks.map(presentCheck)]));
    },

    walletsUnder: (leis: readonly string[]) => walletsUnder(deps, leis),

    /** The registry record of a well-formed LEI, or null when the snapshot does not hold it. */
    legalEntity(lei: string): LeiEntry | null {
      return deps.leiRegistry.find(checkedLei(deps, lei)) ?? null;
    },

    register: (request: RequestContext, body: RegisterBody) => register(deps, request, body),
    deregister: (request: RequestContext, walletAddress: string) => deregister(deps, request, walletAddress),
  };
}

export type ComplianceService = ReturnType<typeof createComplianceService>;
