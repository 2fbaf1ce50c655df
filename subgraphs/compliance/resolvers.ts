import DataLoader from 'dataloader';
import { AppError } from '../../platform/errors.js';
import { parseGraphQLInput } from '../../platform/graphql.js';
import type { RequestContext } from '../../platform/request-context.js';
import type { SubgraphContext } from '../../platform/subgraph.js';
import { registerBodySchema, vopVerifyBodySchema, walletAddress } from './inputs.js';
import type { KyaService } from './kya-service.js';
import type { ComplianceService } from './service.js';

/** The services the graph reads: compliance proper and know-your-agent. */
export interface ComplianceGraphServices {
  service: ComplianceService;
  kya: KyaService;
}

/** Per request: registrations, histories and wallets-by-LEI load in one query per batch. */
export function createComplianceContext({ service }: ComplianceGraphServices, request: RequestContext) {
  const byKey = <V>(load: (keys: readonly string[]) => Promise<Map<string, V>>, fallback: V) =>
    new DataLoader<string, V>(async (keys) => {
      const found = await load(keys);
      return keys.map((key) => found.get(key) ?? fallback);
    });
  return {
    request,
    registration: byKey(async (keys) => service.registrations(keys), null as Awaited<ReturnType<ComplianceService['lookup']>> | null),
    history: byKey(async (keys) => service.histories(keys), [] as Awaited<ReturnType<ComplianceService['history']>>['checks']),
    walletsUnder: byKey(async (keys) => service.walletsUnder(keys), [] as Awaited<ReturnType<ComplianceService['lookup']>>[]),
  };
}

export type ComplianceContext = ReturnType<typeof createComplianceContext> & SubgraphContext;

/** A wallet argument in the form REST accepts; the key the loaders use is its lower-case form. */
function walletKey(address: string): string {
  if (!walletAddress.safeParse(address).success) throw new AppError('CMP_ERR_INVALID_REQUEST', { message: 'address must be an EVM address: 0x and 40 hex digits' });
  return address.toLowerCase();
}

interface WalletParent {
  address: string;
}

export function createComplianceResolvers({ service }: ComplianceGraphServices, graphqlUrl: string) {
  return {
    Query: {
      wallet: (_: unknown, args: { address: string }): WalletParent => ({ address: walletKey(args.address) }),
      legalEntity: (_: unknown, args: { lei: string }) => service.legalEntity(args.lei),
    },
    Mutation: {
      verifyPayee: (_: unknown, args: { input: Record<string, unknown> }, context: ComplianceContext) =>
        service.verifyPayee(context.request, parseGraphQLInput(vopVerifyBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'), `${graphqlUrl}#verifyPayee`),
      registerWallet: async (_: unknown, args: { input: Record<string, unknown> }, context: ComplianceContext) =>
        (await service.register(context.request, parseGraphQLInput(registerBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'))).registration,
      deregisterWallet: (_: unknown, args: { address: string }, context: ComplianceContext) => service.deregister(context.request, walletKey(args.address)),
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
    },
  };
}
