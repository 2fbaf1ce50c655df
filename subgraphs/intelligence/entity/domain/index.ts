export type { EntityEsg, EntityEsgRecord, EntityScreening, EsgEvidence, EsgParameters, EsgPillar, EsgRiskLevel, EsgTier, RecommendedTier, ReferenceProvenance } from './esg.js';
export { computeEntityEsg, ESG_RISK_LEVELS, ESG_TIERS, RECOMMENDED_TIERS } from './esg.js';
export type { EsgSubject } from './subject.js';
export { esgSubjectOf, hasAddressForm, hasValidLeiCheckDigits, subjectKey } from './subject.js';
