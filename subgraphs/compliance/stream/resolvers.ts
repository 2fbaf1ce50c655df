import { parseGraphQLInput } from '../../../platform/graphql.js';
import type { SubgraphContext } from '../../../platform/subgraph.js';
import { streamOpenBodySchema, streamParamsSchema, streamTickBodySchema } from './inputs.js';
import type { StreamService } from './service.js';

const sessionIdOf = (args: { sessionId: string }) => parseGraphQLInput(streamParamsSchema, args, 'CMP_ERR_INVALID_REQUEST').sessionId;

/**
 * Streaming sessions in the graph, through the service REST calls: the open is paid with the
 * request's X-PAYMENT for the amount asked (x402's requirements in the error otherwise); ticks and
 * reads need the session's token as Authorization: Bearer, so only its opener reaches it.
 */
export function streamResolvers(stream: StreamService, graphqlUrl: string) {
  return {
    Query: {
      streamSession: (_: unknown, args: { sessionId: string }, context: SubgraphContext) => stream.get(context.request, sessionIdOf(args)),
    },
    Mutation: {
      openStreamSession: (_: unknown, args: { input: Record<string, unknown> }, context: SubgraphContext) =>
        stream.open(context.request, parseGraphQLInput(streamOpenBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'), `${graphqlUrl}#openStreamSession`),
      tickStreamSession: (_: unknown, args: { sessionId: string; units: number }, context: SubgraphContext) => {
        const sessionId = sessionIdOf(args);
        return stream.tick(context.request, sessionId, parseGraphQLInput(streamTickBodySchema, { units: args.units }, 'CMP_ERR_INVALID_REQUEST').units);
      },
    },
  };
}
