// Test support for the AML tests (not a test file itself): the service over the shipped SDN and
// FATF data, and a small app serving the AML routes in the compliance error shape.

import type { Clock } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { createHttpServer, httpRoutes, type HttpServer } from '../../../platform/http.js';
import { createLogger } from '../../../platform/log.js';
import { registerOpenApi } from '../../../platform/openapi.js';
import { createRuleBasedSynthesiser, type Synthesiser } from '../../../platform/synthesis.js';
import { amlWeights } from '../data/aml-weights.js';
import { dataSources, fatfLists, sdnList } from '../data/index.js';
import { buildSanctionsIndex, type SanctionsIndex } from '../domain/index.js';
import { COMPLIANCE_PREFIX, complianceErrorShape } from '../shared/error-shape.js';
import { amlRoutes } from './routes.js';
import { type AmlService, createAmlService } from './service.js';
import { createAmlStore } from './store.js';

export const TEST_INTERNAL_KEY = 'aml-test-internal-key-0123456789abcdef';
/** An Ethereum address OFAC lists for LAZARUS GROUP (ent_num 27307, program DPRK3). */
export const LAZARUS_ETH = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';

let index: SanctionsIndex | undefined;
/** The SDN index over the shipped list, built once per test worker. */
export const testSanctionsIndex = () => (index ??= buildSanctionsIndex(sdnList().records));

export function testAmlService(options: { db: Database; clock: Clock; synthesiser?: Synthesiser }): AmlService {
  return createAmlService({
    clock: options.clock,
    store: createAmlStore(options.db),
    weights: amlWeights(),
    sanctionsIndex: testSanctionsIndex,
    sanctionsProvenance: () => dataSources().ofacSdn,
    fatfList: () => fatfLists().current,
    synthesiser: options.synthesiser ?? createRuleBasedSynthesiser(options.clock),
  });
}

/** The AML routes as the compliance plugin mounts them: under /compliance, errors as {error, code}, with the OpenAPI document. */
export async function buildAmlTestApp(options: { db: Database; clock: Clock; synthesiser?: Synthesiser }): Promise<{ app: HttpServer; service: AmlService }> {
  const service = testAmlService(options);
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), clock: options.clock });
  await app.register(
    httpRoutes(async (scoped) => {
      scoped.errorShapes.register(complianceErrorShape);
      await registerOpenApi(scoped, { prefix: COMPLIANCE_PREFIX, title: 'Compliance oracle (AML test)', version: '1.0.0', description: 'AML routes under test', openapi: '3.1.0' });
      await scoped.register(amlRoutes(service, { internalKey: TEST_INTERNAL_KEY }));
    }),
  );
  await app.ready();
  return { app, service };
}
