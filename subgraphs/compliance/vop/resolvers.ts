import { AppError } from '../../../platform/errors.js';
import { parseGraphQLInput } from '../../../platform/graphql.js';
import type { SubgraphContext } from '../../../platform/subgraph.js';
import { walletAddress } from '../shared/inputs.js';
import { loaderByKey } from '../shared/loaders.js';
import { leiSearchQuerySchema, registerBodySchema, vopVerifyBodySchema } from './inputs.js';
import type { ComplianceService } from './service.js';

type Registration = Awaited<ReturnType<ComplianceService['lookup']>>;

/** Per request: registrations, histories and wallets-by-LEI load in one query per batch. */
export function createVopContext(service: ComplianceService) {
  return {
    registration: loaderByKey(async (keys) => service.registrations(keys), null as Registration | null),
    history: loaderByKey(async (keys) => service.histories(keys), [] as Awaited<ReturnType<ComplianceService['history']>>['checks']),
    walletsUnder: loaderByKey(async (keys) => service.walletsUnder(keys), [] as Registration[]),
  };
}

export type VopContext = ReturnType<typeof createVopContext> & SubgraphContext;

const invalid = (message: string) => new AppError('CMP_ERR_INVALID_REQUEST', { message });

/** A wallet argument in the form REST accepts; the key the loaders use is its lower-case form. */
function walletKey(address: string): string {
  if (!walletAddress.safeParse(address).success) throw invalid('address must be an EVM address: 0x and 40 hex digits');
  return address.toLowerCase();
}

interface WalletParent {
  address: string;
}

/**
 * Verification of payee, the wallet registry, LEI and the regulatory calendar in the graph. Thin:
 * each field calls the capability its REST path calls, with the same zod validation.
 */
export function vopResolvers(service: ComplianceService, graphqlUrl: string) {
  return {
    Query: {
      wallet: (_: unknown, args: { address: string }): WalletParent => ({ address: walletKey(args.address) }),
      legalEntity: (_: unknown, args: { lei: string }) => service.legalEntity(args.lei),
      regulatoryCalendar: () => service.regulatoryCalendar(),
      leiSearch: (_: unknown, args: { name: string }) => service.searchLei(parseGraphQLInput(leiSearchQuerySchema, args, 'CMP_ERR_INVALID_REQUEST').name),
    },
    Mutation: {
      verifyPayee: (_: unknown, args: { input: Record<string, unknown> }, context: VopContext) =>
        service.verifyPayee(context.request, parseGraphQLInput(vopVerifyBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'), `${graphqlUrl}#verifyPayee`),
      registerWallet: async (_: unknown, args: { input: Record<string, unknown> }, context: VopContext) =>
        (await service.register(context.request, parseGraphQLInput(registerBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'))).registration,
      deregisterWallet: (_: unknown, args: { address: string }, context: VopContext) => service.deregister(context.request, walletKey(args.address)),
    },
    Wallet: {
      __resolveReference: (reference: { address: string }): WalletParent | null => (walletAddress.safeParse(reference.address).success ? { address: reference.address.toLowerCase() } : null),
      registration: (parent: WalletParent, _: unknown, context: VopContext) => context.registration.load(parent.address),
      vopHistory: (parent: WalletParent, _: unknown, context: VopContext) => context.history.load(parent.address),
    },
    LegalEntity: {
      __resolveReference: (reference: { lei: string }) => {
        try {
          return service.legalEntity(reference.lei);
        } catch {
          return null;
        }
      },
      wallets: (parent: { lei: string }, _: unknown, context: VopContext) => context.walletsUnder.load(parent.lei),
    },
  };
}
