import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * `anyOf: [X, {type: 'null'}]` (zod's `.nullable()`) as `type: [X's type, 'null']`: the form
 * fast-json-stringify writes directly, instead of validating each value against the branches.
 */
function collapseNullable(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return schema;
  const [first, second] = branches as JsonSchema[];
  const nullBranch = first?.type === 'null' ? first : second?.type === 'null' ? second : undefined;
  const other = nullBranch === first ? second : first;
  if (!nullBranch || !other || typeof other.type !== 'string' || other.anyOf || other.enum || other.const !== undefined) return schema;
  const { anyOf: _anyOf, ...rest } = schema;
  return { ...rest, ...other, type: [other.type, 'null'] };
}

/** Walks a JSON Schema, rewriting each subschema bottom-up. */
function rewrite(schema: unknown, transform: (schema: JsonSchema) => JsonSchema): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewrite(item, transform));
  if (schema === null || typeof schema !== 'object') return schema;
  const rewritten = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, rewrite(value, transform)]));
  return transform(rewritten);
}

/** The JSON Schema a response serializer is compiled from: the output side of the zod schema. */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-07', io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return rewrite(json, collapseNullable) as JsonSchema;
}

/**
 * A compiled serializer for a route's response, as Fastify builds natively from a JSON Schema,
 * derived from the one zod definition of the shape (responses.ts). It writes the declared
 * properties only and validates nothing: that the service's values have the declared shape is
 * checked at compile time (responses.ts) and by the shapes tests.
 */
export function compileResponseSerializer(schema: z.ZodType): (value: unknown) => string {
  return fastJsonStringify(responseJsonSchema(schema) as unknown as Schema) as (value: unknown) => string;
}
