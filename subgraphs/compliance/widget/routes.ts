import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { renderWidgetPage, WIDGET_CSP_DIRECTIVES } from './render.js';
import { type SanctionsWidgetDeps, widgetPageFor } from './service.js';

export interface WidgetRouteOptions {
  /** Where the compliance oracle is mounted; default `/compliance` ({compliance_url}). */
  prefix?: string;
}

/**
 * GET {compliance_url}/widget/sanctions?q=<wallet address or entity name> (Document 2 §4): an
 * embeddable HTML page with the verdict and its signals; without q the empty form. The page is
 * HTML in every case, a refused query included (400 with the message in the page), since a person
 * reads it. Its Content-Security-Policy forbids every script and allows any site to frame it.
 */
export function widgetRoutes(deps: SanctionsWidgetDeps, options: WidgetRouteOptions = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
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
  });
}
