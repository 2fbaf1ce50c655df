import { buildSchema, GraphQLNonNull, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeShapeDisagreements } from './shape-check.js';

const schema = buildSchema(`
  scalar Decimal
  scalar DateTime
  scalar JSON
  enum Tier { GOOD BAD }
  type Query { item: Item }
  type Item {
    id: ID!
    name: String!
    count: Int!
    ratio: Float!
    price: Decimal!
    at: DateTime!
    active: Boolean!
    tier: Tier!
    note: String
    tags: [String!]!
    parts: [Part!]!
    extra: JSON
  }
  type Part { label: String!, weight: Float! }
  type Node { value: Int!, next: Node }
`);
const item = new GraphQLNonNull(schema.getType('Item') as GraphQLObjectType);
const node = new GraphQLNonNull(schema.getType('Node') as GraphQLObjectType);

const agreeingItem = z.object({
  id: z.string(),
  name: z.string(),
  count: z.number().int(),
  ratio: z.number(),
  price: z.number(),
  at: z.string(),
  active: z.boolean(),
  tier: z.enum(['GOOD', 'BAD']),
  note: z.string().nullable(),
  tags: z.array(z.string()),
  parts: z.array(z.object({ label: z.string(), weight: z.number() })),
  extra: z.record(z.string(), z.number()).optional(),
});

describe('describeShapeDisagreements', () => {
  it('finds nothing when every field, nullability and kind agree', () => {
    expect(describeShapeDisagreements(agreeingItem, item)).toEqual([]);
  });

  it('accepts a decimal string for Decimal and an integer for Float', () => {
    const shape = agreeingItem.extend({ price: z.string(), ratio: z.number().int() });
    expect(describeShapeDisagreements(shape, item)).toEqual([]);
  });

  it('lists fields present on one side only, at any depth', () => {
    const shape = agreeingItem.omit({ name: true }).extend({
      colour: z.string(),
      parts: z.array(z.object({ label: z.string(), grams: z.number() })),
    });
    expect(describeShapeDisagreements(shape, item).sort()).toEqual(
      [
        'colour: in zod, missing from GraphQL Item',
        'name: in GraphQL Item (String!), missing from zod',
        'parts[].grams: in zod, missing from GraphQL Part',
        'parts[].weight: in GraphQL Part (Float!), missing from zod',
      ].sort(),
    );
  });

  it.each([
    { name: 'optional in zod, non-null in GraphQL', change: { name: z.string().optional() }, expected: 'name: nullable in zod (optional), non-null in GraphQL (String!)' },
    { name: 'nullable in zod, non-null in GraphQL', change: { count: z.number().int().nullable() }, expected: 'count: nullable in zod (nullable), non-null in GraphQL (Int!)' },
    { name: 'required in zod, nullable in GraphQL', change: { note: z.string() }, expected: 'note: non-null in zod, nullable in GraphQL (String)' },
  ])('reports nullability: $name', ({ change, expected }) => {
    expect(describeShapeDisagreements(agreeingItem.extend(change), item)).toEqual([expected]);
  });

  it.each([
    { name: 'string for Int', change: { count: z.string() }, expected: 'count: zod string, GraphQL scalar Int' },
    { name: 'fractional number for Int', change: { count: z.number() }, expected: 'count: zod number, GraphQL scalar Int' },
    { name: 'number for String', change: { name: z.number() }, expected: 'name: zod number, GraphQL scalar String' },
    { name: 'number for DateTime', change: { at: z.number() }, expected: 'at: zod number, GraphQL scalar DateTime' },
    { name: 'string for Boolean', change: { active: z.string() }, expected: 'active: zod string, GraphQL scalar Boolean' },
    { name: 'boolean for Decimal', change: { price: z.boolean() }, expected: 'price: zod boolean, GraphQL scalar Decimal' },
    { name: 'an object for a scalar', change: { name: z.object({ first: z.string() }) }, expected: 'name: zod object, GraphQL scalar String' },
    { name: 'a scalar for a list', change: { tags: z.string() }, expected: 'tags: zod string, GraphQL list [String!]!' },
    { name: 'a list for an object list item', change: { parts: z.array(z.array(z.string())) }, expected: 'parts[]: zod array, GraphQL object Part' },
    { name: 'an open record for an object', change: { parts: z.array(z.record(z.string(), z.string())) }, expected: 'parts[]: zod record (open map), GraphQL object Part' },
    { name: 'unknown for an object list', change: { parts: z.unknown() }, expected: 'parts: zod accepts any value (unknown), GraphQL has list [Part!]!' },
    { name: 'a free string for an enum', change: { tier: z.string() }, expected: 'tier: zod string (any value), GraphQL enum Tier (fixed values)' },
    { name: 'an extra enum value', change: { tier: z.enum(['GOOD', 'BAD', 'UGLY']) }, expected: 'tier: enum values ["UGLY"] in zod, missing from GraphQL Tier' },
    { name: 'a missing enum value', change: { tier: z.literal('GOOD') }, expected: 'tier: enum values ["BAD"] in GraphQL Tier, missing from zod' },
  ])('reports kinds: $name', ({ change, expected }) => {
    expect(describeShapeDisagreements(agreeingItem.extend(change), item)).toEqual([expected]);
  });

  it('lets JSON agree with any zod shape, z.unknown included', () => {
    expect(describeShapeDisagreements(agreeingItem.extend({ extra: z.unknown() }), item)).toEqual([]);
  });

  it('ends on recursive types', () => {
    interface Linked {
      value: number;
      next: Linked | null;
    }
    const linked: z.ZodType<Linked> = z.object({
      value: z.number().int(),
      get next() {
        return linked.nullable();
      },
    });
    expect(describeShapeDisagreements(linked, node)).toEqual([]);
    const broken: z.ZodType<Linked> = z.object({
      value: z.string() as unknown as z.ZodNumber,
      get next() {
        return broken.nullable();
      },
    });
    expect(describeShapeDisagreements(broken, node)).toContain('value: zod string, GraphQL scalar Int');
  });

  it('reports a scalar it does not know, unless told its wire kinds', () => {
    const withLei = buildSchema('scalar Code type Query { x: T } type T { code: Code! }');
    const type = new GraphQLNonNull(withLei.getType('T') as GraphQLObjectType);
    const shape = z.object({ code: z.string() });
    expect(describeShapeDisagreements(shape, type)).toEqual(['code: GraphQL scalar Code has no known wire kinds (pass options.scalars)']);
    expect(describeShapeDisagreements(shape, type, { scalars: { Code: ['string'] } })).toEqual([]);
  });
});
