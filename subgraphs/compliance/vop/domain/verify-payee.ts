// Verification of payee (Document 2 §3, "VoP results"): the registered entity of a wallet against
// the name (and optionally the LEI) a payer submitted. Pure: the registry record, the LEI status
// and the name matcher are given. Decision 0014 records the choices the spec leaves open.

export const VOP_RESULTS = ['LEI_MATCH', 'VERIFIED', 'PROCEED_HIGH_CONFIDENCE', 'PROCEED_FLAGGED', 'PROCEED_UNVERIFIED', 'NOT_REGISTERED', 'LEI_INACTIVE', 'BLOCKED'] as const;
export type VopResult = (typeof VOP_RESULTS)[number];

/** How a result was reached: the LEI, the legal name, one of the registered aliases, or no registration. */
export type ResolvedBy = 'LEI_EXACT_MATCH' | 'LEGAL_NAME_MATCH' | 'ALIAS_MATCH' | 'NOT_REGISTERED';

export interface RegisteredEntity {
  walletAddress: string;
  legalName: string;
  aliases: readonly string[];
  lei: string | null;
  /** ACTIVE, or the registry status that makes it inactive (LAPSED, RETIRED, ...). */
  leiStatus: string | null;
}

/** The name comparison the VoP uses (domain/matching): a similarity in [0, 1], and the score bands. */
export interface PayeeNameMatcher {
  similarity(submitted: string, registered: string): number;
  resultForScore(score: number): Extract<VopResult, 'VERIFIED' | 'PROCEED_HIGH_CONFIDENCE' | 'PROCEED_FLAGGED' | 'PROCEED_UNVERIFIED' | 'BLOCKED'>;
}

export interface PayeeVerification {
  result: VopResult;
  proceedSafe: boolean;
  /** 0-100; null when there was nothing to compare with (NOT_REGISTERED). */
  score: number | null;
  resolvedBy: ResolvedBy;
  registeredName: string | null;
  registeredLei: string | null;
  leiStatus: string | null;
  /** The registered name or alias the submitted name was closest to. */
  matchedName: string | null;
  message: string;
  attestation: { fatfR16Compliant: boolean; regulatoryNote: string };
}

const MESSAGES: Record<VopResult, string> = {
  LEI_MATCH: 'The LEI matches the registered entity exactly; the name check was skipped.',
  LEI_INACTIVE: 'The LEI matches the registered entity, but its registration has lapsed: the payment may proceed, and the counterparty is warned.',
  VERIFIED: 'The name matches the registered entity.',
  PROCEED_HIGH_CONFIDENCE: 'The name is a good match for the registered entity; a minor discrepancy is noted.',
  PROCEED_FLAGGED: 'The name is a moderate match for the registered entity; the payment may proceed and is flagged in the attestation.',
  PROCEED_UNVERIFIED: 'The name is a low match for the registered entity; the payment may proceed, marked unverified.',
  NOT_REGISTERED: 'The wallet is not in the registry; the payee could not be verified.',
  BLOCKED: 'The name is too dissimilar from the registered entity; the payment must not be sent.',
};

/**
 * FATF Recommendation 16 asks that the beneficiary's identity travel with a transfer and be
 * checked; we attest compliance when the payee was confirmed: by an LEI, or by a name at 75 or more.
 */
const R16_CONFIRMED: ReadonlySet<VopResult> = new Set(['LEI_MATCH', 'LEI_INACTIVE', 'VERIFIED', 'PROCEED_HIGH_CONFIDENCE']);

const roundScore = (similarity: number) => Math.round(similarity * 10_000) / 100;

function verification(result: VopResult, fields: Omit<PayeeVerification, 'result' | 'proceedSafe' | 'message' | 'attestation'>): PayeeVerification {
  const confirmed = R16_CONFIRMED.has(result);
  return {
    result,
    proceedSafe: result !== 'BLOCKED',
    ...fields,
    message: MESSAGES[result],
    attestation: {
      fatfR16Compliant: confirmed,
      regulatoryNote: confirmed
        ? `FATF R.16: beneficiary confirmed (${result}${fields.score === null ? '' : `, score ${fields.score}`}).`
        : `FATF R.16: beneficiary not confirmed (${result}); the result and its score travel with the payment.`,
    },
  };
}

/** The VoP result for a submitted name (and LEI) against the wallet's registration, if any. */
export function verifyPayee(input: { registration: RegisteredEntity | undefined; submittedName: string; submittedLei?: string | undefined }, matcher: PayeeNameMatcher): PayeeVerification {
  const { registration } = input;
  if (!registration) {
    return verification('NOT_REGISTERED', { score: null, resolvedBy: 'NOT_REGISTERED', registeredName: null, registeredLei: null, leiStatus: null, matchedName: null });
  }
  const registered = { registeredName: registration.legalName, registeredLei: registration.lei, leiStatus: registration.leiStatus };
  // An LEI that matches the registration bypasses name matching (Document 2 §4).
  if (input.submittedLei && registration.lei && input.submittedLei.toUpperCase() === registration.lei.toUpperCase()) {
    const result = registration.leiStatus === 'ACTIVE' ? 'LEI_MATCH' : 'LEI_INACTIVE';
    return verification(result, { score: 100, resolvedBy: 'LEI_EXACT_MATCH', ...registered, matchedName: null });
  }
  const candidates = [{ name: registration.legalName, resolvedBy: 'LEGAL_NAME_MATCH' as const }, ...registration.aliases.map((name) => ({ name, resolvedBy: 'ALIAS_MATCH' as const }))];
  let best = { ...candidates[0]!, similarity: matcher.similarity(input.submittedName, registration.legalName) };
  for (const candidate of candidates.slice(1)) {
    const similarity = matcher.similarity(input.submittedName, candidate.name);
    if (similarity > best.similarity) best = { ...candidate, similarity };
  }
  const score = roundScore(best.similarity);
  return verification(matcher.resultForScore(score), { score, resolvedBy: best.resolvedBy, ...registered, matchedName: best.name });
}
