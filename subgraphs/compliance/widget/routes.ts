import type { FastifyPluginAsync } from 'fastify';
import type { HttpServer } from '../../../platform/http.js';
import { describeInputProblem, findInputProblem } from '../../../platform/input-hygiene.js';
import { listAge, type SanctionsIndex } from '../shared/domain/index.js';
import { screenForWidget } from './domain/index.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { MAX_WIDGET_QUERY_LENGTH, renderWidgetPage, WIDGET_CSP_DIRECTIVES, type WidgetPage } from './render.js';

export interface SanctionsWidgetDeps {
  /** The SDN index, built on first use (shippedUboData().sanctions). */
  sanctions: () => SanctionsIndex;
  /** As-of date of the SDN list, shown under the verdict. */
  listAsOf: () => string;
  /** The time of the answer: a list older than 30 days is flagged on the page. */
  now: () => Date;
}

export interface WidgetRouteOptions {
  /** Where the compliance oracle is mounted; default `/compliance` ({compliance_url}). */
  prefix?: string;
}

/** What the page is for one request: the empty form, a refusal, or the verdict. Exported for the tests. */
export function widgetPageFor(rawQuery: unknown, deps: SanctionsWidgetDeps): { status: 200 | 400; page: WidgetPage } {
  const asOf = deps.listAsOf();
  const list = { asOf, stale: listAge(asOf, deps.now()).stale };
  if (rawQuery === undefined) return { status: 200, page: { list } };
  if (typeof rawQuery !== 'string') return { status: 400, page: { list, error: 'Give one query: q once, a wallet address or an entity name.' } };
  const problem = findInputProblem(rawQuery, 'q');
  if (problem) return { status: 400, page: { list, error: `The query is refused: ${describeInputProblem(problem)}.` } };
  const query = rawQuery.trim();
  if (query === '') return { status: 200, page: { list } };
  if (query.length > MAX_WIDGET_QUERY_LENGTH) {
    return { status: 400, page: { list, query: query.slice(0, MAX_WIDGET_QUERY_LENGTH), error: `The query is longer than ${MAX_WIDGET_QUERY_LENGTH} characters.` } };
  }
  return { status: 200, page: { list, query, screen: screenForWidget(query, deps.sanctions()) } };
}

/**
 * GET {compliance_url}/widget/sanctions?q=<wallet address or entity name> (Document 2 §4): an
 * embeddable HTML page with the verdict and its signals; without q the empty form. The page is
 * HTML in every case, a refused query included (400 with the message in the page), since a person
 * reads it. Its Content-Security-Policy forbids every script and allows any site to frame it.
 */
export function widgetRoutes(deps: SanctionsWidgetDeps, options: WidgetRouteOptions = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    app.get(
      `${prefix}/widget/sanctions`,
      {
        helmet: { contentSecurityPolicy: { useDefaults: false, directives: WIDGET_CSP_DIRECTIVES }, frameguard: false },
        // The platform's input rule, answered in the page (a person reads it), not as JSON.
        config: { inputCheckedBy: 'page' },
        schema: { summary: 'Embeddable sanctions screen (HTML): a wallet address or an entity name in q; APPROVED, FLAGGED or BLOCKED with the signals' },
      },
      async (request, reply) => {
        const { status, page } = widgetPageFor((request.query as Record<string, unknown> | undefined)?.q, deps);
        return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderWidgetPage(page));
      },
    );
  };
}
