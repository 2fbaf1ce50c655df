import DataLoader from 'dataloader';
import { AppError } from '../../../platform/errors.js';
import { parseGraphQLInput, withoutNulls } from '../../../platform/graphql.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { SubgraphContext } from '../../../platform/subgraph.js';
import { registerBodySchema, vopVerifyBodySchema } from './inputs.js';
import { walletAddress } from '../shared/inputs.js';
import { agentDirectoryQuerySchema, agentIdText, agentMandateBodySchema, agentRegisterBodySchema } from '../kya/inputs.js';
import type { KyaService } from '../kya/service.js';
import type { ComplianceService } from './service.js';
import type { EntityEsgService } from '../esg/service.js';
import { pepScreenBodySchema } from '../pep/inputs.js';
import type { PepScreenService } from '../pep/service.js';

/** The services the graph reads: compliance proper, know-your-agent, entity ESG and the PEP screen. */
export interface ComplianceGraphServices {
  service: ComplianceService;
  kya: KyaService;
  esg: EntityEsgService;
  pep: PepScreenService;
}

type Registration = Awaited<ReturnType<ComplianceService['lookup']>>;
type AgentRecord = Awaited<ReturnType<KyaService['getAgent']>>;

/** Per request: registrations, histories, wallets-by-LEI and agents load in one query per batch. */
export function createComplianceContext({ service, kya }: Pick<ComplianceGraphServices, 'service' | 'kya'>, request: RequestContext) {
  const byKey = <V>(load: (keys: readonly string[]) => Promise<Map<string, V>>, fallback: V) =>
    new DataLoader<string, V>(async (keys) => {
      const found = await load(keys);
      return keys.map((key) => found.get(key) ?? fallback);
    });
  return {
    request,
    registration: byKey(async (keys) => service.registrations(keys), null as Registration | null),
    history: byKey(async (keys) => service.histories(keys), [] as Awaited<ReturnType<ComplianceService['history']>>['checks']),
    walletsUnder: byKey(async (keys) => service.walletsUnder(keys), [] as Registration[]),
    agent: byKey(async (keys) => kya.agents(keys), null as AgentRecord | null),
  };
}

export type ComplianceContext = ReturnType<typeof createComplianceContext> & SubgraphContext;

const invalid = (message: string) => new AppError('CMP_ERR_INVALID_REQUEST', { message });

/** A wallet argument in the form REST accepts; the key the loaders use is its lower-case form. */
function walletKey(address: string): string {
  if (!walletAddress.safeParse(address).success) throw invalid('address must be an EVM address: 0x and 40 hex digits');
  return address.toLowerCase();
}

/** An agent id argument in the form REST accepts (checked before any query). */
function agentKey(id: string): string {
  if (!agentIdText.safeParse(id).success) throw invalid('id must be an agentId: agt_ and 22 base64url characters');
  return id;
}

const withAgentId = (agent: AgentRecord | null) => (agent === null ? null : { id: agent.agentId, ...agent });

interface WalletParent {
  address: string;
}

/** Thin: each field calls the capability its REST path calls, with the same zod validation. */
export function createComplianceResolvers({ service, kya, esg, pep }: ComplianceGraphServices, graphqlUrl: string) {
  return {
    Query: {
      pepScreen: (_: unknown, args: { name: string; country?: string | null; position?: string | null }) =>
        pep.pepScreen(parseGraphQLInput(pepScreenBodySchema, { name: args.name, country: args.country ?? undefined, position: args.position ?? undefined }, 'CMP_ERR_INVALID_REQUEST')),
      wallet: (_: unknown, args: { address: string }): WalletParent => ({ address: walletKey(args.address) }),
      legalEntity: (_: unknown, args: { lei: string }) => service.legalEntity(args.lei),
      regulatoryCalendar: () => service.regulatoryCalendar(),
      agent: async (_: unknown, args: { id: string }, context: ComplianceContext) => withAgentId(await context.agent.load(agentKey(args.id))),
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
      verifyPayee: (_: unknown, args: { input: Record<string, unknown> }, context: ComplianceContext) =>
        service.verifyPayee(context.request, parseGraphQLInput(vopVerifyBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'), `${graphqlUrl}#verifyPayee`),
      registerWallet: async (_: unknown, args: { input: Record<string, unknown> }, context: ComplianceContext) =>
        (await service.register(context.request, parseGraphQLInput(registerBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'))).registration,
      deregisterWallet: (_: unknown, args: { address: string }, context: ComplianceContext) => service.deregister(context.request, walletKey(args.address)),
      registerAgent: (_: unknown, args: { input: Record<string, unknown> }) => {
        const input = { ...args.input, publicKey: withoutNulls(args.input.publicKey), mandate: withoutNulls(args.input.mandate) };
        return kya.register(parseGraphQLInput(agentRegisterBodySchema, input, 'CMP_ERR_INVALID_REQUEST'));
      },
      // The owner's proof is the request's X-Agent-Key, as on REST (decision 0048).
      setMandate: async (_: unknown, args: { input: Record<string, unknown> }, context: ComplianceContext) =>
        (await kya.setMandate(context.request, parseGraphQLInput(agentMandateBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'))).mandate,
      revokeAgent: (_: unknown, args: { id: string }, context: ComplianceContext) => kya.revoke(context.request, agentKey(args.id)),
    },
    Wallet: {
      __resolveReference: (reference: { address: string }): WalletParent | null =>
        walletAddress.safeParse(reference.address).success ? { address: reference.address.toLowerCase() } : null,
      registration: (parent: WalletParent, _: unknown, context: ComplianceContext) => context.registration.load(parent.address),
      vopHistory: (parent: WalletParent, _: unknown, context: ComplianceContext) => context.history.load(parent.address),
    },
    LegalEntity: {
      __resolveReference: (reference: { lei: string }) => {
        try {
          return service.legalEntity(reference.lei);
        } catch {
          return null;
        }
      },
      wallets: (parent: { lei: string }, _: unknown, context: ComplianceContext) => context.walletsUnder.load(parent.lei),
      esg: (parent: { lei: string }, args: { narrate?: boolean | null; refresh?: boolean | null }) =>
        esg.entityEsg(parent.lei, { narrate: args.narrate ?? undefined, refresh: args.refresh ?? undefined }),
    },
    Agent: {
      /** Agents referenced by other subgraphs (payments' settlements) load together: one query per batch. */
      __resolveReference: async (reference: { id: string }, context: ComplianceContext) =>
        agentIdText.safeParse(reference.id).success ? withAgentId(await context.agent.load(reference.id)) : null,
    },
  };
}
