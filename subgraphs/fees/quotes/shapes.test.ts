import { GraphQLNonNull, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ManualClock } from '../../../platform/clock.js';
import { compileResponseSerializer } from '../../../platform/serializer.js';
import { describeShapeDisagreements } from '../../../platform/shape-check.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../../platform/subgraph.js';
import { TEST_NOW } from '../../../test/helpers.js';
import {
  esgFeeScheduleResponseSchema,
  esgManifestResponseSchema,
  esgQuoteResponseSchema,
  feeScheduleResponseSchema,
  fxRateResponseSchema,
  manifestResponseSchema,
  quoteResponseSchema,
  quoteVerificationResponseSchema,
  verifyFeesResponseSchema,
} from './responses.js';
import { createFeesService } from './service.js';

const schema = buildFederatedSchema(loadSubgraphTypeDefs('fees'), {});

function objectType(name: string) {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type of schema/fees.graphql`);
  // A REST body is never null; the root fields are nullable only so a failure stays local.
  return new GraphQLNonNull(type);
}

const pairs: Array<{ path: string; graphQLType: string; response: z.ZodType; graphQLOnlyFields?: string[] }> = [
  // A quote's on-chain verification is GET /stability/verify-fees in REST, a field of the Quote in the graph.
  { path: 'GET /stability/quote', graphQLType: 'Quote', response: quoteResponseSchema, graphQLOnlyFields: ['Quote.verification'] },
  { path: 'GET /stability/manifest', graphQLType: 'StabilityManifest', response: manifestResponseSchema },
  { path: 'GET /esg/manifest', graphQLType: 'EsgManifest', response: esgManifestResponseSchema },
  { path: 'GET /stability/fee-schedule', graphQLType: 'FeeSchedule', response: feeScheduleResponseSchema },
  { path: 'GET /esg/quote', graphQLType: 'EsgFeeQuote', response: esgQuoteResponseSchema },
  { path: 'GET /esg/fee-schedule', graphQLType: 'EsgFeeSchedule', response: esgFeeScheduleResponseSchema },
  { path: 'GET /stability/verify-fees', graphQLType: 'FeeVerification', response: verifyFeesResponseSchema },
  { path: 'GET /stability/fx/{currency}', graphQLType: 'UsdFxRate', response: fxRateResponseSchema },
  { path: 'POST /stability/quote/verify', graphQLType: 'QuoteVerification', response: quoteVerificationResponseSchema },
];

describe('REST response schemas and GraphQL types describe one shape', () => {
  it.each(pairs)('$path and GraphQL $graphQLType have the same fields, nullability and kinds', ({ graphQLType, response, graphQLOnlyFields }) => {
    expect(describeShapeDisagreements(response, objectType(graphQLType), { graphQLOnlyFields })).toEqual([]);
  });

  it('every root Query field is nullable, so one failing field never wipes the others', () => {
    const fields = Object.values(schema.getQueryType()!.getFields()).filter((field) => !field.name.startsWith('_'));
    expect(fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name)).toEqual([]);
  });

  it('the values the service builds pass the response schemas unchanged (nothing is stripped)', async () => {
    const store = { findQuotes: async () => new Map() };
    const contracts = { token: null, esgOracle: null, redistribution: null, stabilityPID: null, basketPeg: null };
    const service = createFeesService({ clock: new ManualClock(TEST_NOW), signer: { sign: () => 'ab'.repeat(32), verify: () => true }, store, ledger: { record: () => {} }, contracts });
    const quote = service.issueQuote({ amountUsd: 10000, hasFx: true, esgScore: 75 });
    const built: Array<[z.ZodType, unknown]> = [
      [quoteResponseSchema, quote],
      [manifestResponseSchema, service.manifest()],
      [esgManifestResponseSchema, service.esgManifest()],
      [feeScheduleResponseSchema, service.feeSchedule()],
      [esgQuoteResponseSchema, service.esgQuote({ amountUsd: 10000, esgScore: 75 })],
      [esgFeeScheduleResponseSchema, service.esgFeeSchedule()],
    ];
    for (const [response, value] of built) expect(response.parse(value)).toEqual(value);
    // The compiled serializer (platform/serializer.ts) writes every field of every value: nothing is lost on the wire.
    for (const [response, value] of built) expect(JSON.parse(compileResponseSerializer(response)(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });
});
