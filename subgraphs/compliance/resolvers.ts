import { JSONObjectResolver } from 'graphql-scalars';
import type { RequestContext } from '../../platform/request-context.js';
import { amlResolvers } from './aml/resolvers.js';
import type { AmlService } from './aml/service.js';
import { esgResolvers } from './esg/resolvers.js';
import type { EntityEsgService } from './esg/service.js';
import { createKyaContext, kyaResolvers } from './kya/resolvers.js';
import type { KyaService } from './kya/service.js';
import { ownershipChainContext, ownershipResolvers } from './ownership/resolvers.js';
import type { UboService } from './ownership/service.js';
import { pepResolvers } from './pep/resolvers.js';
import type { PepScreenService } from './pep/service.js';
import { referenceDataResolvers } from './reference/resolvers.js';
import type { ReferenceDataService } from './reference/service.js';
import { streamResolvers } from './stream/resolvers.js';
import type { StreamService } from './stream/service.js';
import { vendorResolvers } from './vendor/resolvers.js';
import type { VendorRiskService } from './vendor/service.js';
import { createVopContext, vopResolvers } from './vop/resolvers.js';
import type { ComplianceService } from './vop/service.js';

type ResolverMap = Record<string, Record<string, unknown>>;

/** The families' services the graph reads (index.ts builds them). */
export interface ComplianceGraphServices {
  vop: ComplianceService;
  kya: KyaService;
  esg: EntityEsgService;
  pep: PepScreenService;
  ubo: UboService;
  vendorRisk: VendorRiskService;
  aml: AmlService;
  stream: StreamService;
  referenceData: ReferenceDataService;
}

/** Where the graph's fields are served from and the secret its internal fields need. */
export interface ComplianceGraphOptions {
  /** The gateway's /graphql: the resource paid fields name in their x402 requirements. */
  graphqlUrl: string;
  /** INTERNAL_KEY; unset closes the internal fields (AML, agent authorization) as it closes their REST paths. */
  internalKey: string | undefined;
}

/**
 * The union of the families' resolver maps, type by type. Each field has one family: a field two
 * families resolve is a mistake, refused when the schema is built.
 */
export function unionOfResolvers(maps: readonly ResolverMap[]): ResolverMap {
  const union: ResolverMap = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map)) {
      const into = (union[type] ??= {});
      for (const [field, resolver] of Object.entries(fields)) {
        if (Object.hasOwn(into, field)) throw new Error(`compliance resolvers: ${type}.${field} is resolved by two families`);
        into[field] = resolver;
      }
    }
  }
  return union;
}

/** The compliance graph: the union of its families' resolvers, each thin over the service its REST paths call. */
export function complianceResolvers(families: ComplianceGraphServices, options: ComplianceGraphOptions): ResolverMap {
  const { graphqlUrl, internalKey } = options;
  const union = unionOfResolvers([
    vopResolvers(families.vop, graphqlUrl),
    kyaResolvers(families.kya),
    esgResolvers(families.esg),
    pepResolvers(families.pep),
    ownershipResolvers(),
    vendorResolvers({ service: families.vop, vendorRisk: families.vendorRisk }, graphqlUrl),
    amlResolvers(families.aml, internalKey),
    streamResolvers(families.stream, graphqlUrl),
    referenceDataResolvers(families.referenceData),
  ]);
  // A scalar is a type of its own, not a map of fields: it joins after the union.
  return { ...union, JSONObject: JSONObjectResolver as unknown as Record<string, unknown> };
}

/** Per request: the families' DataLoaders (registrations, histories, wallets by LEI, agents, ownership chains), one query per batch. */
export function createComplianceContext(families: Pick<ComplianceGraphServices, 'vop' | 'kya' | 'ubo'>, request: RequestContext) {
  return { request, ...createVopContext(families.vop), ...createKyaContext(families.kya), ...ownershipChainContext(families.ubo) };
}

export type ComplianceContext = ReturnType<typeof createComplianceContext>;
