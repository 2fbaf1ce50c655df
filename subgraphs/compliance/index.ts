import { createCredentialIssuer, loadOrCreateIssuerKey, publicOrigin } from '../../platform/credentials.js';
import { loadOrCreateSigningKey } from '../../platform/signing.js';
import { buildFederatedSchema, loadSubgraphTypeDefs, type PlatformServices, type Subgraph } from '../../platform/subgraph.js';
import { dataSources, fatfLists, leiRecords } from './data/index.js';
import { isValidLei } from './shared/domain/index.js';
import { nameMatcher } from './vop/domain/index.js';
import { createAmlService } from './aml/service.js';
import { createAmlStore } from './aml/store.js';
import { amlWeights } from './data/aml-weights.js';
import { createDatabaseRateLimitStore } from '../../platform/access/rate-limit.js';
import { createIdempotency } from '../../platform/idempotency.js';
import { createKyaService } from './kya/service.js';
import { createKyaStore } from './kya/store.js';
import { streamPrices } from './data/stream-prices.js';
import { createStreamService } from './stream/service.js';
import { withVendorResolvers } from './vendor/resolvers.js';
import { createVendorRiskService } from './vendor/service.js';
import { entityEsgParameters } from './data/entity-esg.js';
import { createStreamStore } from './stream/store.js';
import { createComplianceContext, createComplianceResolvers } from './vop/resolvers.js';
import { COMPLIANCE_PREFIX } from './shared/error-shape.js';
import { complianceRoutes } from './routes.js';
import { createScreeningServices } from './screening-services.js';
import { createComplianceService } from './vop/service.js';
import type { LeiEntry, LeiRegistry } from './shared/lei-registry.js';
import { ownershipChainContext, withOwnershipChainResolvers } from './ownership/resolvers.js';
import { createUboService, shippedUboData } from './ownership/service.js';
import { createUboStore } from './ownership/store.js';
import { createComplianceStore } from './vop/store.js';
import { importReferenceData, shippedReferenceDigests } from './reference/import.js';
import { createReferenceDataService } from './reference/service.js';
import { createReferenceStore } from './reference/store.js';

export const name = 'compliance';
export const typeDefs = loadSubgraphTypeDefs(name);

/** The LEI registry over the shipped GLEIF snapshot (data/lei), indexed once on first use. */
export function shippedLeiRegistry(): LeiRegistry {
  let byLei: Map<string, LeiEntry> | undefined;
  const index = () =>
    (byLei ??= new Map(
      leiRecords().records.map((record): [string, LeiEntry] => [
        record.lei,
        { lei: record.lei, legalName: record.legalName, leiStatus: record.status, jurisdiction: record.jurisdiction, otherNames: record.otherNames.map((other) => other.name) },
      ]),
    ));
  return { isValidLei, find: (lei) => index().get(lei), entries: () => index().values() };
}

/** Verification of payee, the wallet registry, LEI, regulatory calendar and know-your-agent (Document 2), REST under /compliance. */
export function build(platform: PlatformServices): Subgraph {
  const { config, clock, ids } = platform;
  const { db } = platform.database;
  const leiRegistry = shippedLeiRegistry();
  const store = createComplianceStore(db, ids);
  const service = createComplianceService({
    clock,
    store,
    access: platform.access,
    matcher: nameMatcher,
    leiRegistry,
    adminKey: config.access.adminKey,
    synthesiser: platform.synthesiser,
  });
  // {compliance_url} is <origin>/compliance: the issuer's did:web is did:web:<host>:compliance.
  const origin = publicOrigin(config.server);
  const issuer = createCredentialIssuer({
    key: loadOrCreateIssuerKey({ dataDir: config.database.dataDir, configuredJwk: config.signing.issuerSigningJwk }),
    baseUrl: `${origin}${COMPLIANCE_PREFIX}`,
  });
  const kya = createKyaService({
    clock,
    store: createKyaStore(db),
    leiRegistry,
    issuer,
    hmacKey: config.signing.quoteSigningKey ?? loadOrCreateSigningKey(config.database.dataDir),
    ids,
    rateLimits: platform.access.rateLimits ?? createDatabaseRateLimitStore(db),
    idempotency: createIdempotency(db, { clock }),
    internalKey: platform.access.internalKey,
  });
  const { esg, pep } = createScreeningServices({ clock, db, registry: store, synthesiser: platform.synthesiser });
  // Ownership chains and the sanctions widget: the shipped GLEIF, SDN and FATF snapshots, indexed on first use.
  const ubo = createUboService({ clock, store: createUboStore(db), data: shippedUboData });
  const widget = { sanctions: () => shippedUboData().sanctions, listAsOf: () => shippedUboData().sources.sanctions.asOf, now: () => clock.now() };
  // AML (internal): the SDN index of the ownership chain's shipped data, built once on first screen.
  const aml = createAmlService({
    clock,
    store: createAmlStore(db),
    weights: amlWeights(),
    sanctionsIndex: () => shippedUboData().sanctions,
    sanctionsProvenance: () => dataSources().ofacSdn,
    fatfList: () => fatfLists().current,
    synthesiser: platform.synthesiser,
    logger: platform.logger,
  });
  // Vendor risk: every screen above side by side with the entity ESG score (decision 0020).
  const vendorRisk = createVendorRiskService({
    clock,
    registry: store,
    leiRegistry,
    matcher: nameMatcher,
    sanctions: () => shippedUboData().sanctions,
    fatf: () => fatfLists().current,
    esg,
    pep,
    ubo,
    esgParameters: entityEsgParameters,
    esgServiceHost: `${new URL(origin).host}${COMPLIANCE_PREFIX}/esg`,
  });
  // Streaming sessions: paid upfront through x402 at the amount asked, ticked against the balance (decision 0019).
  // Reference data: the shipped snapshots imported into the database at start when their digest is not loaded yet (decision 0021).
  const referenceData = createReferenceDataService({ store: createReferenceStore(db), digests: shippedReferenceDigests });
  const stream = createStreamService({ clock, ids, store: createStreamStore(db), x402: platform.access.x402, prices: streamPrices(), log: platform.logger });
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(
      typeDefs,
      withVendorResolvers(withOwnershipChainResolvers(createComplianceResolvers({ service, kya, esg, pep }, `${origin}/graphql`)), { service, esg, pep, vendorRisk }, `${origin}/graphql`),
    ),
    restPrefixes: [COMPLIANCE_PREFIX],
    routes: complianceRoutes(service, { adminKey: config.access.adminKey, facilitatorUrl: config.access.facilitatorUrl, kya, esg, pep, ubo, widget, aml, internalKey: platform.access.internalKey, stream, vendorRisk, referenceData }),
    createContext: (request) => ({ ...createComplianceContext({ service, kya }, request), ...ownershipChainContext(ubo) }),
    async start() {
      const imported = (await importReferenceData({ db, clock })).filter((result) => result.action === 'imported');
      if (imported.length > 0) platform.logger.info({ imported }, 'compliance reference data imported');
    },
  };
}
