// The ownership chain, pure (Document 2 §2, decision 0018): the chain, its screens and its result.

export {
  buildOwnershipChain,
  CLOSING_EXCEPTIONS,
  countryOfJurisdiction,
  decideOwnershipResult,
  type FatfAttestation,
  type JurisdictionRisk,
  MATCHES_PER_NAME,
  MAX_OWNERSHIP_LEVELS,
  OWNERSHIP_SCREENED_TYPES,
  type OwnershipChain,
  type OwnershipChainInput,
  type OwnershipNode,
  type OwnershipReason,
  type OwnershipResult,
  type OwnershipRole,
  type OwnershipSanctionsMatch,
  type ParentRelation,
  type ParentReporting,
  type ParentReportingStatus,
  type SanctionsStatus,
} from './ownership-chain.js';
