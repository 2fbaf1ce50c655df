// Entity ESG score (Document 2 §2 "Entity ESG score", §3 "Entity ESG tiers"). The spec withholds its
// methodology; this one is ours, built only from the shipped snapshots (docs/entity-esg-methodology.md):
// governance from the entity's GLEIF record and the FATF lists; environmental and social stand at a
// neutral prior until a dataset for them ships, and the answer says so (coverage, inputs).

import { type FatfList, type FatfStatus, fatfStatusOf } from '../../domain/index.js';

export const ENTITY_ESG_TIERS = ['EXCELLENT', 'GOOD', 'AVERAGE', 'BELOW_AVERAGE', 'POOR'] as const;
export type EntityEsgTier = (typeof ENTITY_ESG_TIERS)[number];

/** FULL: every pillar from data; PARTIAL: some pillar from the entity's own record; MINIMAL: jurisdiction and declared facts only. */
export const ESG_COVERAGES = ['FULL', 'PARTIAL', 'MINIMAL'] as const;
export type EsgCoverage = (typeof ESG_COVERAGES)[number];

export type EsgPillar = 'environmental' | 'social' | 'governance';
export type GovernanceInput = 'registration' | 'corroboration' | 'ownershipTransparency' | 'jurisdiction';

/** The model's parameters (data/entity-esg-parameters.json), passed in. */
export interface EntityEsgParameters {
  version: string;
  /** The score of a pillar no input speaks to: the spec's default ESG (50) and the fee model's defaultEsgScore. */
  unassessedPillarScore: number;
  governanceWeights: Record<GovernanceInput, number>;
  /** GLEIF RegistrationStatus -> 0..100. A status not listed is not scored (the input is left out). */
  registrationStatusScores: Record<string, number>;
  /** The registration score of an entity GLEIF marks INACTIVE, whatever its registration status. */
  inactiveEntityScore: number;
  /** GLEIF ValidationSources (corroborationLevel) -> 0..100. */
  corroborationScores: Record<string, number>;
  /** A Level 2 parent relationship is reported. */
  parentReportedScore: number;
  /** GLEIF reporting-exception reason -> 0..100, when no parent is reported. */
  reportingExceptionScores: Record<string, number>;
  jurisdictionScores: Record<FatfStatus, number>;
  /** Highest first; the surcharge is the ESG fee fraction at the tier's lowest score (decision 0016). */
  tiers: readonly { tier: EntityEsgTier; minScore: number; feeSurcharge: number }[];
}

/** What the LEI snapshot says about the entity (GLEIF field names in comments). */
export interface LeiGovernanceFacts {
  lei: string;
  legalName: string;
  /** Entity.EntityStatus: ACTIVE or INACTIVE. */
  entityStatus: string;
  /** Registration.RegistrationStatus: ISSUED, LAPSED, RETIRED ... */
  registrationStatus: string;
  /** Registration.ValidationSources: FULLY_CORROBORATED, PARTIALLY_CORROBORATED, ENTITY_SUPPLIED_ONLY; null when absent. */
  corroborationLevel: string | null;
  /** ISO 3166-1 alpha-2 of Entity.LegalJurisdiction (US for US-DE), else of the legal address; null when neither. */
  jurisdictionCountry: string | null;
  /**
   * GLEIF Level 2, direct and ultimate accounting-consolidation parent: REPORTED (a parent
   * relationship is on record), or the reporting-exception reason (NATURAL_PERSONS, NON_PUBLIC ...);
   * null when the snapshot holds neither.
   */
  directParent: string | null;
  ultimateParent: string | null;
  /** The record's date (YYYY-MM-DD). */
  asOf: string;
}

/** What the caller declared (GET /esg/score/:lei query), used only for an LEI the snapshot does not hold. */
export interface DeclaredEntityFacts {
  name: string;
  /** ISO 3166-1 alpha-2 (default US). */
  country: string;
  /** GLEIF registration status as declared (default ISSUED). */
  leiStatus: string;
}

export interface EntityEsgInput {
  pillar: EsgPillar;
  input: GovernanceInput;
  /** The fact scored, as the source writes it (ISSUED, FULLY_CORROBORATED, NON_PUBLIC, INCREASED_MONITORING ...). */
  value: string;
  score: number;
  weight: number;
  /** lei-record: the GLEIF snapshot; fatf-lists: the FATF lists; declared: the caller's query parameters. */
  source: 'lei-record' | 'fatf-lists' | 'declared';
  asOf: string;
}

export interface EntityEsgAssessment {
  lei: string;
  entityName: string;
  composite: number;
  environmental: number;
  social: number;
  governance: number;
  feeTier: EntityEsgTier;
  feeSurcharge: number;
  coverage: EsgCoverage;
  /** The pillars some input spoke to; the others stand at the unassessed score. */
  assessedPillars: EsgPillar[];
  inputs: EntityEsgInput[];
  /** Facts the model looks for that the data did not hold. */
  missingInputs: string[];
  methodology: string;
}

export interface EntityEsgSubject {
  lei: string;
  /** The snapshot's record, or null when it does not hold the LEI. */
  record: LeiGovernanceFacts | null;
  declared: DeclaredEntityFacts;
  /** The current FATF lists (black: call for action; grey: increased monitoring). */
  fatf: FatfList;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The tier of a composite score: 85-100 EXCELLENT, 70-84 GOOD, 50-69 AVERAGE, 30-49 BELOW_AVERAGE,
 * 0-29 POOR (Document 2 §3). As with the VoP bands, a fractional score belongs to the band whose
 * lower bound it reaches: 84.9 is GOOD, 85 EXCELLENT.
 */
export function entityEsgTierOf(composite: number, parameters: EntityEsgParameters): { tier: EntityEsgTier; feeSurcharge: number } {
  for (const band of parameters.tiers) {
    if (composite >= band.minScore) return { tier: band.tier, feeSurcharge: band.feeSurcharge };
  }
  const lowest = parameters.tiers[parameters.tiers.length - 1]!;
  return { tier: lowest.tier, feeSurcharge: lowest.feeSurcharge };
}

/** The governance inputs present for this subject, each scored. */
function governanceInputs(subject: EntityEsgSubject, parameters: EntityEsgParameters, fatfAsOf: string): { inputs: EntityEsgInput[]; missing: string[] } {
  const weights = parameters.governanceWeights;
  const inputs: EntityEsgInput[] = [];
  const missing: string[] = [];
  const add = (input: GovernanceInput, value: string, score: number, source: EntityEsgInput['source'], asOf: string) =>
    inputs.push({ pillar: 'governance', input, value, score, weight: weights[input], source, asOf });
  const { record, declared } = subject;

  // 1. Registration: the registry's status, or (for an LEI the snapshot lacks) the caller's declaration.
  if (record) {
    if (record.entityStatus === 'INACTIVE') add('registration', `${record.registrationStatus} (entity INACTIVE)`, parameters.inactiveEntityScore, 'lei-record', record.asOf);
    else if (Object.hasOwn(parameters.registrationStatusScores, record.registrationStatus))
      add('registration', record.registrationStatus, parameters.registrationStatusScores[record.registrationStatus]!, 'lei-record', record.asOf);
    else missing.push(`governance.registration (status ${record.registrationStatus} is not scored)`);
  } else if (Object.hasOwn(parameters.registrationStatusScores, declared.leiStatus)) {
    add('registration', declared.leiStatus, parameters.registrationStatusScores[declared.leiStatus]!, 'declared', 'as declared');
  } else {
    missing.push('governance.registration');
  }

  // 2. Corroboration and 3. ownership transparency exist only in the entity's own record.
  if (record?.corroborationLevel && Object.hasOwn(parameters.corroborationScores, record.corroborationLevel)) {
    add('corroboration', record.corroborationLevel, parameters.corroborationScores[record.corroborationLevel]!, 'lei-record', record.asOf);
  } else {
    missing.push('governance.corroboration');
  }
  // Each of the two parent facts scores REPORTED or its exception reason; the input is their mean.
  const parentFacts = record
    ? (
        [
          ['direct', record.directParent],
          ['ultimate', record.ultimateParent],
        ] as const
      ).flatMap(([level, fact]) => {
        if (fact === null) return [];
        const factScore = fact === 'REPORTED' ? parameters.parentReportedScore : Object.hasOwn(parameters.reportingExceptionScores, fact) ? parameters.reportingExceptionScores[fact] : undefined;
        return factScore === undefined ? [] : [{ label: `${level} ${fact}`, score: factScore }];
      })
    : [];
  if (record && parentFacts.length > 0) {
    const meanScore = round1(parentFacts.reduce((sum, fact) => sum + fact.score, 0) / parentFacts.length);
    add('ownershipTransparency', parentFacts.map((fact) => fact.label).join(', '), meanScore, 'lei-record', record.asOf);
  } else {
    missing.push('governance.ownershipTransparency');
  }

  // 4. Jurisdiction: FATF status of the registry's jurisdiction, else of the declared country.
  const country = record?.jurisdictionCountry ?? declared.country;
  const status = fatfStatusOf(country, subject.fatf);
  add('jurisdiction', `${country} ${status}`, parameters.jurisdictionScores[status], 'fatf-lists', fatfAsOf);
  return { inputs, missing };
}

/**
 * Scores one entity. Each pillar is the weighted mean of the inputs present for it; a pillar with
 * no input stands at `unassessedPillarScore`; the composite is the mean of the three pillars, so a
 * fact the data does not hold neither earns nor loses a discount. Scores are rounded to one decimal.
 */
export function assessEntityEsg(subject: EntityEsgSubject, parameters: EntityEsgParameters): EntityEsgAssessment {
  const { inputs, missing } = governanceInputs(subject, parameters, subject.fatf.statementDate);
  const weightSum = inputs.reduce((sum, input) => sum + input.weight, 0);
  const governance = weightSum === 0 ? parameters.unassessedPillarScore : round1(inputs.reduce((sum, input) => sum + input.score * input.weight, 0) / weightSum);
  const environmental = parameters.unassessedPillarScore;
  const social = parameters.unassessedPillarScore;
  const assessedPillars: EsgPillar[] = weightSum === 0 ? [] : ['governance'];
  const composite = round1((environmental + social + governance) / 3);
  const { tier, feeSurcharge } = entityEsgTierOf(composite, parameters);
  const coverage: EsgCoverage = assessedPillars.length === 3 ? 'FULL' : inputs.some((input) => input.source === 'lei-record') ? 'PARTIAL' : 'MINIMAL';
  return {
    lei: subject.lei,
    entityName: subject.record?.legalName ?? subject.declared.name,
    composite,
    environmental,
    social,
    governance,
    feeTier: tier,
    feeSurcharge,
    coverage,
    assessedPillars,
    inputs,
    missingInputs: ['environmental (no shipped dataset)', 'social (no shipped dataset)', ...missing],
    methodology: parameters.version,
  };
}

/** The 2-3 sentence narration the synthesiser starts from (and the rule-based synthesiser returns). */
export function narrateEntityEsg(assessment: EntityEsgAssessment): string {
  const bps = round1(assessment.feeSurcharge * 10_000);
  const facts = assessment.inputs.map((input) => `${input.input} ${input.value} (${input.score})`).join(', ');
  const unassessed = (['environmental', 'social', 'governance'] as const).filter((pillar) => !assessment.assessedPillars.includes(pillar));
  const third =
    unassessed.length === 0
      ? `Coverage is ${assessment.coverage}.`
      : `The ${unassessed.join(' and ')} ${unassessed.length === 1 ? 'pillar has' : 'pillars have'} no data and ${unassessed.length === 1 ? 'stands' : 'stand'} at the neutral ${unassessed.length === 1 ? 'score' : 'scores'}, so coverage is ${assessment.coverage}.`;
  return [
    `${assessment.entityName} (${assessment.lei}) scores ${assessment.composite} of 100, tier ${assessment.feeTier}, which carries an ESG fee surcharge of ${bps} bps.`,
    `Governance scores ${assessment.governance} from ${facts}.`,
    third,
  ].join(' ');
}
