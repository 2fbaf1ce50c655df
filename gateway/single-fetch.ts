import type { ApolloGateway, Experimental_DidResolveQueryPlanCallback, GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayExecutor, GatewayGraphQLRequestContext, GatewayGraphQLResponse, GatewayInterface } from '@apollo/server-gateway-interface';
import { type DocumentNode, getVariableValues } from 'graphql';
import type { GatewayContext } from './gateway-context.js';
import { type SingleFetch, singleFetchOf } from './single-fetch-plan.js';

/** How an operation was served: forwarded straight, forwarded then shaped by the planner (errors), or planned. */
export type PlanKind = 'single-fetch' | 'single-fetch-shaped' | 'planned';

export interface SingleFetchOptions {
  /** Off: every operation takes the planner's path (the comparison the tests make). */
  enabled?: boolean;
  /** Told how each operation was served (tests, metrics). */
  observe?: (kind: PlanKind) => void;
}

type IncomingOperation = Extract<GraphQLDataSourceProcessOptions<GatewayContext>, { incomingRequestContext: unknown }>;
/** GraphQLDataSourceRequestKind.INCOMING_OPERATION: @apollo/gateway's index exports the enum's type only. */
const INCOMING_OPERATION = 'incoming operation' as IncomingOperation['kind'];

type Outcome = { response: GatewayGraphQLResponse } | { error: unknown };

/**
 * Plans once, forwards straight (issue 27 item 3, decision 0095).
 * 1. @apollo/gateway plans every operation the first time it sees it (per parsed document and
 *    operation name, the cache key of its own plan store); its didResolveQueryPlan hook hands the
 *    plan here, and an operation whose plan is one fetch needing no result shaping
 *    (single-fetch-plan.ts) is remembered as such.
 * 2. Such an operation is then sent to its subgraph (the planner's own subgraph operation and the
 *    variables it uses) through the same data source the planner's executor uses, after Apollo
 *    Server's parsing, validation, limits and plugins and the gateway's coercion of the variables.
 *    A clean answer (data, no errors) is the client's answer as it is.
 * 3. An answer with errors, or a fetch that failed (a down subgraph), is handed to the planner's
 *    executor as the answer of its one fetch (replayed, never fetched twice: a paid field is paid
 *    once), so error shapes, paths, nulls and statuses are the planned path's by construction.
 * 4. Everything else (several subgraphs, entities, introspection, conditions, fragments on
 *    interfaces) takes the planner's path unchanged.
 */
export class SingleFetchRouter {
  readonly #enabled: boolean;
  readonly #observe: ((kind: PlanKind) => void) | undefined;
  readonly #sources = new Map<string, GraphQLDataSource<GatewayContext>>();
  /** Per parsed document (Apollo hands the same one to every request with the same text), per operation name. */
  readonly #decisions = new WeakMap<DocumentNode, Map<string, SingleFetch | null>>();
  /** The answer a single fetch got, for the planner's executor to shape instead of fetching again. */
  readonly #replays = new WeakMap<object, { serviceName: string; outcome: Outcome }>();

  constructor(options: SingleFetchOptions = {}) {
    this.#enabled = options.enabled ?? true;
    this.#observe = options.observe;
  }

  /** The data source the planner's executor is given for subgraph `name`: the real one, or a replayed answer. */
  source(name: string, source: GraphQLDataSource<GatewayContext>): GraphQLDataSource<GatewayContext> {
    this.#sources.set(name, source);
    return {
      process: (options) => {
        const replay = this.#replays.get(options.context);
        if (replay?.serviceName !== name) return source.process(options);
        this.#replays.delete(options.context);
        if ('error' in replay.outcome) return Promise.reject(replay.outcome.error);
        return Promise.resolve(replay.outcome.response);
      },
    };
  }

  /** For ApolloGateway's `experimental_didResolveQueryPlan`: each plan is looked at once. */
  readonly didResolveQueryPlan: Experimental_DidResolveQueryPlanCallback = ({ queryPlan, requestContext, operationContext }) => {
    const byName = this.#decisionsOf(requestContext.document);
    const key = requestContext.request.operationName ?? '';
    if (byName.has(key)) return;
    const decision = this.#enabled ? singleFetchOf(queryPlan, operationContext.operation, operationContext.fragments, operationContext.schema) : undefined;
    byName.set(key, decision && this.#sources.has(decision.serviceName) ? decision : null);
  };

  /** ApolloGateway with its executor behind the single-fetch path. */
  gateway(inner: ApolloGateway): GatewayInterface {
    return {
      load: async (options) => {
        const loaded = await inner.load(options);
        const planned = loaded.executor;
        return { executor: planned ? this.#executor(planned) : null };
      },
      onSchemaLoadOrUpdate: (callback) => inner.onSchemaLoadOrUpdate(callback),
      stop: () => inner.stop(),
    };
  }

  #decisionsOf(document: DocumentNode): Map<string, SingleFetch | null> {
    let byName = this.#decisions.get(document);
    if (!byName) {
      byName = new Map();
      this.#decisions.set(document, byName);
    }
    return byName;
  }

  #executor(planned: GatewayExecutor): GatewayExecutor {
    return async (requestContext) => {
      const decision = this.#decisions.get(requestContext.document)?.get(requestContext.request.operationName ?? '');
      if (!decision || !variablesCoerce(requestContext, decision)) return this.#planned(planned, requestContext);
      const context = requestContext.context as GatewayContext;
      const outcome = await this.#fetch(decision, requestContext, context);
      if ('response' in outcome && isClean(outcome.response)) {
        this.#observe?.('single-fetch');
        return { data: outcome.response.data };
      }
      this.#replays.set(context, { serviceName: decision.serviceName, outcome });
      this.#observe?.('single-fetch-shaped');
      return planned(requestContext);
    };
  }

  #planned(planned: GatewayExecutor, requestContext: GatewayGraphQLRequestContext): ReturnType<GatewayExecutor> {
    this.#observe?.('planned');
    return planned(requestContext);
  }

  async #fetch(decision: SingleFetch, requestContext: GatewayGraphQLRequestContext, context: GatewayContext): Promise<Outcome> {
    const source = this.#sources.get(decision.serviceName) as GraphQLDataSource<GatewayContext>;
    const options: IncomingOperation = {
      kind: INCOMING_OPERATION,
      request: { query: decision.query, variables: usedVariables(decision, requestContext.request.variables), ...(decision.operationName ? { operationName: decision.operationName } : {}) },
      incomingRequestContext: requestContext as never,
      context,
      pathInIncomingRequest: [],
    };
    try {
      return { response: await source.process(options) };
    } catch (error) {
      return { error };
    }
  }
}

/** The gateway's executor coerces the variables before planning; those it refuses take its path, for its errors. */
function variablesCoerce(requestContext: GatewayGraphQLRequestContext, decision: SingleFetch): boolean {
  if (decision.variableDefinitions.length === 0) return true;
  return !getVariableValues(requestContext.schema, decision.variableDefinitions, requestContext.request.variables ?? {}).errors;
}

/** The variables a subgraph operation uses, given and defined, as the planner's executor picks them. */
function usedVariables(decision: SingleFetch, given: Record<string, unknown> | undefined): Record<string, unknown> {
  const variables: Record<string, unknown> = Object.create(null);
  if (!given) return variables;
  for (const name of decision.variableUsages) {
    if (Object.hasOwn(given, name) && given[name] !== undefined) variables[name] = given[name];
  }
  return variables;
}

function isClean(response: GatewayGraphQLResponse): response is GatewayGraphQLResponse & { data: Record<string, unknown> } {
  return !response.errors?.length && typeof response.data === 'object' && response.data !== null;
}
