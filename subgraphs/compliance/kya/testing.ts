// Test support for the know-your-agent tests (not a test file itself): an LEI registry over two
// real GLEIF records, and a small app serving the KYA routes in the compliance error shape.

import { createDatabaseRateLimitStore } from '../../../platform/access/rate-limit.js';
import type { Clock } from '../../../platform/clock.js';
import { createIdempotency } from '../../../platform/idempotency.js';
import { createCredentialIssuer, generateIssuerJwk, issuerKeyFromJwk, type CredentialIssuer } from '../../../platform/credentials.js';
import type { Database } from '../../../platform/db.js';
import { createHttpServer, httpRoutes, type HttpServer } from '../../../platform/http.js';
import type { IdSource } from '../../../platform/ids.js';
import { createLogger } from '../../../platform/log.js';
import { registerOpenApi } from '../../../platform/openapi.js';
import { isValidLei } from '../shared/domain/index.js';
import { kyaRoutes } from './routes.js';
import { createKyaService, type KyaService } from './service.js';
import { createKyaStore } from './store.js';
import { COMPLIANCE_PREFIX, complianceErrorShape } from '../shared/error-shape.js';
import type { LeiRegistry } from '../shared/lei-registry.js';
import { ACTIVE_LEI_ENTRY, LAPSED_LEI_ENTRY, UNKNOWN_VALID_LEI } from '../../../test/fixtures/lei-entries.js';

export const TEST_HMAC_KEY = 'kya-test-hmac-key-0123456789abcdef0123456789';
export const TEST_INTERNAL_KEY = 'kya-test-internal-key-0123456789abcdef0123';

export { ACTIVE_LEI_ENTRY, LAPSED_LEI_ENTRY, UNKNOWN_VALID_LEI };

export const testLeiRegistry: LeiRegistry = {
  isValidLei,
  find: (lei) => [ACTIVE_LEI_ENTRY, LAPSED_LEI_ENTRY].find((entry) => entry.lei === lei),
};

/** An issuer under `baseUrl` with a key of its own, generated for the test. */
export function testIssuer(baseUrl: string): CredentialIssuer {
  return createCredentialIssuer({ key: issuerKeyFromJwk(generateIssuerJwk(), 'test key'), baseUrl });
}

export interface KyaTestApp {
  app: HttpServer;
  service: KyaService;
  issuer: CredentialIssuer;
}

/** The KYA routes as the compliance plugin mounts them: under /compliance, errors as {error, code}, with the OpenAPI document. */
export async function buildKyaTestApp(options: { db: Database; clock: Clock; baseUrl: string; ids?: IdSource; issuer?: CredentialIssuer }): Promise<KyaTestApp> {
  const issuer = options.issuer ?? testIssuer(`${options.baseUrl}${COMPLIANCE_PREFIX}`);
  const service = createKyaService({
    clock: options.clock,
    store: createKyaStore(options.db),
    leiRegistry: testLeiRegistry,
    issuer,
    hmacKey: TEST_HMAC_KEY,
    ...(options.ids ? { ids: options.ids } : {}),
    rateLimits: createDatabaseRateLimitStore(options.db),
    idempotency: createIdempotency(options.db, { clock: options.clock }),
    internalKey: TEST_INTERNAL_KEY,
  });
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), clock: options.clock });
  await app.register(
    httpRoutes(async (scoped) => {
      scoped.errorShapes.register(complianceErrorShape);
      await registerOpenApi(scoped, { prefix: COMPLIANCE_PREFIX, title: 'Compliance oracle (KYA test)', version: '1.0.0', description: 'KYA routes under test', openapi: '3.1.0' });
      await scoped.register(kyaRoutes(service));
    }),
  );
  await app.ready();
  return { app, service, issuer };
}
