import { createDatabaseRateLimitStore } from '../../platform/access/rate-limit.js';
import { createCredentialIssuer, loadOrCreateIssuerKey, publicOrigin } from '../../platform/credentials.js';
import { createIdempotency } from '../../platform/idempotency.js';
import { loadOrCreateSigningKey } from '../../platform/signing.js';
import { buildFederatedSchema, loadSubgraphTypeDefs, type PlatformServices, type Subgraph } from '../../platform/subgraph.js';
import { type AmlService, createAmlService } from './aml/service.js';
import { createAmlStore } from './aml/store.js';
import { amlWeights } from './data/aml-weights.js';
import { entityEsgParameters } from './data/entity-esg.js';
import { dataSources, fatfLists, leiRecords } from './data/index.js';
import { streamPrices } from './data/stream-prices.js';
import { isValidLei } from './domain/index.js';
import { shippedEntityEsgService } from './esg/service.js';
import { createKyaService, type KyaService } from './kya/service.js';
import { createKyaStore } from './kya/store.js';
import { createUboService, shippedUboData } from './ownership/service.js';
import { createUboStore } from './ownership/store.js';
import { shippedPepScreenService } from './pep/service.js';
import { importReferenceData, shippedReferenceDigests } from './reference/import.js';
import { createReferenceDataService } from './reference/service.js';
import { createReferenceStore } from './reference/store.js';
import { complianceResolvers, createComplianceContext } from './resolvers.js';
import { complianceRoutes, type ComplianceRouteServices } from './routes.js';
import { COMPLIANCE_PREFIX } from './shared/error-shape.js';
import type { LeiEntry, LeiRegistry } from './shared/lei-registry.js';
import { createStreamService } from './stream/service.js';
import { createStreamStore } from './stream/store.js';
import { createVendorRiskService, type VendorRiskService } from './vendor/service.js';
import { createVopCheckLog, VOP_CHECKS_QUEUE, type VopCheckLog } from './vop/check-log.js';
import { nameMatcher } from './vop/domain/index.js';
import { createComplianceService } from './vop/service.js';
import { type ComplianceStore, createComplianceStore } from './vop/store.js';

export const name = 'compliance';
export const typeDefs = loadSubgraphTypeDefs(name);

/** One service per family, as the routes, the resolvers and the per-request context read them. */
type ComplianceFamilies = ComplianceRouteServices;

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

/** Know-your-agent, its credentials signed by the issuer of {compliance_url}: did:web:<host>:compliance. */
function buildKya(platform: PlatformServices, leiRegistry: LeiRegistry, origin: string): KyaService {
  const { config, clock } = platform;
  const { db } = platform.database;
  const issuer = createCredentialIssuer({
    key: loadOrCreateIssuerKey({ dataDir: config.database.dataDir, configuredJwk: config.signing.issuerSigningJwk }),
    baseUrl: `${origin}${COMPLIANCE_PREFIX}`,
  });
  return createKyaService({
    clock,
    store: createKyaStore(db),
    leiRegistry,
    issuer,
    hmacKey: config.signing.quoteSigningKey ?? loadOrCreateSigningKey(config.database.dataDir),
    ids: platform.ids,
    rateLimits: platform.access.rateLimits ?? createDatabaseRateLimitStore(db),
    idempotency: createIdempotency(db, { clock }),
    internalKey: platform.access.internalKey,
  });
}

/** AML (internal): the SDN index of the ownership chain's shipped data, built once on first screen. */
function buildAml(platform: PlatformServices): AmlService {
  return createAmlService({
    clock: platform.clock,
    store: createAmlStore(platform.database.db),
    weights: amlWeights(),
    sanctionsIndex: () => shippedUboData().sanctions,
    sanctionsProvenance: () => dataSources().ofacSdn,
    fatfList: () => fatfLists().current,
    synthesiser: platform.synthesiser,
    logger: platform.logger,
  });
}

/** Vendor risk: every screen side by side with the entity ESG score (decision 0020). */
function buildVendorRisk(platform: PlatformServices, screens: Pick<ComplianceFamilies, 'esg' | 'pep' | 'ubo'>, registry: ComplianceStore, leiRegistry: LeiRegistry, origin: string): VendorRiskService {
  return createVendorRiskService({
    clock: platform.clock,
    registry,
    leiRegistry,
    matcher: nameMatcher,
    sanctions: () => shippedUboData().sanctions,
    fatf: () => fatfLists().current,
    ...screens,
    esgParameters: entityEsgParameters,
    esgServiceHost: `${new URL(origin).host}${COMPLIANCE_PREFIX}/esg`,
  });
}

/** The VoP history written behind the answer (decision 0096), flushed at shutdown. */
function buildVopCheckLog(platform: PlatformServices, store: ComplianceStore): VopCheckLog {
  const { database } = platform.config;
  const checks = createVopCheckLog({
    store,
    flushDelayMs: database.writeBehindFlushMs,
    maxQueued: database.writeBehindMaxQueued,
    closeTimeoutMs: database.statementTimeoutMs,
    logger: platform.logger,
    onWriteOutcome: (ok, error) => platform.health.reportOutcome('database writes (compliance)', ok, error),
  });
  platform.metrics.watchWriteBehind(VOP_CHECKS_QUEUE, () => checks.pending);
  return checks;
}

/** Every family of the compliance subgraph; `origin` is the public origin ({compliance_url} is <origin>/compliance). */
function buildFamilies(platform: PlatformServices, origin: string, registry: ComplianceStore, checks: VopCheckLog): ComplianceFamilies {
  const { config, clock, ids } = platform;
  const { db } = platform.database;
  const leiRegistry = shippedLeiRegistry();
  const vop = createComplianceService({
    clock,
    store: registry,
    access: platform.access,
    matcher: nameMatcher,
    leiRegistry,
    adminKey: config.access.adminKey,
    synthesiser: platform.synthesiser,
    checks,
  });
  const kya = buildKya(platform, leiRegistry, origin);
  const esg = shippedEntityEsgService({ clock, db, registry, synthesiser: platform.synthesiser });
  const pep = shippedPepScreenService({ clock, db });
  // Ownership chains and the sanctions widget: the shipped GLEIF, SDN and FATF snapshots, indexed on first use.
  const ubo = createUboService({ clock, store: createUboStore(db), data: shippedUboData });
  const widget = { sanctions: () => shippedUboData().sanctions, listAsOf: () => shippedUboData().sources.sanctions.asOf, now: () => clock.now() };
  const aml = buildAml(platform);
  const vendorRisk = buildVendorRisk(platform, { esg, pep, ubo }, registry, leiRegistry, origin);
  // Reference data: the shipped snapshots imported into the database at start when their digest is not loaded yet (decision 0021).
  const referenceData = createReferenceDataService({ store: createReferenceStore(db), digests: shippedReferenceDigests });
  // Streaming sessions: paid upfront through x402 at the amount asked, ticked against the balance (decision 0019).
  const stream = createStreamService({ clock, ids, store: createStreamStore(db), x402: platform.access.x402, prices: streamPrices(), log: platform.logger });
  return { vop, kya, esg, pep, ubo, widget, aml, vendorRisk, stream, referenceData };
}

/**
 * Verification of payee, the wallet registry, LEI, regulatory calendar and know-your-agent (Document
 * 2), with the screens (AML, PEP, entity ESG, ownership chain, vendor risk, the sanctions widget),
 * streaming sessions and the reference data: REST under /compliance. One folder per family; this is
 * their composition (buildFamilies builds them, routes.ts and resolvers.ts are their union).
 */
export function build(platform: PlatformServices): Subgraph {
  const { config } = platform;
  // {compliance_url} is <origin>/compliance: the issuer's did:web is did:web:<host>:compliance.
  const origin = publicOrigin(config.server);
  const registry = createComplianceStore(platform.database.db, platform.ids);
  const checks = buildVopCheckLog(platform, registry);
  const families = buildFamilies(platform, origin, registry, checks);
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, complianceResolvers(families, { graphqlUrl: `${origin}/graphql`, internalKey: platform.access.internalKey })),
    restPrefixes: [COMPLIANCE_PREFIX],
    routes: complianceRoutes(families, { adminKey: config.access.adminKey, facilitatorUrl: config.access.facilitatorUrl, internalKey: platform.access.internalKey }),
    createContext: (request) => createComplianceContext(families, request),
    async start() {
      const imported = (await importReferenceData({ db: platform.database.db, clock: platform.clock })).filter((result) => result.action === 'imported');
      if (imported.length > 0) platform.logger.info({ imported }, 'compliance reference data imported');
    },
    close: () => checks.close(),
  };
}
