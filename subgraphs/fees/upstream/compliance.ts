import { z } from 'zod';
import { UpstreamAnswerError, upstreamErrorText, type UpstreamTransport } from '../../../platform/upstream.js';

/**
 * The fees subgraph's client of the compliance oracle's public REST interface: GET
 * /compliance/esg/score/:lei and /compliance/lei/search for the ESG widget, with X-Internal-Key (an
 * internal call, never charged).
 */
export const COMPLIANCE_SERVICE = 'compliance';

const entityEsgSchema = z.object({
  lei: z.string(),
  entityName: z.string(),
  composite: z.number(),
  environmental: z.number(),
  social: z.number(),
  governance: z.number(),
  feeTier: z.string(),
  coverage: z.string(),
});

const leiSearchSchema = z.object({ matches: z.array(z.object({ lei: z.string(), legalName: z.string(), matchedName: z.string(), score: z.number() })) });

/** GET /compliance/esg/score/:lei, the fields the widget reads. */
export interface EntityEsg {
  lei: string;
  entityName: string;
  composite: number;
  environmental: number;
  social: number;
  governance: number;
  feeTier: string;
  coverage: string;
}

export interface LeiMatch {
  lei: string;
  legalName: string;
  matchedName: string;
  score: number;
}

export interface EntityEsgClient {
  /** The entity ESG score of an LEI; null when compliance answers 404. */
  entityEsg(lei: string): Promise<EntityEsg | null>;
  /** GET /compliance/lei/search?name=: the LEIs whose names match, best first. */
  searchLei(name: string): Promise<LeiMatch[]>;
}

export function createEntityEsgClient(options: { transport: UpstreamTransport; internalKey: string }): EntityEsgClient {
  return {
    async entityEsg(lei) {
      const response = await options.transport({ method: 'GET', path: `/compliance/esg/score/${encodeURIComponent(lei)}`, headers: { 'x-internal-key': options.internalKey } });
      if (response.status === 404) return null;
      if (response.status !== 200) throw new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, upstreamErrorText(response));
      const parsed = entityEsgSchema.safeParse(response.body);
      if (!parsed.success) throw new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, 'an entity ESG answer of another shape');
      return parsed.data;
    },
    async searchLei(name) {
      const response = await options.transport({ method: 'GET', path: `/compliance/lei/search?name=${encodeURIComponent(name)}`, headers: { 'x-internal-key': options.internalKey } });
      if (response.status !== 200) throw new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, upstreamErrorText(response));
      const parsed = leiSearchSchema.safeParse(response.body);
      if (!parsed.success) throw new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, 'an LEI search answer of another shape');
      return parsed.data.matches;
    },
  };
}
