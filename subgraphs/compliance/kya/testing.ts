// Test support for the know-your-agent tests (not a test file itself): an LEI registry over two
// real GLEIF records, and a small app serving the KYA routes in the compliance error shape.

import { generateKeyPairSync } from 'node:crypto';
import { createDatabaseRateLimitStore } from '../../../platform/access/rate-limit.js';
import type { Clock } from '../../../platform/clock.js';
import { createCredentialIssuer, type CredentialIssuer, generateIssuerJwk, issuerKeyFromJwk } from '../../../platform/credentials.js';
import type { Database } from '../../../platform/db.js';
import { createHttpServer, httpRoutes, type HttpServer } from '../../../platform/http.js';
import { createIdempotency } from '../../../platform/idempotency.js';
import type { IdSource } from '../../../platform/ids.js';
import { createLogger } from '../../../platform/log.js';
import { registerOpenApi } from '../../../platform/openapi.js';
import { ACTIVE_LEI_ENTRY, LAPSED_LEI_ENTRY, UNKNOWN_VALID_LEI } from '../../../test/fixtures/lei-entries.js';
import { TEST_NOW } from '../../../test/helpers.js';
import { isValidLei } from '../domain/index.js';
import { COMPLIANCE_PREFIX, complianceErrorShape } from '../shared/error-shape.js';
import type { LeiRegistry } from '../shared/lei-registry.js';
import { kyaRoutes } from './routes.js';
import { createKyaService, type KyaService } from './service.js';
import { createKyaStore } from './store.js';

// The route tests' fixtures (kya/routes.test.ts, kya/agent-routes.test.ts).
export const BASE = 'https://kya.test';
export const ISSUER_DID = 'did:web:kya.test:compliance';
export const AGENT_ID = /^agt_[A-Za-z0-9_-]{22}$/;
/** The owner's key (decision 0048): agk_ and 32 random bytes in base64url. */
export const AGENT_KEY = /^agk_[A-Za-z0-9_-]{43}$/;
export const MANDATE_ID = /^mnd_[A-Za-z0-9_-]{22}$/;
export const NOW_MS = Date.parse(TEST_NOW);
export const HOUR_MS = 3_600_000;
/** The agent's own P-256 key pair: the public half is registered, the private half stays with the agent. */
const agentKeyPair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const { kty, crv, x, y } = agentKeyPair.publicKey.export({ format: 'jwk' });
export const AGENT_JWK = { kty, crv, x, y } as { kty: 'EC'; crv: 'P-256'; x: string; y: string };
export const AGENT_PRIVATE_D = agentKeyPair.privateKey.export({ format: 'jwk' }).d!;

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
