import { z } from 'zod';
import { SANCTIONS_MATCH_THRESHOLD } from '../domain/index.js';
import type { UboService } from './service.js';

/** The ownership-chain result (Document 2 §2, decision 0018): the compiled serialiser and the OpenAPI document; checked against the service below. */
const role = z.enum(['SUBJECT', 'DIRECT_PARENT', 'INTERMEDIATE_PARENT', 'ULTIMATE_PARENT']);

const sanctionsMatchSchema = z.object({
  uid: z.number().int().describe('OFAC ent_num'),
  name: z.string().describe('OFAC SDN_Name'),
  matchedName: z.string().describe('the SDN name or alias that matched'),
  matchedAs: z.enum(['name', 'aka', 'fka', 'nka']),
  type: z.enum(['individual', 'entity', 'vessel', 'aircraft']),
  programs: z.array(z.string()),
  screenedName: z.string().describe("the node's legal name or other name that was screened"),
  score: z.number().describe(`name similarity, ${SANCTIONS_MATCH_THRESHOLD} to 1`),
});

const nodeSchema = z.object({
  lei: z.string(),
  name: z.string(),
  role,
  level: z.number().int().nullable().describe('steps up the direct-parent line (subject 0); null for an ultimate parent not reached that way'),
  jurisdiction: z.string().nullable(),
  leiStatus: z.string(),
  sanctions: z.object({ hit: z.boolean(), bestScore: z.number().nullable(), matches: z.array(sanctionsMatchSchema) }),
});

const sourceSchema = z.object({ source: z.string(), asOf: z.string() });

export const uboChainResultSchema = z.object({
  lei: z.string(),
  deep: z.boolean(),
  result: z.enum(['CLEAR', 'REVIEW_REQUIRED', 'BLOCKED']),
  reasons: z.array(
    z.enum(['SANCTIONS_MATCH', 'SANCTIONS_POTENTIAL_MATCH', 'FATF_COUNTERMEASURES_JURISDICTION', 'FATF_CALL_FOR_ACTION_JURISDICTION', 'FATF_INCREASED_MONITORING_JURISDICTION', 'PARENT_UNRESOLVED']),
  ),
  chain: z.array(nodeSchema),
  sanctionsMatches: z.array(sanctionsMatchSchema.extend({ lei: z.string(), role })),
  fatfAttestation: z.object({
    beneficialOwnersIdentified: z.boolean(),
    ownershipLevelsTraversed: z.number().int(),
    nodesScreened: z.number().int(),
    sanctionsStatus: z.enum(['NO_MATCH', 'POTENTIAL_MATCH', 'MATCH']),
    parentReporting: z.array(
      z.object({
        childLei: z.string(),
        relation: z.enum(['DIRECT', 'ULTIMATE']),
        status: z.enum(['RESOLVED', 'REPORTING_EXCEPTION', 'NOT_IN_SNAPSHOT', 'NOT_REPORTED']),
        parentLei: z.string().nullable(),
        exceptionReason: z.string().nullable(),
        resolved: z.boolean(),
      }),
    ),
    jurisdictionRisk: z.array(
      z.object({
        jurisdiction: z.string(),
        country: z.string(),
        fatfStatus: z.enum(['CALL_FOR_ACTION', 'INCREASED_MONITORING', 'NOT_LISTED']),
        fatfCall: z.string().nullable(),
        leis: z.array(z.string()),
      }),
    ),
    fatfList: z.object({ plenary: z.string(), statementDate: z.string() }),
    note: z.string(),
  }),
  cachedAt: z.string().describe('ISO 8601'),
  expiresAt: z.string().describe('ISO 8601, 24 hours after cachedAt'),
  fromCache: z.boolean(),
  sources: z.object({ lei: sourceSchema, sanctions: sourceSchema.extend({ stale: z.boolean().describe('older than 30 days at the time of the answer (decision 0055)') }), fatf: sourceSchema }),
});

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type UboResponseSchemaMatchesTheService = Assert<MutuallyAssignable<z.infer<typeof uboChainResultSchema>, Awaited<ReturnType<UboService['uboChain']>>>>;
