import { GraphQLNonNull, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { describeShapeDisagreements } from '../../../platform/shape-check.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../../platform/subgraph.js';
import { reportResponseSchema } from './responses.js';

const schema = buildFederatedSchema(loadSubgraphTypeDefs('intelligence'), {});

describe('the report envelope is one shape in REST and GraphQL', () => {
  it('GET /reports/report/climate and GraphQL Report have the same fields, nullability and kinds', () => {
    const report = schema.getType('Report');
    if (!isObjectType(report)) throw new Error('Report is not an object type');
    expect(describeShapeDisagreements(reportResponseSchema, new GraphQLNonNull(report))).toEqual([]);
  });

  it('every root Query field is nullable', () => {
    const fields = Object.values(schema.getQueryType()!.getFields()).filter((field) => !field.name.startsWith('_'));
    expect(fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name)).toEqual([]);
  });
});
