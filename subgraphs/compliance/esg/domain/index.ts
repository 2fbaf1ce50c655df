// Entity ESG, pure (Document 2 §2-§3, docs/entity-esg-methodology.md): the score and its tiers.

export {
  assessEntityEsg,
  type DeclaredEntityFacts,
  ENTITY_ESG_TIERS,
  type EntityEsgAssessment,
  type EntityEsgInput,
  type EntityEsgParameters,
  type EntityEsgSubject,
  type EntityEsgTier,
  entityEsgTierOf,
  ESG_COVERAGES,
  type EsgCoverage,
  type EsgPillar,
  type GovernanceInput,
  type LeiGovernanceFacts,
  narrateEntityEsg,
} from './entity-esg.js';
