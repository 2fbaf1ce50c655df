// Know your agent (Document 2 §2 "Agent (KYA)", §3 "KYA tiers", §8 "Agent credential", "KYA daily
// caps"): an AI agent mapped to an owner entity, the originator for FATF R.16. Pure rules: the
// LEI lookup is done by the caller and passed in as a plain value; `now` is passed in.

export const KYA_LEVELS = ['ANONYMOUS', 'REGISTERED', 'VERIFIED'] as const;
export type KyaLevel = (typeof KYA_LEVELS)[number];

export const AGENT_STATUSES = ['ACTIVE', 'REVOKED'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** USD limits of a tier or a mandate; null is "no platform cap" (VERIFIED). */
export type UsdCaps = {
  maxNotionalUsd: number | null;
  dailyCapUsd: number | null;
};

/**
 * Document 2 §3 (KYA tiers) and §8 (KYA daily caps): ANONYMOUS USD 1,000, REGISTERED USD 25,000,
 * VERIFIED none, written as null.
 */
export const TIER_DAILY_CAP_USD: Readonly<Record<KyaLevel, number | null>> = { ANONYMOUS: 1_000, REGISTERED: 25_000, VERIFIED: null };

/** Document 2 §8: an agent credential lives one hour. */
export const CREDENTIAL_TTL_MS = 60 * 60 * 1000;

/** What the LEI registry says of the ownerLei given at registration (looked up by the service). */
export type OwnerLeiCheck =
  | { kind: 'NOT_GIVEN' }
  | { kind: 'NOT_IN_REGISTRY' }
  /** `leiStatus` as the registry reads it: ACTIVE when the entity is active and its registration current. */
  | { kind: 'IN_REGISTRY'; leiStatus: string; legalName: string };

export interface OwnerEvidence {
  ownerEntity?: string | undefined;
  ownerEmail?: string | undefined;
  lei: OwnerLeiCheck;
}

/** True when the registry confirms the owner's LEI ACTIVE: the one proof VERIFIED accepts. */
export function isLeiConfirmed(lei: OwnerLeiCheck): lei is Extract<OwnerLeiCheck, { kind: 'IN_REGISTRY' }> {
  return lei.kind === 'IN_REGISTRY' && lei.leiStatus === 'ACTIVE';
}

/**
 * The tier of a registration (Document 2 §3, stated transitions from none):
 * 1. VERIFIED when the ownerLei is confirmed ACTIVE in the LEI registry (no documents).
 * 2. REGISTERED when both ownerEntity and ownerEmail are given (self-attested, instant).
 * 3. ANONYMOUS otherwise: the agent name only. A lapsed or unknown LEI proves nothing, so it falls
 *    through to 2 or 3.
 */
export function deriveKyaLevel(evidence: OwnerEvidence): KyaLevel {
  if (isLeiConfirmed(evidence.lei)) return 'VERIFIED';
  if (evidence.ownerEntity && evidence.ownerEmail) return 'REGISTERED';
  return 'ANONYMOUS';
}

/**
 * The tier's caps. The spec gives a daily cap per tier; one payment larger than the day's cap could
 * never settle, so the tier's largest single payment (maxNotionalUsd) is the daily cap as well.
 */
export function tierCapsOf(level: KyaLevel): UsdCaps {
  const daily = TIER_DAILY_CAP_USD[level];
  return { maxNotionalUsd: daily, dailyCapUsd: daily };
}

export interface ScoreEvidence {
  level: KyaLevel;
  /** The agent supplied its own public key: it can prove control of its identifier. */
  hasPublicKey: boolean;
  hasFramework: boolean;
  protocolCount: number;
}

/** Points of the kyaScore (0-100); docs/decisions/0015-kya-credentials.md. */
export const KYA_SCORE_POINTS = {
  base: { ANONYMOUS: 20, REGISTERED: 50, VERIFIED: 80 } as Readonly<Record<KyaLevel, number>>,
  publicKey: 10,
  framework: 5,
  protocols: 5,
} as const;

/**
 * kyaScore, a transparent sum:
 * 1. the tier's base: ANONYMOUS 20, REGISTERED 50, VERIFIED 80;
 * 2. +10 when the agent supplied a public key (a self-controlled key in its DID document);
 * 3. +5 when it names its framework, +5 when it names at least one protocol.
 * Bands: ANONYMOUS 20-40, REGISTERED 50-70, VERIFIED 80-100. They never overlap, so the tier
 * always dominates: no amount of self-description lifts an agent past an owner check.
 */
export function kyaScoreOf(evidence: ScoreEvidence): number {
  const points = KYA_SCORE_POINTS;
  return points.base[evidence.level] + (evidence.hasPublicKey ? points.publicKey : 0) + (evidence.hasFramework ? points.framework : 0) + (evidence.protocolCount > 0 ? points.protocols : 0);
}

/** `_next`: the upgrade path, present below VERIFIED (Document 2 §3: re-register with more fields, new agentId). */
export function nextStepOf(level: KyaLevel): string | undefined {
  switch (level) {
    case 'ANONYMOUS':
      return "Re-register with ownerEntity and ownerEmail for REGISTERED (daily cap USD 25,000), or with the owner's ACTIVE ownerLei for VERIFIED (no platform cap, automatic LEI registry lookup, no documents). A re-registration issues a new agentId.";
    case 'REGISTERED':
      return "Re-register with the owner's ACTIVE ownerLei for VERIFIED: checked automatically against the LEI registry, no documents, no platform cap. A re-registration issues a new agentId.";
    case 'VERIFIED':
      return undefined;
  }
}

/** What the registry said of a given LEI that did not verify, for the tier note. */
function leiShortfall(lei: OwnerLeiCheck): string {
  switch (lei.kind) {
    case 'NOT_GIVEN':
      return '';
    case 'NOT_IN_REGISTRY':
      return ' The ownerLei is not in the LEI registry, so it does not verify the owner.';
    case 'IN_REGISTRY':
      return lei.leiStatus === 'ACTIVE' ? '' : ` The ownerLei is in the LEI registry with status ${lei.leiStatus}, not ACTIVE, so it does not verify the owner.`;
  }
}

/** `tierNote`: why the agent has its tier, and what the tier allows. */
export function tierNoteOf(level: KyaLevel, lei: OwnerLeiCheck): string {
  switch (level) {
    case 'ANONYMOUS':
      return `ANONYMOUS: agent name only; daily cap USD 1,000; a mandate needs REGISTERED or VERIFIED.${leiShortfall(lei)}`;
    case 'REGISTERED':
      return `REGISTERED: owner entity and self-attested email; daily cap USD 25,000; mandate caps are clamped to it.${leiShortfall(lei)}`;
    case 'VERIFIED':
      return `VERIFIED: the owner's LEI is ACTIVE in the LEI registry${isLeiConfirmed(lei) ? ` (${lei.legalName})` : ''}; no platform cap; mandates set their own caps.`;
  }
}

export interface MandateCapsRequest {
  maxNotionalUsd?: number | undefined;
  dailyCapUsd?: number | undefined;
}

export type MandateCapsDecision = { allowed: false; reason: 'UPGRADE_REQUIRED' } | ({ allowed: true; clamped: boolean } & UsdCaps);

const lower = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));

/**
 * The caps a mandate gets (Document 2 §4 POST /agent/mandate):
 * 1. ANONYMOUS agents must upgrade first: no mandate.
 * 2. REGISTERED: each cap is the request clamped to the tier's USD 25,000; an omitted cap is the tier's.
 * 3. VERIFIED: the caps as requested, no platform ceiling; an omitted cap is none (null).
 * 4. Either way a single payment cannot exceed the day's cap: maxNotionalUsd is at most dailyCapUsd.
 * `clamped` says whether any requested value was lowered.
 */
export function decideMandateCaps(level: KyaLevel, requested: MandateCapsRequest): MandateCapsDecision {
  if (level === 'ANONYMOUS') return { allowed: false, reason: 'UPGRADE_REQUIRED' };
  const tier = tierCapsOf(level);
  const dailyCapUsd = lower(requested.dailyCapUsd ?? null, tier.dailyCapUsd);
  const maxNotionalUsd = lower(lower(requested.maxNotionalUsd ?? null, tier.maxNotionalUsd), dailyCapUsd);
  const lowered = (asked: number | undefined, given: number | null) => asked !== undefined && given !== asked;
  return { allowed: true, maxNotionalUsd, dailyCapUsd, clamped: lowered(requested.dailyCapUsd, dailyCapUsd) || lowered(requested.maxNotionalUsd, maxNotionalUsd) };
}

/** A mandate is AP2-compatible as declared, or, when undeclared, when the agent speaks AP2. */
export function isAp2Compatible(declared: boolean | undefined, protocols: readonly string[]): boolean {
  return declared ?? protocols.includes('ap2');
}

/** The credential's attestation (Document 2 §2 "Verification response"); type aliases, so they are canonical JSON values. */
export type KyaAttestation = UsdCaps & {
  kyaLevel: KyaLevel;
  /** The owner is verified: its LEI is ACTIVE in the registry (VERIFIED). */
  ownerVerified: boolean;
  /** The agent holds a mandate. */
  mandateActive: boolean;
  /** An owner entity is named (REGISTERED or VERIFIED): the originator FATF R.16 asks for travels with the agent. */
  fatfCompliant: boolean;
};

/** The attestation of an active agent: the mandate's caps when it holds one, else its tier's. */
export function attestationOf(level: KyaLevel, mandate: UsdCaps | null): KyaAttestation {
  const caps = mandate ?? tierCapsOf(level);
  return {
    kyaLevel: level,
    ownerVerified: level === 'VERIFIED',
    mandateActive: mandate !== null,
    fatfCompliant: level !== 'ANONYMOUS',
    dailyCapUsd: caps.dailyCapUsd,
    maxNotionalUsd: caps.maxNotionalUsd,
  };
}

/** The HMAC credential before it is signed. */
export type KyaCredentialClaims = {
  agentId: string;
  /** Epoch milliseconds. */
  issuedAt: number;
  /** Epoch milliseconds: issuedAt + 1 hour. */
  expiresAt: number;
  mandateId: string | null;
  attestation: KyaAttestation;
};

export function credentialClaimsOf(agentId: string, mandateId: string | null, attestation: KyaAttestation, now: Date): KyaCredentialClaims {
  const issuedAt = now.getTime();
  return { agentId, issuedAt, expiresAt: issuedAt + CREDENTIAL_TTL_MS, mandateId, attestation: { ...attestation } };
}

export type CanonicalValue = string | number | boolean | null | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue };

/**
 * The canonical text a credential signature covers: JSON with object keys sorted by UTF-16 code
 * units and no whitespace. For strings, booleans, null and finite numbers this is RFC 8785 (JCS):
 * JSON.stringify already writes numbers in the ECMAScript form JCS prescribes.
 */
export function canonicalJson(value: CanonicalValue): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('canonical JSON holds finite numbers only');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const object = value as { readonly [key: string]: CanonicalValue };
  const keys = Object.keys(object).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key]!)}`).join(',')}}`;
}
