import { publicOrigin } from '../../platform/credentials.js';
import { buildFederatedSchema, loadSubgraphTypeDefs, type PlatformServices, type Subgraph } from '../../platform/subgraph.js';
import { buildFamilies } from './families.js';
import { importReferenceData } from './reference/import.js';
import { complianceResolvers, createComplianceContext } from './resolvers.js';
import { complianceRoutes } from './routes.js';
import { COMPLIANCE_PREFIX } from './shared/error-shape.js';

export const name = 'compliance';
export const typeDefs = loadSubgraphTypeDefs(name);

/**
 * Verification of payee, the wallet registry, LEI, regulatory calendar and know-your-agent (Document
 * 2), with the screens (AML, PEP, entity ESG, ownership chain, vendor risk, the sanctions widget),
 * streaming sessions and the reference data: REST under /compliance. One folder per family; this is
 * their composition (families.ts builds them, routes.ts and resolvers.ts are their union).
 */
export function build(platform: PlatformServices): Subgraph {
  const { config } = platform;
  // {compliance_url} is <origin>/compliance: the issuer's did:web is did:web:<host>:compliance.
  const origin = publicOrigin(config.server);
  const families = buildFamilies(platform, origin);
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, complianceResolvers(families, `${origin}/graphql`)),
    restPrefixes: [COMPLIANCE_PREFIX],
    routes: complianceRoutes(families, { adminKey: config.access.adminKey, facilitatorUrl: config.access.facilitatorUrl, internalKey: platform.access.internalKey }),
    createContext: (request) => createComplianceContext(families, request),
    async start() {
      const imported = (await importReferenceData({ db: platform.database.db, clock: platform.clock })).filter((result) => result.action === 'imported');
      if (imported.length > 0) platform.logger.info({ imported }, 'compliance reference data imported');
    },
  };
}
