// Test support for the streaming-session tests (not a test file itself): the stream plugin as the
// compliance routes mount it (under /compliance, errors as {error, code}, declared in the price
// list beside a fixed-price route), over the worker's embedded rail.

import { createPriceList } from '../../../platform/access/paid-route.js';
import { createX402, type X402 } from '../../../platform/access/x402.js';
import type { Clock } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { createHttpServer, httpRoutes, type HttpServer } from '../../../platform/http.js';
import { randomIds } from '../../../platform/ids.js';
import { createLogger } from '../../../platform/log.js';
import { sharedTestChain } from '../../../test/helpers.js';
import { streamPrices } from '../data/stream-prices.js';
import { COMPLIANCE_PREFIX, complianceErrorShape } from '../shared/error-shape.js';
import { VOP_OFFER } from '../vop/service.js';
import { streamRoutes } from './routes.js';
import { createStreamService, type StreamLog } from './service.js';
import { createStreamStore, type StreamStore } from './store.js';

export const SESSION_ID = /^str_[A-Za-z0-9_-]{22}$/;
export const TOKEN = /^sst_[A-Za-z0-9_-]{43}$/;
export const RESOURCE = 'http://localhost:80/compliance/stream/open';
export const DESCRIPTION_37_CALLS = 'Streaming session: 2.775 USDC of credit, 37 call units at 0.075 USDC each';

export interface StreamTestOverrides {
  x402?: (real: X402) => Pick<X402, 'authorize'>;
  store?: (real: StreamStore) => StreamStore;
}

/** The stream plugin as the compliance plugin mounts it, with a fixed-price route beside it in the price list. */
export async function buildStreamTestApp(options: { db: Database; clock: Clock; log: StreamLog }, overrides: StreamTestOverrides = {}): Promise<HttpServer> {
  const { db, clock, log } = options;
  const x402 = createX402({ chain: sharedTestChain(), db, clock });
  const store = createStreamStore(db);
  const service = createStreamService({
    clock,
    ids: randomIds,
    store: overrides.store?.(store) ?? store,
    x402: overrides.x402?.(x402) ?? x402,
    prices: streamPrices(),
    log,
  });
  const server = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), clock });
  await server.register(
    httpRoutes(async (scoped) => {
      scoped.errorShapes.register(complianceErrorShape);
      const prices = createPriceList({ prefix: COMPLIANCE_PREFIX });
      prices.price('POST', `${COMPLIANCE_PREFIX}/vop/verify`, VOP_OFFER);
      await scoped.register(streamRoutes(service, { prices }));
      prices.registerDiscovery(scoped);
    }),
  );
  await server.ready();
  return server;
}
