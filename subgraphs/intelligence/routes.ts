import type { FastifyPluginAsync } from 'fastify';
import type { Access } from '../../platform/access/admission.js';
import { httpRoutes } from '../../platform/http.js';
import type { DashboardService } from './dashboard/service.js';
import { reportsRoutes } from './reports/routes.js';
import type { ReportsService } from './reports/service.js';
import type { AnySignalEndpoint } from './shared/signal-endpoint.js';
import { signalRoutes } from './shared/signal-routes.js';
import type { SignalService } from './shared/signal-service.js';

export interface IntelligenceServices {
  reports: ReportsService;
  signals: SignalService;
  endpoints: readonly AnySignalEndpoint[];
  dashboard: DashboardService;
}

/** The reports service under /reports and the signals under /v1/intelligence, each its own OpenAPI document. */
export function intelligenceRoutes(services: IntelligenceServices, options: { access: Access; facilitatorUrl: string | undefined }): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    await app.register(reportsRoutes(services.reports, options));
    await app.register(signalRoutes(services.signals, services.endpoints, options));
  });
}
