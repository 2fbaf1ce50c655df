// The inputs of the entity ESG score (esg/domain/entity-esg.ts) from the shipped snapshots: the
// governance facts of each GLEIF record (lei/lei_records.json, read with the fields the score needs:
// validation sources and Level 2 links as well as status), and the model's parameters
// (entity-esg-parameters.json). Parsed once, on first use.

import { z } from 'zod';
import { ENTITY_ESG_TIERS, type EntityEsgParameters, type LeiGovernanceFacts } from '../esg/domain/index.js';
import { readDataFile } from './files.js';

const score = z.number().min(0).max(100);

const parametersSchema = z.object({
  version: z.string().min(1),
  source: z.string().min(1),
  url: z.string().min(1),
  asOf: z.iso.date(),
  unassessedPillarScore: score,
  governanceWeights: z.object({ registration: z.number().positive(), corroboration: z.number().positive(), ownershipTransparency: z.number().positive(), jurisdiction: z.number().positive() }),
  registrationStatusScores: z.record(z.string(), score),
  inactiveEntityScore: score,
  corroborationScores: z.record(z.string(), score),
  parentReportedScore: score,
  reportingExceptionScores: z.record(z.string(), score),
  jurisdictionScores: z.object({ NOT_LISTED: score, INCREASED_MONITORING: score, CALL_FOR_ACTION: score }),
  tiers: z
    .array(z.object({ tier: z.enum(ENTITY_ESG_TIERS), minScore: score, feeSurcharge: z.number().min(0).max(1) }))
    .length(ENTITY_ESG_TIERS.length)
    .refine((tiers) => tiers.every((tier, i) => i === 0 || tier.minScore < tiers[i - 1]!.minScore), 'tiers must be highest first')
    .refine((tiers) => tiers[tiers.length - 1]!.minScore === 0, 'the lowest tier must start at 0'),
});

export type EntityEsgParameterFile = z.infer<typeof parametersSchema> & EntityEsgParameters;

const leiGovernanceSchema = z.object({
  records: z.array(
    z.object({
      lei: z.string().length(20),
      legalName: z.string().min(1),
      jurisdiction: z.string().nullable(),
      legalAddress: z.object({ country: z.string().nullable() }).nullable(),
      // GLEIF Entity.EntityStatus, Registration.RegistrationStatus, Registration.ValidationSources.
      entityStatus: z.string().nullable(),
      registrationStatus: z.string().nullable(),
      corroborationLevel: z.string().nullable(),
      directParent: z.string().nullable(),
      ultimateParent: z.string().nullable(),
      directParentLink: z.string().nullable(),
      ultimateParentLink: z.string().nullable(),
      directParentException: z.string().nullable(),
      ultimateParentException: z.string().nullable(),
      asOf: z.iso.date(),
    }),
  ),
  relationships: z.array(z.object({ startNode: z.string(), type: z.string() })),
});

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

/** The country part of a GLEIF jurisdiction (US-DE -> US), when it is an ISO 3166-1 alpha-2 code. */
const countryOf = (code: string | null | undefined): string | null => {
  const country = code?.slice(0, 2).toUpperCase();
  return country && /^[A-Z]{2}$/.test(country) ? country : null;
};

/** Parses lei_records.json into the governance facts of each record, by LEI. */
export function parseLeiGovernanceFacts(json: unknown): Map<string, LeiGovernanceFacts> {
  const file = leiGovernanceSchema.parse(json);
  const related = (type: string) => new Set(file.relationships.filter((relationship) => relationship.type === type).map((relationship) => relationship.startNode));
  const withDirect = related('IS_DIRECTLY_CONSOLIDATED_BY');
  const withUltimate = related('IS_ULTIMATELY_CONSOLIDATED_BY');
  return new Map(
    file.records.map((record): [string, LeiGovernanceFacts] => [
      record.lei,
      {
        lei: record.lei,
        legalName: record.legalName,
        entityStatus: record.entityStatus ?? 'UNKNOWN',
        registrationStatus: record.registrationStatus ?? 'UNKNOWN',
        corroborationLevel: record.corroborationLevel,
        jurisdictionCountry: countryOf(record.jurisdiction) ?? countryOf(record.legalAddress?.country),
        directParent: record.directParent !== null || record.directParentLink === 'REPORTED' || withDirect.has(record.lei) ? 'REPORTED' : record.directParentException,
        ultimateParent: record.ultimateParent !== null || record.ultimateParentLink === 'REPORTED' || withUltimate.has(record.lei) ? 'REPORTED' : record.ultimateParentException,
        asOf: record.asOf,
      },
    ]),
  );
}

export function parseEntityEsgParameters(json: unknown): EntityEsgParameterFile {
  return parametersSchema.parse(json);
}

/** Governance facts of every record of the shipped GLEIF snapshot, by LEI. */
export const leiGovernanceFacts = once(() => parseLeiGovernanceFacts(JSON.parse(readDataFile('lei/lei_records.json'))));

/** The entity ESG model's parameters (entity-esg-parameters.json). */
export const entityEsgParameters = once(() => parseEntityEsgParameters(JSON.parse(readDataFile('entity-esg-parameters.json'))));
