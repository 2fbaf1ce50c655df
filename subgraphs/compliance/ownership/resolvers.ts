import { createOwnershipChainLoader, type UboChainResult, type UboService } from './service.js';

/** Per request: the ownership chains of every LegalEntity in the response load in one batch (ownershipChains). */
export interface OwnershipChainContext {
  ownershipChain: ReturnType<typeof createOwnershipChainLoader>;
}

export function ownershipChainContext(ubo: UboService): OwnershipChainContext {
  return { ownershipChain: createOwnershipChainLoader(ubo) };
}

/**
 * LegalEntity.ownershipChain(deep): the POST /compliance/ubo-chain result of the entity, through the
 * request's loader; null when the LEI is not in the snapshot (the entity itself may still resolve).
 */
function ownershipChain(parent: { lei: string }, args: { deep?: boolean | null }, context: OwnershipChainContext): Promise<UboChainResult | null> {
  return context.ownershipChain.load({ lei: parent.lei, deep: args.deep ?? false });
}

/** LegalEntity.ownershipChain, the ownership family's part of the graph. */
export function ownershipResolvers() {
  return { LegalEntity: { ownershipChain } };
}
