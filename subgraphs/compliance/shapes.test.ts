import { GraphQLNonNull, type GraphQLSchema, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeShapeDisagreements } from '../../platform/shape-check.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { amlEventsSchema, amlProfileSchema, amlScreenResultSchema } from './aml/responses.js';
import { entityEsgScoreSchema } from './esg/responses.js';
import { agentAuthorizedSchema, agentDirectorySchema, agentMandateSchema, agentRecordSchema, agentRegistrationSchema, agentRevokedSchema, agentVerificationSchema } from './kya/responses.js';
import { referenceDataSchema } from './reference/responses.js';
import { streamOpenedSchema, streamSessionSchema, streamTickSchema } from './stream/responses.js';
import { vendorRiskResultSchema } from './vendor/responses.js';
import { deregisteredSchema, leiRecordSchema, leiSearchSchema, registeredEntitySchema, regulatoryCalendarSchema, vopHistorySchema, vopResultSchema } from './vop/responses.js';

const schema: GraphQLSchema = buildFederatedSchema(loadSubgraphTypeDefs('compliance'), {});

function objectType(name: string) {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type`);
  return new GraphQLNonNull(type);
}

describe('each compliance REST body and its GraphQL type are one shape', () => {
  // Each row: the REST body, its GraphQL type, and the disagreements that are meant (none but two).
  it.each<[string, z.ZodType, string, readonly string[], (readonly string[])?]>([
    ['POST /vop/verify and VopResult', vopResultSchema, 'VopResult', []],
    ['GET /vop/lookup/:wallet and RegisteredEntity', registeredEntitySchema, 'RegisteredEntity', []],
    ['GET /vop/history/:wallet (a check) and VopCheck', vopHistorySchema.shape.checks.element, 'VopCheck', []],
    // The graph's entity reaches further than the REST record: its ownership chain, ESG score and (vendor view) ESG composite.
    ['GET /lei/:lei and LegalEntity', leiRecordSchema, 'LegalEntity', [], ['LegalEntity.ownershipChain', 'LegalEntity.esg', 'LegalEntity.esgScore']],
    ['POST /vendor-risk and VendorAssessment', vendorRiskResultSchema, 'VendorAssessment', [], ['VendorAssessment.legalEntity', 'VendorAssessment.pepScreen', 'VendorAssessment.vop']],
    ['DELETE /register/:wallet and WalletDeregistration', deregisteredSchema, 'WalletDeregistration', []],
    ['GET /compliance/regulatory-calendar and RegulatoryCalendar', regulatoryCalendarSchema, 'RegulatoryCalendar', []],
    ['POST /agent/register and AgentRegistration', agentRegistrationSchema, 'AgentRegistration', []],
    ['POST /agent/mandate and Mandate', agentMandateSchema, 'Mandate', []],
    // The entity's key `id` is the agentId again, under the name federation keys Agent by.
    ['GET /agent/:id and Agent', agentRecordSchema, 'Agent', ['id: in GraphQL Agent (ID!), missing from zod']],
    // REST's status is the literal REVOKED; the graph reuses the AgentStatus enum, of which REVOKED is a value.
    ['DELETE /agent/:id and AgentRevocation', agentRevokedSchema, 'AgentRevocation', ['status: enum values ["ACTIVE"] in GraphQL AgentStatus, missing from zod']],
    ['GET /agents/directory and AgentDirectory', agentDirectorySchema, 'AgentDirectory', []],
    // One GraphQL type for both answers of verify (REST's union on `verified`): each branch's own fields are nullable, its status one value of AgentStatus.
    [
      'POST /agent/:id/verify (verified) and AgentVerification',
      agentVerificationSchema.options[0],
      'AgentVerification',
      [
        'status: enum values ["REVOKED"] in GraphQL AgentStatus, missing from zod',
        'credential: non-null in zod, nullable in GraphQL (AgentCredential)',
        'verifiableCredential: non-null in zod, nullable in GraphQL (String)',
      ],
      ['AgentVerification.revokedAt', 'AgentVerification.message'],
    ],
    [
      'POST /agent/:id/verify (revoked) and AgentVerification',
      agentVerificationSchema.options[1],
      'AgentVerification',
      ['status: enum values ["ACTIVE"] in GraphQL AgentStatus, missing from zod', 'revokedAt: non-null in zod, nullable in GraphQL (String)', 'message: non-null in zod, nullable in GraphQL (String)'],
      ['AgentVerification.credential', 'AgentVerification.verifiableCredential'],
    ],
    ['POST /agent/:id/authorize and AgentAuthorization', agentAuthorizedSchema, 'AgentAuthorization', []],
    ['GET /lei/search and LeiSearchResult', leiSearchSchema, 'LeiSearchResult', []],
    // The graph has one provenance type for both datasets; only the FATF lists name a plenary.
    [
      'GET /esg/score/:lei and EntityEsgScore',
      entityEsgScoreSchema,
      'EntityEsgScore',
      ['dataSources.lei.plenary: in GraphQL EsgDataProvenance (String), missing from zod', 'dataSources.fatf.plenary: non-null in zod, nullable in GraphQL (String)'],
    ],
    ['GET /reference-data and ReferenceData', referenceDataSchema, 'ReferenceData', []],
    ['POST /aml/screen and AmlScreenResult', amlScreenResultSchema, 'AmlScreenResult', []],
    ['GET /aml/profile/:wallet and AmlProfile', amlProfileSchema, 'AmlProfile', []],
    ['GET /aml/events/:wallet and AmlEvents', amlEventsSchema, 'AmlEvents', []],
    ['POST /stream/open and StreamSessionOpened', streamOpenedSchema, 'StreamSessionOpened', []],
    ['GET /stream/:sessionId and StreamSession', streamSessionSchema, 'StreamSession', []],
    ['POST /stream/:sessionId/tick and StreamTick', streamTickSchema, 'StreamTick', []],
  ])('%s', (_path, rest, typeName, meant, graphQLOnlyFields = []) => {
    expect(describeShapeDisagreements(rest, objectType(typeName), { graphQLOnlyFields })).toEqual(meant);
  });

  it('every root Query and Mutation field is nullable', () => {
    const roots = [schema.getQueryType()!, schema.getMutationType()!];
    const fields = roots.flatMap((root) => Object.values(root.getFields())).filter((field) => !field.name.startsWith('_'));
    expect(fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name)).toEqual([]);
  });
});
