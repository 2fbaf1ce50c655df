import type { FastifyPluginAsync } from 'fastify';
import { createPriceList } from '../../platform/access/paid-route.js';
import { httpRoutes } from '../../platform/http.js';
import { registerOpenApi } from '../../platform/openapi.js';
import { amlRoutes } from './aml/routes.js';
import type { AmlService } from './aml/service.js';
import { entityEsgRoutes } from './esg/routes.js';
import type { EntityEsgService } from './esg/service.js';
import { kyaRoutes } from './kya/routes.js';
import type { KyaService } from './kya/service.js';
import { uboRoutes } from './ownership/routes.js';
import type { UboService } from './ownership/service.js';
import { pepRoutes } from './pep/routes.js';
import type { PepScreenService } from './pep/service.js';
import { referenceDataRoutes } from './reference/routes.js';
import type { ReferenceDataService } from './reference/service.js';
import { COMPLIANCE_API_VERSION, COMPLIANCE_PREFIX, complianceErrorShape } from './shared/error-shape.js';
import { streamRoutes } from './stream/routes.js';
import type { StreamService } from './stream/service.js';
import { vendorRiskRoutes } from './vendor/routes.js';
import type { VendorRiskService } from './vendor/service.js';
import { vopRoutes } from './vop/routes.js';
import type { ComplianceService } from './vop/service.js';
import { widgetRoutes } from './widget/routes.js';
import type { SanctionsWidgetDeps } from './widget/service.js';

/** The families' services the compliance routes mount (index.ts builds them). */
export interface ComplianceRouteServices {
  /** Verification of payee, the wallet registry, LEI and the regulatory calendar (vop/). */
  vop: ComplianceService;
  /** Know-your-agent: agents, mandates, credentials and identity documents (kya/). */
  kya: KyaService;
  /** Entity ESG scores (esg/). */
  esg: EntityEsgService;
  /** The PEP screen (pep/). */
  pep: PepScreenService;
  /** Ownership chains (ownership/). */
  ubo: UboService;
  /** The embeddable sanctions screen (widget/). */
  widget: SanctionsWidgetDeps;
  /** AML screening, internal (aml/). */
  aml: AmlService;
  /** Vendor risk: every screen above side by side with the entity ESG score, decision 0020 (vendor/). */
  vendorRisk: VendorRiskService;
  /** Streaming micropayment sessions (stream/). */
  stream: StreamService;
  /** The reference data loaded in the database (reference/). */
  referenceData: ReferenceDataService;
}

/** What the compliance routes need besides the families' services. */
export interface ComplianceRouteOptions {
  adminKey: string | undefined;
  facilitatorUrl: string | undefined;
  /** INTERNAL_KEY; unset closes the internal endpoints. */
  internalKey: string | undefined;
}

/**
 * The compliance oracle's REST paths under /compliance: the union of its families' route plugins,
 * each registered inside this one, so every family answers errors as {error, code} and lands in the
 * one OpenAPI document and the one x402 price list.
 */
export function complianceRoutes(families: ComplianceRouteServices, options: ComplianceRouteOptions): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    app.errorShapes.register(complianceErrorShape);
    await registerOpenApi(app, {
      prefix: COMPLIANCE_PREFIX,
      title: 'Compliance oracle',
      version: COMPLIANCE_API_VERSION,
      description: 'Verification of payee, registry, LEI, screening and agent identity (Document 2).',
      openapi: '3.1.0',
    });
    // /agent/..., /agents/..., /.well-known/did.json
    await app.register(kyaRoutes(families.kya));
    // /esg/score/:lei, /esg/score/wallet/:wallet
    await app.register(entityEsgRoutes(families.esg));
    // /compliance/pep-screen
    await app.register(pepRoutes(families.pep));
    // /compliance/ubo-chain
    await app.register(uboRoutes(families.ubo));
    // /widget/sanctions
    await app.register(widgetRoutes(families.widget));
    // /aml/screen, /aml/profile/:wallet, /aml/events/:wallet (internal, X-Internal-Key)
    await app.register(amlRoutes(families.aml, { internalKey: options.internalKey }));
    // /vendor-risk
    await app.register(vendorRiskRoutes(families.vendorRisk));
    // /reference-data
    await app.register(referenceDataRoutes(families.referenceData));
    const prices = createPriceList({ prefix: COMPLIANCE_PREFIX, facilitatorUrl: options.facilitatorUrl });
    // /stream/open (x402, variable amount), /stream/:sessionId/tick, /stream/:sessionId
    await app.register(streamRoutes(families.stream, { prices }));
    // /vop/..., /lei/..., /register, /compliance/regulatory-calendar
    await app.register(vopRoutes(families.vop, { adminKey: options.adminKey, prices }));
    prices.registerDiscovery(app);
  });
}
