import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { FastifyReply } from 'fastify';
import {
  type ASTNode,
  BREAK,
  type DocumentNode,
  type FieldNode,
  getNullableType,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  isListType,
  Kind,
  type ValidationContext,
  type ValidationRule,
  visit,
} from 'graphql';
import { type ComplexityEstimator, getComplexity } from 'graphql-query-complexity';
import type { Config } from './config.js';
import { errorCatalog, type ErrorCode } from './errors.js';
import { formatGraphQLError } from './graphql.js';
import { describeInputProblem, findInputProblem, isSizeProblem } from './input-hygiene.js';
import type { Logger } from './log.js';

/**
 * Limits and hygiene shared by the gateway and every subgraph endpoint (DESIGN.md §6).
 * 1. Tokens are counted while parsing (graphql-js `maxTokens`), so a 512 KB document is refused
 *    before validation, whose overlapping-fields check is quadratic in repeated fields.
 * 2. Depth, aliases and directives are validation rules (graphql-armor); each reports our code.
 * 3. Cost is estimated after the operation is known (graphql-query-complexity): 1 a field, the
 *    children of a list counted `listSizeEstimate` times, so nested lists multiply.
 * 4. The response is measured as it is sent (responseSizeLimit); a larger one is replaced by an error.
 * 5. Variables, extensions and the document's string literals follow the platform's input rule
 *    (platform/input-hygiene.ts): valid Unicode without NUL, variables within a depth and a size,
 *    checked before anything else reads them (decision 0053).
 */
export type GraphQLLimits = Config['gateway'];

/**
 * Apollo rewrites `extensions.code` of every validation error to GRAPHQL_VALIDATION_FAILED; the
 * catalog code rides along in `catalogCode` and normaliseGraphQLError puts it back.
 */
function limitError(code: ErrorCode, detail: string): GraphQLError {
  return new GraphQLError(`${errorCatalog[code].message} ${detail}`, { extensions: { code, catalogCode: code, http: { status: errorCatalog[code].status } } });
}

/** An armor rule whose rejection carries our code instead of a "Syntax Error" with none. */
function reportingWith(code: ErrorCode, limit: number) {
  return {
    n: limit,
    exposeLimits: false,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null) => context?.reportError(limitError(code, `The limit is ${limit}.`))],
  };
}

export function limitValidationRules(limits: GraphQLLimits): ValidationRule[] {
  return [
    maxDepthRule({ ...reportingWith('GQL_ERR_TOO_DEEP', limits.maxDepth), ignoreIntrospection: true }) as unknown as ValidationRule,
    maxAliasesRule(reportingWith('GQL_ERR_TOO_MANY_ALIASES', limits.maxAliases)) as unknown as ValidationRule,
    maxDirectivesRule(reportingWith('GQL_ERR_TOO_MANY_DIRECTIVES', limits.maxDirectives)) as unknown as ValidationRule,
    introspectionWithoutAliasesRule,
  ];
}

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/**
 * Introspection is not cost-estimated (listMultiplyingEstimator), so its shape bounds it (decision 0085):
 * 1. graphql-js's MaxIntrospectionDepthRule bounds how deep one copy nests;
 * 2. this rule bounds the copies: no alias on `__schema` or `__type`, nor on a field of an
 *    introspection type (fragments included). Without it, 29 aliased copies of one deep introspection
 *    cost 0 and held the event loop for about 2 s before the response size limit refused the answer.
 */
function introspectionWithoutAliasesRule(context: ValidationContext) {
  return {
    Field(node: FieldNode) {
      if (!node.alias || !(INTROSPECTION_ROOTS.has(node.name.value) || context.getParentType()?.name.startsWith('__'))) return undefined;
      context.reportError(limitError('GQL_ERR_TOO_MANY_ALIASES', 'Introspection (__schema, __type) takes no aliases: it is not cost-estimated, so an operation asks for one copy of it.'));
      return BREAK;
    },
  };
}

/** 1 a field; a list field's children count `listSize` times (or its `first`/`limit` argument). */
function listMultiplyingEstimator(listSize: number): ComplexityEstimator {
  return ({ type, field, args, childComplexity }) => {
    // Introspection reads the schema in memory (GraphiQL's query would be estimated 329452); graphql-js's MaxIntrospectionDepthRule bounds its cycles.
    if (type.name.startsWith('__')) return 0;
    if (!isListType(getNullableType(field.type))) return 1 + childComplexity;
    const requested = Number(args.first ?? args.limit);
    const size = Number.isInteger(requested) && requested > 0 ? requested : listSize;
    return 1 + childComplexity * size;
  };
}

const MAX_COSTS_PER_DOCUMENT = 64;

/** What names a string literal in an error: the fields, arguments and input fields around it. */
function literalPath(ancestors: ReadonlyArray<ASTNode | ReadonlyArray<ASTNode>>): string {
  const names: string[] = [];
  for (const ancestor of ancestors) {
    if (Array.isArray(ancestor)) continue;
    const node = ancestor as ASTNode;
    if (node.kind === Kind.FIELD) names.push(node.alias?.value ?? node.name.value);
    else if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) names.push(node.name.value);
    else if (node.kind === Kind.VARIABLE_DEFINITION) names.push(`$${node.variable.name.value}`);
  }
  return names.join('.');
}

/** The first string literal of the document that holds NUL or an unpaired surrogate (from an escape such as "\u0000"). */
function findUncleanLiteral(document: DocumentNode): string | undefined {
  let found: string | undefined;
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      const problem = findInputProblem(node.value, '');
      if (!problem) return undefined;
      const where = literalPath(parent ? [...ancestors, parent] : ancestors);
      found = `${where || 'a string literal'} (line ${node.loc?.startToken.line ?? '?'}): ${describeInputProblem(problem)}`;
      return BREAK;
    },
  });
  return found;
}

/**
 * The platform's input rule on what a GraphQL request carries besides its text: variables and
 * extensions (depth, size, text) and the document's string literals (text). A document is
 * looked at once: Apollo hands the same parsed document to every request that sends the same text.
 */
function refuseUncleanInput(variables: unknown, extensions: unknown, document: DocumentNode, literals: WeakMap<DocumentNode, string | null>): void {
  for (const [root, value] of [
    ['variables', variables],
    ['extensions', extensions],
  ] as const) {
    const problem = findInputProblem(value ?? {}, root);
    if (problem) throw limitError(isSizeProblem(problem) ? 'GQL_ERR_VARIABLES_TOO_LARGE' : 'GQL_ERR_BAD_USER_INPUT', `${describeInputProblem(problem)}.`);
  }
  let literal = literals.get(document);
  if (literal === undefined) {
    literal = findUncleanLiteral(document) ?? null;
    literals.set(document, literal);
  }
  if (literal !== null) throw limitError('GQL_ERR_BAD_USER_INPUT', `${literal}.`);
}

/**
 * The estimate is the same for the same document, operation and variables, and Apollo hands the
 * same parsed document to every request that sends the same text: each is estimated once. The
 * input rule runs first, in the same hook, so the variables the cost key serialises are bounded.
 */
function guardOperations(limits: GraphQLLimits): ApolloServerPlugin<BaseContext> {
  const estimators = [listMultiplyingEstimator(limits.listSizeEstimate)];
  const costs = new WeakMap<DocumentNode, Map<string, number>>();
  const literals = new WeakMap<DocumentNode, string | null>();
  const estimate = (schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>, operationName: string | undefined) => {
    const known = costs.get(document) ?? new Map<string, number>();
    costs.set(document, known);
    const key = `${operationName ?? ''}\n${JSON.stringify(variables)}`;
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    const cost = getComplexity({ schema, query: document, variables, estimators, ...(operationName ? { operationName } : {}) });
    if (known.size >= MAX_COSTS_PER_DOCUMENT) known.clear();
    known.set(key, cost);
    return cost;
  };
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, request, operationName }) {
          refuseUncleanInput(request.variables, request.extensions, document, literals);
          const cost = estimate(schema, document, request.variables ?? {}, operationName ?? undefined);
          if (cost > limits.maxCost) throw limitError('GQL_ERR_TOO_COSTLY', `Estimated ${cost}, limit ${limits.maxCost}.`);
        },
      };
    },
  };
}

/**
 * A Fastify onSend hook for GraphQL routes: the body Apollo serialised is measured as it is (no
 * second JSON.stringify); a larger one is replaced by an error.
 */
export function responseSizeLimit(limits: GraphQLLimits) {
  return async (_request: unknown, reply: FastifyReply, payload: unknown) => {
    if (typeof payload !== 'string' || payload.length * 3 <= limits.maxResponseBytes) return payload;
    const size = Buffer.byteLength(payload);
    if (size <= limits.maxResponseBytes) return payload;
    const error = limitError('GQL_ERR_RESPONSE_TOO_LARGE', `It would be ${size} bytes; the limit is ${limits.maxResponseBytes}.`);
    reply.code(errorCatalog.GQL_ERR_RESPONSE_TOO_LARGE.status);
    return JSON.stringify({ data: null, errors: [{ message: error.message, extensions: { code: 'GQL_ERR_RESPONSE_TOO_LARGE' } }] });
  };
}

/** In production a subgraph endpoint does not hand out its SDL (`_service`) any more than introspection. */
export function refuseServiceSdlRule(context: ValidationContext) {
  return {
    Field(node: { name: { value: string } }) {
      if (node.name.value === '_service' && context.getParentType()?.name === 'Query') {
        context.reportError(limitError('GQL_ERR_INTROSPECTION_DISABLED', 'The subgraph SDL is not served in production.'));
      }
    },
  };
}

/** PERSISTED_QUERY_NOT_FOUND is not here: it is the APQ protocol's signal to send the text, and clients look for it. */
const apolloCodeToOurs: Record<string, ErrorCode> = {
  GRAPHQL_PARSE_FAILED: 'GQL_ERR_PARSE_FAILED',
  GRAPHQL_VALIDATION_FAILED: 'GQL_ERR_VALIDATION_FAILED',
  BAD_USER_INPUT: 'GQL_ERR_BAD_USER_INPUT',
  OPERATION_RESOLUTION_FAILURE: 'GQL_ERR_BAD_REQUEST',
  BAD_REQUEST: 'GQL_ERR_BAD_REQUEST',
  // The gateway's planner: several anonymous operations, an unknown operationName, no mutation type.
  INVALID_GRAPHQL: 'GQL_ERR_BAD_REQUEST',
};

/** Client errors graphql-js and Apollo raise without a client code of their own. */
const clientErrorMessages: Array<[RegExp, ErrorCode]> = [
  [/Document contains more th\w+ \d+ tokens/, 'GQL_ERR_TOO_MANY_TOKENS'],
  [/^Schema is not configured to execute \w+ operation/, 'GQL_ERR_BAD_REQUEST'],
  [/^Operation batching disabled/, 'GQL_ERR_BATCHING_DISABLED'],
  [/^Unsupported persisted query version/, 'GQL_ERR_BAD_REQUEST'],
  // Variables coerced by the gateway's executor (or graphql-jit) come without Apollo's BAD_USER_INPUT.
  [/^Variable "\$\w+" (got invalid value|of required type|of non-null type)/, 'GQL_ERR_BAD_USER_INPUT'],
  // graphql-js's MaxIntrospectionDepthRule: a limit on nesting, not introspection turned off.
  [/^Maximum introspection depth exceeded/, 'GQL_ERR_TOO_DEEP'],
  [/introspection/i, 'GQL_ERR_INTROSPECTION_DISABLED'],
];

const SUBGRAPH_FETCH_FAILURE = /^Error while fetching subquery from service "([^"]+)"/;
/** Things a message relayed from elsewhere must not carry to a client: URLs, file paths. */
const INTERNAL_DETAIL = /(https?:\/\/[^\s"']+)|((?:\/[\w.-]+){2,}\.(?:ts|js|mjs|cjs)(?::\d+)*)/g;

/**
 * The code a client sees for an error Apollo or the gateway raised (ours pass through): parse,
 * validation, operation resolution and input errors are client errors with catalog codes; a
 * subgraph that could not be reached is SUBGRAPH_UNAVAILABLE without its URL or the reason.
 */
export function normaliseGraphQLError(formatted: GraphQLFormattedError, production: boolean): GraphQLFormattedError {
  const { stacktrace: _stacktrace, exception: _exception, serviceName: _serviceName, catalogCode, http: _http, ...extensions } = formatted.extensions ?? {};
  const code = typeof extensions.code === 'string' ? extensions.code : undefined;
  const unreachable = SUBGRAPH_FETCH_FAILURE.exec(formatted.message);
  if (unreachable || code === 'SUBGRAPH_UNAVAILABLE') {
    return {
      message: unreachable ? `The ${unreachable[1]} part of the graph is unavailable; the other fields were answered. Retry later.` : formatted.message,
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code: 'SUBGRAPH_UNAVAILABLE' },
    };
  }
  const apolloCode = code !== undefined && !Object.hasOwn(errorCatalog, code);
  let ours: ErrorCode | undefined = typeof catalogCode === 'string' && Object.hasOwn(errorCatalog, catalogCode) ? (catalogCode as ErrorCode) : undefined;
  if (!ours && (apolloCode || code === undefined)) {
    ours = clientErrorMessages.find(([pattern]) => pattern.test(formatted.message))?.[1] ?? (code && Object.hasOwn(apolloCodeToOurs, code) ? apolloCodeToOurs[code] : undefined);
  }
  let message = formatted.message.replace(INTERNAL_DETAIL, '[internal]');
  if (production) message = message.replace(/ Did you mean .*\?$/, '');
  return {
    ...formatted,
    message: message.length > 400 ? `${message.slice(0, 400)}…` : message,
    extensions: { ...extensions, ...(ours ? { code: ours } : {}) },
  };
}

/** Apollo's formatError for every server of ours: catalog codes first, then the normalisation above. */
export function formatErrorForClients(formatted: GraphQLFormattedError, error: unknown, production: boolean): GraphQLFormattedError {
  if (SUBGRAPH_FETCH_FAILURE.test(formatted.message) || formatted.extensions?.code === 'SUBGRAPH_UNAVAILABLE') {
    return normaliseGraphQLError(formatted, production);
  }
  return normaliseGraphQLError(formatGraphQLError(formatted, error), production);
}

interface HasRequest {
  request?: { requestId?: string };
}

/**
 * The error behind a GraphQL error (a resolver's throw, a fetch's failure), whose cause chain the
 * log shows; none for an error the gateway rebuilt from a subgraph's answer (the subgraph, or the
 * in-process fetch, logged its cause).
 */
function underlyingError(error: GraphQLError | undefined): Error | undefined {
  const original = error?.originalError;
  return original instanceof Error ? original : undefined;
}

/** Errors that are the server's fault, logged as errors with their cause chain; the rest are the client's. */
function isServerSide(code: string): boolean {
  if (code === 'SUBGRAPH_UNAVAILABLE' || code === 'INTERNAL_SERVER_ERROR' || code === 'UNKNOWN') return true;
  return (statusOfCode(code) ?? 0) >= 500;
}

/**
 * 1. Logs each error of a request once, with the request id and code, never the query, the
 *    variables or a stack sent to the client (the logger throttles a storm). A server-side error
 *    is logged with the error behind it and its cause chain, messages and stack frames
 *    (platform/log.ts), so the log says why (decision 0054); the client's body has none of it.
 * 2. Sets the HTTP status: 400 when the request itself was refused (no data), 503 with a retry
 *    hint when nothing could be answered because subgraphs were unavailable, 200 for partial data
 *    (docs/decisions/0007).
 */
export function errorReportingPlugin(logger: Logger, role: string): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse(requestContext) {
          const { response } = requestContext;
          if (response.body?.kind !== 'single') return;
          const result = response.body.singleResult;
          const errors = result.errors ?? [];
          if (errors.length === 0) return;
          const requestId = (requestContext.contextValue as HasRequest).request?.requestId;
          // Apollo formats requestContext.errors one for one, in order, into the response's errors.
          const raw = requestContext.errors ?? [];
          errors.forEach((error, index) => {
            const code = String(error.extensions?.code ?? 'UNKNOWN');
            const line = { requestId, code, path: error.path?.join('.'), operationName: requestContext.request.operationName, role };
            const err = isServerSide(code) ? underlyingError(raw[index]) : undefined;
            if (isServerSide(code)) logger.error(err ? { ...line, err } : line, `graphql error ${code}`);
            else logger.info(line, `graphql error ${code}`);
          });
          const hasData = result.data !== null && result.data !== undefined && Object.values(result.data).some((value) => value !== null);
          if (hasData) return;
          // Nothing was answered: the status tells why (decision 0007).
          const statuses = errors.map((error) => statusOfCode(error.extensions?.code));
          if (errors.every((error) => error.extensions?.code === 'SUBGRAPH_UNAVAILABLE')) {
            response.http.status = 503;
            response.http.headers.set('retry-after', '5');
          } else if (statuses.every((status) => status !== undefined && status >= 400 && status < 500)) {
            response.http.status = statuses.every((status) => status === statuses[0]) ? (statuses[0] as number) : 400;
          }
        },
      };
    },
  };
}

function statusOfCode(code: unknown): number | undefined {
  return typeof code === 'string' && Object.hasOwn(errorCatalog, code) ? errorCatalog[code as ErrorCode].status : undefined;
}

export function limitPlugins(limits: GraphQLLimits): ApolloServerPlugin<BaseContext>[] {
  return [guardOperations(limits)];
}
