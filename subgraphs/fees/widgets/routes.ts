import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import corridorParameters from '../data/corridor-parameters.json' with { type: 'json' };
import { fxSeries } from '../data/fx.js';
import type { OracleReadings } from '../domain/index.js';
import type { EntityEsgClient } from '../upstream/compliance.js';
import { type CorridorInput, corridorStates } from './domain/index.js';
import { esgWidgetQuery, MAX_QUERY } from './inputs.js';
import { ORACLE_WIDGET_CSP, renderCorridorsWidget, renderEsgWidget } from './render.js';

const LEI = /^[0-9A-Z]{18}[0-9]{2}$/;

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).type('text/html; charset=utf-8').header('content-security-policy', ORACLE_WIDGET_CSP).header('cache-control', 'no-store').send(html);
}

let corridorInputs: CorridorInput[] | undefined;
/** The shipped H.10 series as numbers, parsed once (the snapshot does not change while the process runs). */
function shippedCorridorInputs(): CorridorInput[] {
  corridorInputs ??= [...fxSeries().values()].map((entry) => ({ currency: entry.currency, observations: entry.observations.map((row) => ({ date: row.date, rate: Number(row.value) })) }));
  return corridorInputs;
}

/** GET /stability/widget/corridors: OPTIMAL / CAUTION / ADVERSE per USD corridor (decision 0034). */
export function corridorsWidgetRoute(readings: () => OracleReadings): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    app.get('/stability/widget/corridors', { schema: { summary: 'Embeddable HTML badges: OPTIMAL, CAUTION or ADVERSE per USD corridor', hide: false } }, async (_request, reply) => {
      const stability = readings().stability;
      const corridors = corridorStates(shippedCorridorInputs(), (stability?.status as 'stable' | 'caution' | 'unstable' | undefined) ?? null, corridorParameters);
      const asOf = corridors.reduce((latest, corridor) => (corridor.asOf && corridor.asOf > latest ? corridor.asOf : latest), '');
      return sendPage(reply, 200, renderCorridorsWidget(corridors, { band: stability?.status ?? null, score: stability?.score ?? null, asOf }));
    });
  });
}

/** GET /esg/widget/esg?q=<company name or LEI>: a company's entity ESG score with its E/S/G breakdown, from the compliance oracle (decision 0034). */
export function esgWidgetRoute(client: EntityEsgClient | undefined): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    app.get('/esg/widget/esg', { schema: { summary: 'Embeddable HTML: company name or LEI in, entity ESG score with its E/S/G breakdown out' } }, async (request, reply) => {
      const parsed = esgWidgetQuery.safeParse(request.query);
      if (!parsed.success) return sendPage(reply, 400, renderEsgWidget({ error: `Enter a company name or LEI of at most ${MAX_QUERY} characters.` }));
      const query = parsed.data.q?.trim();
      if (!query) return sendPage(reply, 200, renderEsgWidget({}));
      if (!client) return sendPage(reply, 503, renderEsgWidget({ query, error: 'The compliance oracle is not reachable from this process.' }));
      try {
        // An LEI is scored as given; any other text is a company name, looked up in the LEI registry.
        const best = LEI.test(query.toUpperCase()) ? null : (await client.searchLei(query))[0];
        if (best === undefined) return sendPage(reply, 404, renderEsgWidget({ query, error: 'No company with a matching name is in the LEI registry snapshot; try its LEI.' }));
        const result = await client.entityEsg(best?.lei ?? query.toUpperCase());
        if (!result) return sendPage(reply, 404, renderEsgWidget({ query, error: 'No entity with this LEI is known to the compliance oracle.' }));
        return sendPage(reply, 200, renderEsgWidget({ query, result, ...(best ? { matchedName: best.matchedName } : {}) }));
      } catch {
        return sendPage(reply, 503, renderEsgWidget({ query, error: 'The compliance oracle did not answer; retry shortly.' }));
      }
    });
  });
}
