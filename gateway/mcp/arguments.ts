import type { JsonSchema } from './json-schema.js';

/**
 * The arguments of a hand-declared tool (the dpx-mcp names) checked against its inputSchema:
 * required, JSON type and enum of each top-level argument, and no other argument. The first
 * problem is named (`amountUsd: expected number, received string`), as REST names a field.
 */
export function argumentProblem(args: Record<string, unknown>, schema: JsonSchema): string | undefined {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of (schema.required ?? []) as string[]) if (args[name] === undefined) return `${name}: required`;
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!property) return `${name}: not an argument of this tool`;
    if (value === undefined) continue;
    const types = Array.isArray(property.type) ? (property.type as string[]) : [property.type as string];
    const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    const admitted = types.includes(actual) || (actual === 'number' && types.includes('integer') && Number.isInteger(value));
    if (!admitted) return `${name}: expected ${types.join(' or ')}, received ${actual}`;
    if (Array.isArray(property.enum) && !property.enum.includes(value)) return `${name}: expected one of ${property.enum.map((item) => JSON.stringify(item)).join(', ')}`;
    if (actual === 'array' && (property.items as JsonSchema | undefined)?.type === 'string' && (value as unknown[]).some((item) => typeof item !== 'string'))
      return `${name}: expected an array of strings`;
  }
  return undefined;
}
