import type { FastifyPluginAsync } from 'fastify';
import type { Access } from '../../../platform/access/admission.js';
import { createPriceList, resourceOf } from '../../../platform/access/paid-route.js';
import { X402_VERSION } from '../../../platform/access/x402.js';
import { httpRoutes, publicOriginOf } from '../../../platform/http.js';
import { registerOpenApi } from '../../../platform/openapi.js';
import { REPORT_PRODUCTS, reportOffer } from './catalog.js';
import { complianceReportQuerySchema, complianceSubjectOf, esgReportQuerySchema, esgSubjectOf, treasuryReportQuerySchema } from './inputs.js';
import { agentCardSchema, reportPaymentRequiredSchema, reportResponseSchema, reportsErrorSchema, reportsHealthSchema } from './responses.js';
import type { ReportsService } from './service.js';

export const REPORTS_PREFIX = '/reports';
export const REPORTS_VERSION = '1.0.0';

export interface ReportsRouteOptions {
  access: Access;
  /** FACILITATOR_URL, named in the x402 discovery document when set. */
  facilitatorUrl: string | undefined;
}

/**
 * The reports service (Document 1 §4): every report is paid per call with x402 (or taken with an
 * X-API-Key, decision 0012). Errors other than the 402 descriptor are {error, code}.
 */
export function reportsRoutes(service: ReportsService, options: ReportsRouteOptions): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    const prices = createPriceList({ prefix: REPORTS_PREFIX, facilitatorUrl: options.facilitatorUrl });
    await registerOpenApi(app, {
      prefix: REPORTS_PREFIX,
      title: 'Settlement rail reports',
      version: REPORTS_VERSION,
      description: 'AI-synthesised reports, paid per call through x402 (Document 1).',
    });
    const errors = { 401: reportsErrorSchema, 402: reportPaymentRequiredSchema, 429: reportsErrorSchema, 503: reportsErrorSchema };

    const climatePath = `${REPORTS_PREFIX}/report/climate`;
    prices.price('GET', climatePath, reportOffer('climate'));
    app.get(
      climatePath,
      // No HEAD twin: a HEAD would be charged for a report it never receives.
      { exposeHeadRoute: false, schema: { summary: 'Climate report: physical risk, commodity stress, climate outlook (2.00 USDC)', response: { 200: reportResponseSchema, ...errors } } },
      async (request) => service.climateReport(request.requestContext, resourceOf(request)),
    );

    const macroPath = `${REPORTS_PREFIX}/report/macro`;
    prices.price('GET', macroPath, reportOffer('macro'));
    app.get(
      macroPath,
      { exposeHeadRoute: false, schema: { summary: 'Macro report: stability score, macro regime, 90-day outlook (1.00 USDC)', response: { 200: reportResponseSchema, ...errors } } },
      async (request) => service.macroReport(request.requestContext, resourceOf(request)),
    );

    const esgPath = `${REPORTS_PREFIX}/report/esg`;
    prices.price('GET', esgPath, reportOffer('esg'));
    app.get(
      esgPath,
      {
        exposeHeadRoute: false,
        schema: {
          summary: 'ESG report of a wallet (address) or an LEI (lei), exactly one (1.00 USDC)',
          querystring: esgReportQuerySchema,
          response: { 200: reportResponseSchema, 400: reportsErrorSchema, ...errors },
        },
      },
      async (request) => service.esgReport(request.requestContext, resourceOf(request), esgSubjectOf(request.query)),
    );

    const compliancePath = `${REPORTS_PREFIX}/report/compliance`;
    prices.price('GET', compliancePath, reportOffer('compliance'));
    app.get(
      compliancePath,
      {
        exposeHeadRoute: false,
        schema: {
          summary: 'Compliance report of a counterparty by lei and/or name, at least one: sanctions and AML screening, PEP, country risk, Travel Rule (1.00 USDC)',
          querystring: complianceReportQuerySchema,
          response: { 200: reportResponseSchema, 400: reportsErrorSchema, ...errors },
        },
      },
      async (request) => service.complianceReport(request.requestContext, resourceOf(request), complianceSubjectOf(request.query)),
    );

    const treasuryPath = `${REPORTS_PREFIX}/report/treasury`;
    prices.price('GET', treasuryPath, reportOffer('treasury'));
    app.get(
      treasuryPath,
      {
        exposeHeadRoute: false,
        schema: {
          summary: "Treasury report of a month (period YYYY-MM, default the current one): the rail's settlement volume, corridor performance, automated decisions, in aggregate (1.00 USDC)",
          querystring: treasuryReportQuerySchema,
          response: { 200: reportResponseSchema, 400: reportsErrorSchema, ...errors },
        },
      },
      async (request) => service.treasuryReport(request.requestContext, resourceOf(request), request.query.period),
    );

    prices.registerDiscovery(app);

    app.get(`${REPORTS_PREFIX}/.well-known/agent.json`, { schema: { summary: 'Agent card: each report a skill with its payment requirements', response: { 200: agentCardSchema } } }, async (request) =>
      agentCard(publicOriginOf(request), options.access),
    );

    app.get(`${REPORTS_PREFIX}/health`, { schema: { summary: 'Service health', response: { 200: reportsHealthSchema } } }, async () => ({
      status: 'ok',
      service: 'reports',
      version: REPORTS_VERSION,
    }));
  });
}

/** The A2A agent card: each report a skill, with the x402 requirements of its GET. */
async function agentCard(origin: string, access: Access) {
  return {
    protocolVersion: '0.3.0',
    name: 'Settlement rail reports',
    description: "Paid intelligence reports for treasury agents, synthesised from the rail's oracles. Pay per call with x402 (X-PAYMENT).",
    url: `${origin}${REPORTS_PREFIX}`,
    version: REPORTS_VERSION,
    provider: { organization: 'Settlement rail', url: origin },
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: await Promise.all(
      (Object.keys(REPORT_PRODUCTS) as Array<keyof typeof REPORT_PRODUCTS>).map(async (type) => {
        const url = `${origin}${REPORTS_PREFIX}/report/${type}`;
        const { price } = reportOffer(type);
        return {
          id: `${type}-report`,
          name: `${type[0]!.toUpperCase()}${type.slice(1)} report`,
          description: price.description,
          tags: ['report', type, 'x402'],
          examples: [`GET ${REPORTS_PREFIX}/report/${type}${(REPORT_PRODUCTS[type] as { exampleQuery?: string }).exampleQuery ?? ''}`],
          endpoint: { method: 'GET', url },
          payment: { x402Version: X402_VERSION, accepts: [await access.x402.requirementsFor(price, url)] },
        };
      }),
    ),
  };
}
