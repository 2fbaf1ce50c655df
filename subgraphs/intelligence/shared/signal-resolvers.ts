import type { SubgraphContext } from '../../../platform/subgraph.js';
import type { AnySignalEndpoint } from './signal-endpoint.js';
import { signalParams } from './signal-routes.js';
import type { SignalService } from './signal-service.js';

/**
 * One Query field per endpoint, paid like its REST path (the resource named by the public GraphQL
 * URL and the field), answering the same served signal in its GraphQL shape.
 */
export function signalResolvers(service: SignalService, endpoints: readonly AnySignalEndpoint[], graphqlUrl: string) {
  return Object.fromEntries([...endpoints.map((endpoint) => paidField(service, endpoint, graphqlUrl)), ...endpoints.flatMap(discoveryField)]);
}

function paidField(service: SignalService, endpoint: AnySignalEndpoint, graphqlUrl: string) {
  return [
    endpoint.graphql.field,
    async (_: unknown, args: Record<string, unknown>, context: SubgraphContext) => {
      const served = await service.answer(context.request, `${graphqlUrl}#${endpoint.graphql.field}`, endpoint, signalParams(endpoint, args));
      return graphQLShape(endpoint, served);
    },
  ] as const;
}

/** The free listing beside a simulation (its REST twin is the GET at the POST's path). */
function discoveryField(endpoint: AnySignalEndpoint) {
  const discovery = endpoint.discovery;
  return discovery ? [[discovery.graphqlField, () => discovery.list()] as const] : [];
}

/** A served signal in its GraphQL shape: the endpoint's mapping when REST's shape cannot be GraphQL's, with the envelope. */
export function graphQLShape(endpoint: AnySignalEndpoint, served: Record<string, unknown>): object {
  return endpoint.graphql.toGraphQL ? { ...endpoint.graphql.toGraphQL(served), ...envelopeOf(served) } : served;
}

function envelopeOf(served: Record<string, unknown>) {
  const { generatedAt, cacheHit, dataQuality, asOf, stale, inputs, missingInputs } = served;
  return { generatedAt, cacheHit, dataQuality, asOf, stale, inputs, missingInputs };
}
