import { parseGraphQLInput } from '../../../platform/graphql.js';
import type { SubgraphContext } from '../../../platform/subgraph.js';
import type { PepScreenResult } from '../pep/service.js';
import type { ComplianceService } from '../vop/service.js';
import type { WalletRegistration } from '../vop/store.js';
import { type VendorRiskBody, vendorRiskBodySchema } from './inputs.js';
import type { VendorRiskAnswer, VendorRiskService } from './service.js';

export interface VendorGraphServices {
  /** Verification of payee and the LEI registry (the vop family). */
  service: ComplianceService;
  vendorRisk: VendorRiskService;
}

/**
 * The assessment with the request it answered and what it read, for the fields that look further:
 * the PEP screen it made, and the wallet's registration, which the VoP field verifies against
 * rather than reading it again (decision 0096).
 */
type AssessmentParent = VendorRiskAnswer & { request: VendorRiskBody; pep: PepScreenResult; registration: WalletRegistration | undefined };

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * Query.vendorAssessment and its fields: the same services as REST. The legal entity is the
 * federation entity, so fees adds the fee of a payment to it in the same request.
 */
export function vendorResolvers(services: VendorGraphServices, graphqlUrl: string) {
  const { service, vendorRisk } = services;
  return {
    Query: {
      vendorAssessment: async (_: unknown, args: { name: string; lei?: string | null; wallet?: string | null; country?: string | null; amountUsd?: number | null }): Promise<AssessmentParent> => {
        const request = parseGraphQLInput(vendorRiskBodySchema, { name: args.name, lei: args.lei, wallet: args.wallet, country: args.country, amount: args.amountUsd }, 'CMP_ERR_INVALID_REQUEST');
        const { answer, pep, registration } = await vendorRisk.assess(request);
        return { ...answer, request, pep, registration };
      },
    },
    VendorAssessment: {
      legalEntity: (parent: AssessmentParent) => (parent.entity.lei ? service.legalEntity(parent.entity.lei) : null),
      pepScreen: (parent: AssessmentParent) => parent.pep,
      vop: (parent: AssessmentParent, _: unknown, context: SubgraphContext) => {
        const { wallet, name, lei } = parent.request;
        if (!wallet || !EVM_ADDRESS.test(wallet)) return null;
        const body = { walletAddress: wallet, submittedName: name, ...(lei ? { submittedLei: lei } : {}) };
        return service.verifyPayee(context.request, body, `${graphqlUrl}#vendorAssessment.vop`, { registration: parent.registration });
      },
    },
  };
}
