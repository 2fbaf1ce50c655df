import { AppError } from '../../../platform/errors.js';
import { parseGraphQLInput, withoutNulls } from '../../../platform/graphql.js';
import type { SubgraphContext } from '../../../platform/subgraph.js';
import { loaderByKey } from '../shared/loaders.js';
import { agentAuthorizeBodySchema, agentDirectoryQuerySchema, agentIdText, agentMandateBodySchema, agentRegisterBodySchema } from './inputs.js';
import type { KyaService } from './service.js';

type AgentRecord = Awaited<ReturnType<KyaService['getAgent']>>;

/** Per request: agents load in one query per batch. */
export function createKyaContext(kya: KyaService) {
  return { agent: loaderByKey(async (keys) => kya.agents(keys), null as AgentRecord | null) };
}

export type KyaContext = ReturnType<typeof createKyaContext> & SubgraphContext;

const invalid = (message: string) => new AppError('CMP_ERR_INVALID_REQUEST', { message });

/** An agent id argument in the form REST accepts (checked before any query). */
function agentKey(id: string): string {
  if (!agentIdText.safeParse(id).success) throw invalid('id must be an agentId: agt_ and 22 base64url characters');
  return id;
}

const withAgentId = (agent: AgentRecord | null) => (agent === null ? null : { id: agent.agentId, ...agent });

/** Know-your-agent in the graph. Thin: each field calls the capability its REST path calls, with the same zod validation. */
export function kyaResolvers(kya: KyaService) {
  return {
    Query: {
      agent: async (_: unknown, args: { id: string }, context: KyaContext) => withAgentId(await context.agent.load(agentKey(args.id))),
      agentDirectory: (_: unknown, args: { ownerEntity?: string | null; limit?: number | null; offset?: number | null }) =>
        kya.directory(
          parseGraphQLInput(
            agentDirectoryQuerySchema,
            // The REST query string's form: counts as digits.
            { ownerEntity: args.ownerEntity, limit: args.limit == null ? null : String(args.limit), offset: args.offset == null ? null : String(args.offset) },
            'CMP_ERR_INVALID_REQUEST',
          ),
        ),
    },
    Mutation: {
      registerAgent: (_: unknown, args: { input: Record<string, unknown> }) => {
        const input = { ...args.input, publicKey: withoutNulls(args.input.publicKey), mandate: withoutNulls(args.input.mandate) };
        return kya.register(parseGraphQLInput(agentRegisterBodySchema, input, 'CMP_ERR_INVALID_REQUEST'));
      },
      // The owner's proof is the request's X-Agent-Key, as on REST (decision 0048).
      setMandate: async (_: unknown, args: { input: Record<string, unknown> }, context: KyaContext) =>
        (await kya.setMandate(context.request, parseGraphQLInput(agentMandateBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'))).mandate,
      revokeAgent: (_: unknown, args: { id: string }, context: KyaContext) => kya.revoke(context.request, agentKey(args.id)),
      verifyAgent: (_: unknown, args: { id: string }) => kya.verify(agentKey(args.id)),
      // Internal, as on REST: the service refuses without the request's X-Internal-Key.
      authorizeAgent: (_: unknown, args: { id: string; agentKey: string }, context: KyaContext) =>
        kya.authorize(context.request, agentKey(args.id), parseGraphQLInput(agentAuthorizeBodySchema, { agentKey: args.agentKey }, 'CMP_ERR_INVALID_REQUEST').agentKey),
    },
    Agent: {
      /** Agents referenced by other subgraphs (payments' settlements) load together: one query per batch. */
      __resolveReference: async (reference: { id: string }, context: KyaContext) => (agentIdText.safeParse(reference.id).success ? withAgentId(await context.agent.load(reference.id)) : null),
    },
  };
}
