/**
 * OpenAPI 3.0 schema objects (what @fastify/swagger writes from the zod schemas) as plain JSON
 * Schema, which MCP's inputSchema and outputSchema are and which clients validate with (the MCP
 * SDK uses ajv): `nullable: true` becomes a null type, the boolean `exclusiveMinimum`/`Maximum`
 * of OpenAPI 3.0 become numeric bounds. Everything else is the same vocabulary.
 */

export type JsonSchema = Record<string, unknown>;

const NESTED_SCHEMA_KEYS = ['items', 'additionalProperties', 'not', 'propertyNames'] as const;
const SCHEMA_LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withBounds(schema: JsonSchema): JsonSchema {
  const result = { ...schema };
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof result[flag] !== 'boolean') continue;
    if (result[flag] === true && typeof result[bound] === 'number') {
      result[flag] = result[bound];
      delete result[bound];
    } else delete result[flag];
  }
  return result;
}

function withNull(schema: JsonSchema): JsonSchema {
  const { nullable, ...rest } = schema;
  if (nullable !== true) return rest;
  if (typeof rest.type === 'string') return { ...rest, type: [rest.type, 'null'], ...(Array.isArray(rest.enum) ? { enum: [...rest.enum, null] } : {}) };
  return { anyOf: [rest, { type: 'null' }] };
}

export function jsonSchemaOf(openApiSchema: unknown): JsonSchema {
  if (!isSchema(openApiSchema)) return {};
  const schema: JsonSchema = { ...openApiSchema };
  if (isSchema(schema.properties)) schema.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, jsonSchemaOf(property)]));
  for (const key of NESTED_SCHEMA_KEYS) if (isSchema(schema[key])) schema[key] = jsonSchemaOf(schema[key]);
  for (const key of SCHEMA_LIST_KEYS) if (Array.isArray(schema[key])) schema[key] = (schema[key] as unknown[]).map(jsonSchemaOf);
  return withNull(withBounds(schema));
}

/** Whether `name` is a required property somewhere in the schema (its branches, items and nested objects, a few levels down). */
export function requiresProperty(schema: JsonSchema | undefined, name: string, depth = 0): boolean {
  if (!schema || depth > 4) return false;
  if (Array.isArray(schema.required) && schema.required.includes(name)) return true;
  const nested: unknown[] = [
    ...(isSchema(schema.properties) ? Object.values(schema.properties) : []),
    schema.items,
    ...SCHEMA_LIST_KEYS.flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : [])),
  ];
  return nested.some((child) => isSchema(child) && requiresProperty(child, name, depth + 1));
}
