import {
  getNullableType,
  type GraphQLEnumType,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from 'graphql';
import { z } from 'zod';

/** A JSON Schema node as z.toJSONSchema writes it (draft 2020-12); only what the walk reads. */
interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: boolean | JsonSchemaNode;
  items?: JsonSchemaNode;
  prefixItems?: JsonSchemaNode[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
  $ref?: string;
  $defs?: Record<string, JsonSchemaNode>;
}

/** The kinds a JSON value can have on the wire, as both sides see them. */
type ValueKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';

export interface ShapeCheckOptions {
  /**
   * Wire kinds each custom scalar accepts when serialising, by scalar name, on top of the
   * defaults below (an unknown scalar with no entry is reported, so a new scalar gets a decision).
   */
  scalars?: Record<string, readonly ValueKind[] | 'any'>;
  /**
   * Fields only the graph has, as `Type.field` (a Quote's `verification`, which REST serves at a
   * path of its own): nullable resolvers joining another capability, not part of the REST body.
   */
  graphQLOnlyFields?: readonly string[];
}

/**
 * What each GraphQL scalar serialises from. Decimal (platform/scalars.ts) takes a number or a
 * decimal string; JSON takes anything, so it agrees with every shape (it is also a hole, which is
 * why the REST/GraphQL agreement tests use real object types instead).
 */
const DEFAULT_SCALAR_KINDS: Record<string, readonly ValueKind[] | 'any'> = {
  String: ['string'],
  ID: ['string', 'integer'],
  Int: ['integer'],
  Float: ['number', 'integer'],
  Boolean: ['boolean'],
  Decimal: ['number', 'integer', 'string'],
  DateTime: ['string'],
  Date: ['string'],
  URL: ['string'],
  EmailAddress: ['string'],
  UUID: ['string'],
  CountryCode: ['string'],
  Currency: ['string'],
  LEI: ['string'],
  EvmAddress: ['string'],
  JSON: 'any',
  JSONObject: ['object'],
};

/** A zod node reduced to what the comparison needs. */
type ZodShape =
  | { kind: 'unknown' }
  | { kind: 'scalar'; types: ValueKind[]; values?: unknown[] }
  | { kind: 'object'; properties: Record<string, JsonSchemaNode>; required: Set<string> }
  | { kind: 'record' }
  | { kind: 'array'; items: JsonSchemaNode | undefined }
  | { kind: 'union'; count: number };

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * Lists every way a zod response schema (what REST sends) and a GraphQL output type (what the
 * graph sends) disagree, one readable line each, so a test can assert the list is empty.
 *
 * 1. The two front doors serve the same domain values (DESIGN.md §3); a field added to one and not
 *    the other, a field made nullable on one side only, or a number typed String on one side is a
 *    bug that neither side's own tests see.
 * 2. The zod side is read through z.toJSONSchema (zod's own introspection, output view), so
 *    optional, nullable, defaults, literals and enums are read as zod means them, not by regex.
 * 3. Reported: fields present on one side only; nullability (zod optional or nullable against a
 *    GraphQL nullable type, and the reverse); kinds (object, list, scalar; number against
 *    Float/Int/Decimal, string against String/ID/DateTime/Decimal, boolean against Boolean, enum
 *    values against a GraphQL enum); a zod `unknown` against a typed GraphQL field.
 */
export function describeShapeDisagreements(zodSchema: z.ZodType, graphQLOutputType: GraphQLOutputType, options: ShapeCheckOptions = {}): string[] {
  const root = z.toJSONSchema(zodSchema, { io: 'output', unrepresentable: 'any' }) as JsonSchemaNode;
  const scalars = { ...DEFAULT_SCALAR_KINDS, ...options.scalars };
  const problems: string[] = [];
  compare(root, true, graphQLOutputType, '(root)', { root, scalars, problems, seen: new Set(), graphQLOnly: new Set(options.graphQLOnlyFields ?? []) });
  return problems;
}

interface Walk {
  root: JsonSchemaNode;
  scalars: Record<string, readonly ValueKind[] | 'any'>;
  problems: string[];
  /** Object-type/zod-node pairs already compared, so recursive types end. */
  seen: Set<string>;
  graphQLOnly: ReadonlySet<string>;
}

function resolveRef(node: JsonSchemaNode, root: JsonSchemaNode): JsonSchemaNode {
  let current = node;
  for (let hops = 0; current.$ref && hops < 32; hops += 1) {
    const ref: string = current.$ref;
    if (ref === '#') current = root;
    else if (ref.startsWith('#/$defs/')) current = root.$defs?.[ref.slice('#/$defs/'.length)] ?? {};
    else return {};
  }
  return current;
}

/** Splits a node into "may be null" and the shape of its non-null values. */
function readZodNode(input: JsonSchemaNode, root: JsonSchemaNode): { nullable: boolean; shape: ZodShape } {
  const node = resolveRef(input, root);
  const branches = node.anyOf ?? node.oneOf;
  if (branches) {
    const resolved = branches.map((branch) => readZodNode(branch, root));
    const nonNull = resolved.filter((branch) => !(branch.shape.kind === 'scalar' && branch.shape.types.length === 0));
    const nullable = resolved.some((branch) => branch.nullable) || nonNull.length < resolved.length;
    if (nonNull.length === 1) return { nullable, shape: nonNull[0]!.shape };
    // A union of literals or scalars is a scalar with several kinds (z.union([z.literal('a'), ...])).
    if (nonNull.every((branch) => branch.shape.kind === 'scalar')) {
      const types = [...new Set(nonNull.flatMap((branch) => (branch.shape.kind === 'scalar' ? branch.shape.types : [])))];
      const valueLists = nonNull.map((branch) => (branch.shape.kind === 'scalar' ? branch.shape.values : undefined));
      const values = valueLists.every((list) => list !== undefined) ? valueLists.flat() : undefined;
      return { nullable, shape: values ? { kind: 'scalar', types, values } : { kind: 'scalar', types } };
    }
    return { nullable, shape: { kind: 'union', count: nonNull.length } };
  }
  if (node.allOf?.length === 1) return readZodNode(node.allOf[0]!, root);
  const declared = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  const nullable = declared.includes('null') || node.const === null || (node.enum?.includes(null) ?? false);
  const types = declared.filter((type) => type !== 'null');
  if (types.length === 0 && node.const === undefined && node.enum === undefined) {
    // `{}` is z.unknown()/z.any() (null included); `{type: 'null'}` alone is z.null().
    return declared.length === 0 ? { nullable: true, shape: { kind: 'unknown' } } : { nullable, shape: { kind: 'scalar', types: [] } };
  }
  if (types.length === 1 && types[0] === 'object') {
    if (node.properties) return { nullable, shape: { kind: 'object', properties: node.properties, required: new Set(node.required ?? []) } };
    return { nullable, shape: { kind: 'record' } };
  }
  if (types.length === 1 && types[0] === 'array') return { nullable, shape: { kind: 'array', items: node.items } };
  const values = node.const !== undefined ? [node.const] : node.enum?.filter((value) => value !== null);
  const scalarTypes = (types.length > 0 ? types : [...new Set((values ?? []).map(kindOfValue))]).filter((type) => SCALAR_TYPES.has(type)) as ValueKind[];
  if (scalarTypes.length !== types.length && types.length > 0) return { nullable, shape: { kind: 'union', count: types.length } };
  return { nullable, shape: values ? { kind: 'scalar', types: scalarTypes, values } : { kind: 'scalar', types: scalarTypes } };
}

function kindOfValue(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function describeZod(shape: ZodShape): string {
  switch (shape.kind) {
    case 'unknown':
      return 'unknown (any value)';
    case 'scalar':
      return shape.values ? `enum ${JSON.stringify(shape.values)}` : shape.types.join(' | ') || 'null';
    case 'object':
      return 'object';
    case 'record':
      return 'record (open map)';
    case 'array':
      return 'array';
    case 'union':
      return `union of ${shape.count} shapes`;
  }
}

function describeGraphQLKind(type: GraphQLNamedType | GraphQLOutputType): string {
  const named = getNullableType(type);
  if (isListType(named)) return `list ${String(type)}`;
  if (isObjectType(named) || isInterfaceType(named)) return `object ${named.name}`;
  if (isUnionType(named)) return `union ${named.name}`;
  if (isEnumType(named)) return `enum ${named.name}`;
  return `scalar ${String(named)}`;
}

function compare(zodNode: JsonSchemaNode, zodPresent: boolean, graphQLType: GraphQLOutputType, path: string, walk: Walk): void {
  const { nullable: zodNullable, shape } = readZodNode(zodNode, walk.root);
  const inner = getNullableType(graphQLType);
  const graphQLAcceptsAnything = isScalarType(inner) && walk.scalars[inner.name] === 'any';
  if (shape.kind === 'unknown' && !graphQLAcceptsAnything) {
    walk.problems.push(`${path}: zod accepts any value (unknown), GraphQL has ${describeGraphQLKind(graphQLType)}`);
    return;
  }
  const zodMayBeNull = zodNullable || !zodPresent;
  const graphQLNullable = !isNonNullType(graphQLType);
  if (zodMayBeNull !== graphQLNullable) {
    walk.problems.push(
      `${path}: ${zodMayBeNull ? `nullable in zod (${zodNullable ? 'nullable' : 'optional'})` : 'non-null in zod'}, ` +
        `${graphQLNullable ? 'nullable' : 'non-null'} in GraphQL (${String(graphQLType)})`,
    );
  }
  if (graphQLAcceptsAnything) return;
  if (shape.kind === 'union' || isUnionType(inner)) {
    walk.problems.push(`${path}: cannot compare zod ${describeZod(shape)} with GraphQL ${describeGraphQLKind(graphQLType)}`);
    return;
  }
  compareKinds(shape, graphQLType, path, walk);
}

/** The comparison past nullability: a list, an object type, an enum or a scalar against the zod shape. */
function compareKinds(shape: ZodShape, graphQLType: GraphQLOutputType, path: string, walk: Walk): void {
  const inner = getNullableType(graphQLType);
  // An open map (a report's narrative) is what an object-valued scalar such as JSONObject carries.
  if (shape.kind === 'record' && isScalarType(inner) && (walk.scalars[inner.name] ?? []).includes('object')) return;
  if (isListType(inner)) {
    if (shape.kind !== 'array') {
      walk.problems.push(`${path}: zod ${describeZod(shape)}, GraphQL ${describeGraphQLKind(graphQLType)}`);
      return;
    }
    compare(shape.items ?? {}, true, inner.ofType, `${path}[]`, walk);
    return;
  }

  if (isObjectType(inner) || isInterfaceType(inner)) {
    if (shape.kind !== 'object') {
      walk.problems.push(`${path}: zod ${describeZod(shape)}, GraphQL ${describeGraphQLKind(graphQLType)}`);
      return;
    }
    compareObject(shape, inner, path, walk);
    return;
  }

  // A GraphQL enum or scalar from here on.
  if (shape.kind !== 'scalar') {
    walk.problems.push(`${path}: zod ${describeZod(shape)}, GraphQL ${describeGraphQLKind(graphQLType)}`);
    return;
  }
  if (isEnumType(inner)) {
    compareEnum(shape, inner, graphQLType, path, walk);
    return;
  }
  if (isScalarType(inner)) {
    const accepted = walk.scalars[inner.name];
    if (accepted === undefined) {
      walk.problems.push(`${path}: GraphQL scalar ${inner.name} has no known wire kinds (pass options.scalars)`);
      return;
    }
    if (accepted === 'any') return;
    const refused = shape.types.filter((type) => !accepted.includes(type));
    if (refused.length > 0 || shape.types.length === 0) {
      walk.problems.push(`${path}: zod ${describeZod(shape)}, GraphQL ${describeGraphQLKind(graphQLType)}`);
    }
  }
}

/** A zod object against a GraphQL object or interface type: fields on one side only, then each shared field. */
function compareObject(shape: Extract<ZodShape, { kind: 'object' }>, inner: GraphQLObjectType | GraphQLInterfaceType, path: string, walk: Walk): void {
  const key = `${inner.name}@${JSON.stringify(shape.properties)}`;
  if (walk.seen.has(key)) return;
  walk.seen.add(key);
  const fields = inner.getFields();
  const prefix = path === '(root)' ? '' : `${path}.`;
  for (const name of Object.keys(shape.properties)) {
    if (!(name in fields)) walk.problems.push(`${prefix}${name}: in zod, missing from GraphQL ${inner.name}`);
  }
  for (const [name, field] of Object.entries(fields)) {
    const property = shape.properties[name];
    if (property === undefined) {
      if (walk.graphQLOnly.has(`${inner.name}.${name}`) && !isNonNullType(field.type)) continue;
      walk.problems.push(`${prefix}${name}: in GraphQL ${inner.name} (${String(field.type)}), missing from zod`);
      continue;
    }
    compare(property, shape.required.has(name), field.type, `${prefix}${name}`, walk);
  }
}

/** A zod scalar against a GraphQL enum: zod must fix the values, and both sides the same ones. */
function compareEnum(shape: Extract<ZodShape, { kind: 'scalar' }>, inner: GraphQLEnumType, graphQLType: GraphQLOutputType, path: string, walk: Walk): void {
  const graphQLValues = new Set(inner.getValues().map((value) => value.value as unknown));
  if (!shape.values) {
    walk.problems.push(`${path}: zod ${describeZod(shape)} (any value), GraphQL ${describeGraphQLKind(graphQLType)} (fixed values)`);
    return;
  }
  const onlyZod = shape.values.filter((value) => !graphQLValues.has(value));
  const zodValues = new Set(shape.values);
  const onlyGraphQL = [...graphQLValues].filter((value) => !zodValues.has(value));
  if (onlyZod.length > 0) walk.problems.push(`${path}: enum values ${JSON.stringify(onlyZod)} in zod, missing from GraphQL ${inner.name}`);
  if (onlyGraphQL.length > 0) walk.problems.push(`${path}: enum values ${JSON.stringify(onlyGraphQL)} in GraphQL ${inner.name}, missing from zod`);
}
