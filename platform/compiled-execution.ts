import type { GatewayExecutionResult, GatewayInterface } from '@apollo/server-gateway-interface';
import { type DocumentNode, type ExecutionResult, GraphQLError, type GraphQLSchema, parse, printSchema, validate } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { ErrorCode } from './errors.js';

const MAX_COMPILED_OPERATIONS = 1000;

export interface CompiledRequest {
  /** The operation text: the cache key. */
  query: string;
  /** Parsed and validated already (Apollo Server does both); parsed and validated here when absent. */
  document?: DocumentNode;
  operationName?: string | null | undefined;
  variables?: Record<string, unknown> | null | undefined;
  contextValue: unknown;
}

/**
 * Executes operations on one schema through graphql-jit: each distinct operation is compiled once
 * into a function (as Fastify compiles its serializers) and then run for every request that sends
 * it. A gateway sends the same few subgraph operations over and over, so nearly every fetch is a
 * cache hit. Errors, paths and nulls follow graphql-js.
 */
export function createCompiledExecutor(schema: GraphQLSchema) {
  const compiled = new Map<string, CompiledQuery | ExecutionResult>();

  function compile(request: CompiledRequest): CompiledQuery | ExecutionResult {
    let document = request.document;
    if (!document) {
      try {
        document = parse(request.query);
      } catch (error) {
        return { errors: [error as GraphQLError] };
      }
      const errors = validate(schema, document);
      if (errors.length > 0) return { errors };
    }
    return compileQuery(schema, document, request.operationName ?? undefined, { disablingCapturingStackErrors: true });
  }

  let compilations = 0;
  return {
    /** How many times an operation was compiled since the executor was made. */
    get compilations() {
      return compilations;
    },
    async execute(request: CompiledRequest): Promise<ExecutionResult> {
      const key = `${request.operationName ?? ''}\n${request.query}`;
      let operation = compiled.get(key);
      if (!operation) {
        operation = compile(request);
        compilations += 1;
        if (compiled.size >= MAX_COMPILED_OPERATIONS) compiled.clear();
        compiled.set(key, operation);
      }
      // An operation that could not be compiled is the request's fault (e.g. a mutation on a schema
      // without one): its errors are reported as the request's, without graphql-jit's internal cause.
      if (!isCompiledQuery(operation)) return { errors: (operation.errors ?? []).map((error) => asRequestError(error, 'GQL_ERR_BAD_REQUEST')) };
      const result = await operation.query(undefined, request.contextValue, request.variables ?? {});
      if (!result.errors) return result;
      // No data at all: the variables were refused before anything ran, the caller's input error.
      if (result.data === undefined) return { errors: result.errors.map((error) => asRequestError(error, 'GQL_ERR_BAD_USER_INPUT')) };
      return { ...result, errors: result.errors.map(asGraphQLJsError) };
    },
  };
}

/**
 * graphql-jit's errors leave `extensions` undefined when there are none, where graphql-js always
 * sets an object (Apollo reads `extensions.code` and fails on undefined): rebuilt as graphql-js
 * errors with the same message, locations, path and original error.
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const rebuilt = new GraphQLError(error.message, {
    ...(error.path ? { path: error.path } : {}),
    ...(error.originalError ? { originalError: error.originalError } : {}),
    ...(error.extensions ? { extensions: error.extensions } : {}),
  });
  return withLocationsOf(error, rebuilt);
}

/** graphql-jit gives locations, not the nodes graphql-js derives them from: carried over as they are. */
function withLocationsOf(source: GraphQLError, target: GraphQLError): GraphQLError {
  if (source.locations) Object.defineProperty(target, 'locations', { value: source.locations, enumerable: true });
  return target;
}

/**
 * A request graphql-jit refused before running anything (a mutation on a schema without one,
 * variables of the wrong type): a client error, coded as such, without graphql-jit's internal cause.
 */
function asRequestError(error: GraphQLError, code: ErrorCode): GraphQLError {
  if (error.extensions?.code) return error;
  return withLocationsOf(error, new GraphQLError(error.message, { extensions: { code } }));
}

export type CompiledExecutor = ReturnType<typeof createCompiledExecutor>;

/**
 * Apollo Server's gateway interface over one schema, executing through graphql-jit: a subgraph's
 * HTTP endpoint keeps Apollo's request pipeline (parsing, validation, plugins, error formatting,
 * persisted queries) and replaces only the interpreter.
 */
export function compiledSchemaGateway(schema: GraphQLSchema): GatewayInterface {
  const executor = createCompiledExecutor(schema);
  return {
    async load() {
      return {
        executor: (requestContext) =>
          executor.execute({
            query: requestContext.source,
            document: requestContext.document,
            operationName: requestContext.operationName,
            variables: requestContext.request.variables,
            contextValue: requestContext.context,
          }) as Promise<GatewayExecutionResult>,
      };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    async stop() {},
  };
}
