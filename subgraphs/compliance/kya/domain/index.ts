// Know-your-agent, pure (Document 2 §2-§3): tiers, scores, mandate caps and credential claims.

export {
  AGENT_STATUSES, type AgentStatus, attestationOf, canonicalJson, type CanonicalValue, CREDENTIAL_TTL_MS, credentialClaimsOf, decideMandateCaps,
  deriveKyaLevel, isAp2Compatible, isLeiConfirmed, KYA_LEVELS, KYA_SCORE_POINTS, type KyaAttestation, type KyaCredentialClaims, type KyaLevel,
  kyaScoreOf, type MandateCapsDecision, type MandateCapsRequest, nextStepOf, type OwnerEvidence, type OwnerLeiCheck, type ScoreEvidence,
  TIER_DAILY_CAP_USD, tierCapsOf, tierNoteOf, type UsdCaps,
} from './kya.js';
