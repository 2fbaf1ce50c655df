// What the compliance oracle says of a settlement agent, as payments read it (upstream/compliance.ts)
// and the settlement agent checks it (agent/domain/mandate-check.ts): shared by both, so the
// upstream client needs no family's code.

/** The attestation of the verification response (Document 2 §2 "Verification response"). */
export interface AgentAttestation {
  kyaLevel: string;
  ownerVerified: boolean;
  mandateActive: boolean;
  fatfCompliant: boolean;
  /** USD; null: no cap. */
  dailyCapUsd: number | null;
  maxNotionalUsd: number | null;
}

/** The verification response as the compliance subgraph answers it (kya-responses.ts agentVerificationSchema). */
export type AgentVerificationView =
  { verified: true; agentId: string; status: 'ACTIVE'; credential: { agentId: string; expiresAt: number; attestation: AgentAttestation } } | { verified: false; agentId: string; status: 'REVOKED' };

/** The mandate of the agent record (kya-responses.ts agentMandateSchema); null when it holds none. */
export interface AgentMandateTerms {
  counterpartyWhitelist: readonly string[];
  currencyPairs: readonly string[];
  esgFloor: number | null;
}
