import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { referenceDataSchema } from './responses.js';
import type { ReferenceDataService } from './service.js';

/**
 * GET /compliance/reference-data (free; decision 0021): the reference datasets loaded in the
 * database with source, URL, as-of date, licence, record count, sha256 and load time.
 */
export function referenceDataRoutes(service: ReferenceDataService, options: { prefix?: string } = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
    app.get(
      `${prefix}/reference-data`,
      { schema: { summary: 'The reference datasets loaded (OFAC SDN, PEP, GLEIF LEI, FATF): provenance, as-of date, record count, sha256, load time', response: { 200: referenceDataSchema } } },
      async () => service.datasets(),
    );
  });
}
