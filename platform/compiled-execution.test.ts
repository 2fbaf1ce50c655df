import { buildSchema, execute, type GraphQLSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createCompiledExecutor } from './compiled-execution.js';

function sampleSchema(): GraphQLSchema {
  const schema = buildSchema(`
    type Query { item(id: ID!): Item items: [Item!]! failing: Int }
    type Item { id: ID! price: Float! tags: [String!]! }
  `);
  const items = [
    { id: 'a', price: 1.5, tags: ['x'] },
    { id: 'b', price: 2, tags: [] },
  ];
  const fields = schema.getQueryType()!.getFields();
  fields.item!.resolve = (_: unknown, args: { id: string }) => items.find((item) => item.id === args.id) ?? null;
  fields.items!.resolve = async () => items;
  fields.failing!.resolve = () => {
    throw new Error('resolver failed');
  };
  return schema;
}

describe('compiled execution (graphql-jit)', () => {
  const schema = sampleSchema();

  it.each([
    ['{ items { id price tags } }', {}],
    ['query ($id: ID!) { item(id: $id) { id price } }', { id: 'b' }],
    ['query ($id: ID!) { item(id: $id) { id } }', { id: 'missing' }],
    ['{ failing items { id } }', {}],
  ])('answers %s exactly as graphql-js does, errors and paths included', async (query, variables) => {
    const executor = createCompiledExecutor(schema);
    const compiled = await executor.execute({ query, variables, contextValue: {} });
    const interpreted = await execute({ schema, document: parse(query), variableValues: variables });
    expect(JSON.parse(JSON.stringify(compiled))).toEqual(JSON.parse(JSON.stringify(interpreted)));
  });

  it('compiles each operation once, however often it runs', async () => {
    const executor = createCompiledExecutor(schema);
    for (let run = 0; run < 5; run += 1) await executor.execute({ query: '{ items { id } }', contextValue: {} });
    await executor.execute({ query: '{ items { price } }', contextValue: {} });
    expect(executor.compilations).toBe(2);
  });

  it('refuses a document that does not parse or validate, without compiling it', async () => {
    const executor = createCompiledExecutor(schema);
    expect((await executor.execute({ query: '{ items {', contextValue: {} })).errors?.[0]?.message).toMatch(/Syntax Error/);
    expect((await executor.execute({ query: '{ nothing }', contextValue: {} })).errors?.[0]?.message).toMatch(/Cannot query field "nothing"/);
  });

  it('reports a resolver error as a graphql-js error whose extensions is an object (Apollo reads extensions.code)', async () => {
    const result = await createCompiledExecutor(schema).execute({ query: '{ failing }', contextValue: {} });
    expect(result.errors?.[0]?.extensions).toEqual({});
    expect(result.errors?.[0]?.originalError?.message).toBe('resolver failed');
  });

  it('codes an operation it cannot compile (a mutation on a schema without one) as a client error', async () => {
    const result = await createCompiledExecutor(schema).execute({ query: 'mutation { x }', contextValue: {} });
    expect(result.errors?.[0]?.extensions).toEqual({ code: 'GQL_ERR_BAD_REQUEST' });
    expect(result.errors?.[0]?.originalError).toBeUndefined();
  });
});

describe('compiled execution: refused variables', () => {
  it("codes variables of the wrong type as the caller's input error, keeping their location", async () => {
    const result = await createCompiledExecutor(sampleSchema()).execute({ query: 'query ($id: ID!) { item(id: $id) { id } }', variables: { id: { nested: true } }, contextValue: {} });
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.extensions).toEqual({ code: 'GQL_ERR_BAD_USER_INPUT' });
    expect(result.errors?.[0]?.locations).toEqual([{ line: 1, column: 8 }]);
  });
});
