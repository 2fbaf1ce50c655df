// Entity ESG (spec §2 shape 6; docs/intelligence/esg.md, decision 0066): the compliance oracle's
// entity pillars and screening, read through its public interface, weighted towards the
// environment. Pure: the evidence and the parameters are handed in.

import { climbLadder, type Frequency, type LadderRule, round, type SeriesSource, type SignalAnswer } from '../../domain/index.js';
import type { EsgSubject } from './subject.js';

export type EsgPillar = 'environmental' | 'social' | 'governance';
export const ESG_TIERS = ['EXCELLENT', 'GOOD', 'AVERAGE', 'BELOW_AVERAGE', 'POOR'] as const;
export type EsgTier = (typeof ESG_TIERS)[number];
export const ESG_RISK_LEVELS = ['LOW', 'MODERATE', 'ELEVATED', 'HIGH', 'UNASSESSED'] as const;
export type EsgRiskLevel = (typeof ESG_RISK_LEVELS)[number];
export const RECOMMENDED_TIERS = ['RESTRICTED', 'ENHANCED_DUE_DILIGENCE', 'ENHANCED_MONITORING', 'STANDARD'] as const;
export type RecommendedTier = (typeof RECOMMENDED_TIERS)[number];

/** The compliance oracle's entity ESG score (GET /compliance/esg/score), the fields read. */
export interface EntityEsgRecord {
  lei: string;
  entityName: string;
  environmental: number;
  social: number;
  governance: number;
  /** The pillars some input spoke to; the others stand at the oracle's neutral score. */
  assessedPillars: readonly EsgPillar[];
  inputs: ReadonlyArray<{ pillar: EsgPillar; input: string; value: string; score: number }>;
  missingInputs: readonly string[];
}

/** The compliance oracle's screen of the subject (POST /compliance/vendor-risk): its verdict and signals. */
export interface EntityScreening {
  verdict: 'APPROVED' | 'FLAGGED' | 'BLOCKED';
  signals: readonly string[];
}

/** Where a reference dataset the oracle read comes from, as the oracle states it. */
export interface ReferenceProvenance {
  dataset: string;
  url: string;
  asOf: string;
  licence: string;
}

export interface EsgEvidence {
  subject: EsgSubject;
  /** A wallet's registration (null: not registered); undefined for an LEI. */
  registration?: { legalName: string; lei: string | null } | null;
  /** The oracle's entity ESG; null when it holds none for the subject. */
  entity: EntityEsgRecord | null;
  /** Null when the subject could not be screened (no name is known for it). */
  screening: EntityScreening | null;
  datasets: readonly ReferenceProvenance[];
}

export interface EsgParameters {
  weights: Record<EsgPillar, number>;
  unassessedScore: number;
  governanceOnSanctionsMatch: number;
  riskLevels: LadderRule<Exclude<EsgRiskLevel, 'UNASSESSED'>>[];
  tiers: LadderRule<EsgTier>[];
  /** From the top: the first rule one of whose flags is raised, or whose bound the score is under; the last has neither. */
  recommendedTiers: ReadonlyArray<{ tier: RecommendedTier; anyFlag?: readonly string[]; scoreBelow?: number }>;
  missingInputs: Record<'environmental' | 'social', string>;
  datasets: Record<string, { title: string; publisher: string; frequency: Frequency; units: string }>;
}

export interface EntityEsg {
  esgScore: number;
  tier: EsgTier;
  components: {
    environmental: { score: number; violations: number | null; riskLevel: EsgRiskLevel };
    governance: { score: number; riskLevel: EsgRiskLevel };
    social: { score: number; incidents: number | null; riskLevel: EsgRiskLevel };
  };
  flags: string[];
  recommendedTier: RecommendedTier;
  /** The entity the answer is about; null for a wallet no entity is registered to. */
  entity: { lei: string | null; legalName: string } | null;
}

const SANCTIONS_MATCH = 'SANCTIONS_MATCH';

/** Flags read from the entity's GLEIF and FATF facts, as the oracle scored them. */
function recordFlags(entity: EntityEsgRecord): string[] {
  return entity.inputs.flatMap((input) => {
    if (input.input === 'registration') return input.value.includes('INACTIVE') ? ['ENTITY_INACTIVE'] : input.value === 'ISSUED' ? [] : [`LEI_${input.value}`];
    if (input.input === 'corroboration') return input.value === 'FULLY_CORROBORATED' ? [] : [`LEI_${input.value}`];
    if (input.input === 'ownershipTransparency') return input.score < 100 ? ['PARENT_NOT_DISCLOSED'] : [];
    if (input.input === 'jurisdiction') {
      if (input.value.endsWith('CALL_FOR_ACTION')) return ['FATF_BLACKLIST_JURISDICTION'];
      if (input.value.endsWith('INCREASED_MONITORING')) return ['FATF_GREYLIST_JURISDICTION'];
    }
    return [];
  });
}

function subjectFlags(evidence: EsgEvidence): string[] {
  if (evidence.registration === null) return ['WALLET_NOT_REGISTERED'];
  if (evidence.registration && evidence.registration.lei === null) return ['WALLET_WITHOUT_LEI'];
  return evidence.entity ? [] : ['LEI_NOT_IN_REGISTRY'];
}

/** Why the entity's own record is missing, or the governance facts the oracle could not find in it. */
function missingOf(evidence: EsgEvidence, assessed: ReadonlySet<EsgPillar>, parameters: EsgParameters): string[] {
  const missing = (['environmental', 'social'] as const).filter((pillar) => !assessed.has(pillar)).map((pillar) => parameters.missingInputs[pillar]);
  if (evidence.registration === null) missing.push("the wallet's entity: the wallet is not registered with the compliance oracle");
  else if (evidence.registration?.lei === null) missing.push("the wallet's entity record: the wallet is registered without an LEI");
  else if (!evidence.entity) missing.push("the entity's LEI record: the LEI is neither in the registry snapshot nor registered to a wallet");
  missing.push(...(evidence.entity?.missingInputs ?? []).filter((input) => input.startsWith('governance')));
  if (!evidence.screening) missing.push('sanctions and PEP screening: no legal name is known for the subject');
  return missing;
}

function inputsOf(datasets: readonly ReferenceProvenance[], parameters: EsgParameters): SeriesSource[] {
  return datasets.flatMap((provenance) => {
    const described = Object.hasOwn(parameters.datasets, provenance.dataset) ? parameters.datasets[provenance.dataset]! : undefined;
    if (!described) return [];
    return [{ id: `compliance:${provenance.dataset}`, ...described, url: provenance.url, licence: provenance.licence, asOf: provenance.asOf, live: false }];
  });
}

function recommendedTierOf(flags: readonly string[], esgScore: number, parameters: EsgParameters): RecommendedTier {
  for (const rule of parameters.recommendedTiers) {
    if (rule.anyFlag?.some((flag) => flags.includes(flag))) return rule.tier;
    if (rule.scoreBelow !== undefined && esgScore < rule.scoreBelow) return rule.tier;
    if (rule.anyFlag === undefined && rule.scoreBelow === undefined) return rule.tier;
  }
  throw new Error('recommendedTiers must end with a rule without flags or bound');
}

/** The entity ESG answer of shape 6 from what the compliance oracle holds on the subject. */
export function computeEntityEsg(evidence: EsgEvidence, parameters: EsgParameters): SignalAnswer<EntityEsg> {
  const { entity, screening } = evidence;
  const assessed = new Set<EsgPillar>(entity?.assessedPillars ?? []);
  const pillarScore = (pillar: EsgPillar) => (entity && assessed.has(pillar) ? entity[pillar] : parameters.unassessedScore);
  const sanctioned = screening?.signals.includes(SANCTIONS_MATCH) ?? false;
  const scores = {
    environmental: pillarScore('environmental'),
    social: pillarScore('social'),
    governance: sanctioned ? parameters.governanceOnSanctionsMatch : pillarScore('governance'),
  };
  const riskLevel = (pillar: EsgPillar): EsgRiskLevel => (assessed.has(pillar) || (pillar === 'governance' && sanctioned) ? climbLadder(parameters.riskLevels, scores[pillar]) : 'UNASSESSED');
  const esgScore = round(scores.environmental * parameters.weights.environmental + scores.social * parameters.weights.social + scores.governance * parameters.weights.governance, 1);
  const unassessed = (['environmental', 'social', 'governance'] as const).filter((pillar) => riskLevel(pillar) === 'UNASSESSED').map((pillar) => `${pillar.toUpperCase()}_UNASSESSED`);
  const flags = [...new Set([...(screening?.signals ?? []), ...subjectFlags(evidence), ...(entity ? recordFlags(entity) : []), ...unassessed])];
  const legalName = entity?.entityName ?? evidence.registration?.legalName;
  const body: EntityEsg = {
    esgScore,
    tier: climbLadder(parameters.tiers, esgScore),
    components: {
      environmental: { score: scores.environmental, violations: null, riskLevel: riskLevel('environmental') },
      governance: { score: scores.governance, riskLevel: riskLevel('governance') },
      social: { score: scores.social, incidents: null, riskLevel: riskLevel('social') },
    },
    flags,
    recommendedTier: recommendedTierOf(flags, esgScore, parameters),
    entity: legalName === undefined ? null : { lei: entity?.lei ?? evidence.registration?.lei ?? null, legalName },
  };
  return { body, inputs: inputsOf(evidence.datasets, parameters), missing: missingOf(evidence, assessed, parameters) };
}
