import { z } from 'zod';
import { AppError, errorCatalog, type ErrorCode } from '../../../platform/errors.js';
import { UpstreamAnswerError, upstreamErrorText, type UpstreamRequest, type UpstreamResponse, type UpstreamTransport } from '../../../platform/upstream.js';
import type { ClimateInputs } from '../reports/domain/index.js';

/**
 * The climate report's client of the forecast subgraph's public REST interface (DESIGN.md §3), in
 * process or over HTTP alike: GET /forecast/heat-check, /forecast/regions and /forecast/calendar, and
 * the dataset's sources, which the forecast publishes in a TCFD report's disclosure (the smallest
 * report, one position, carries all of them). The report keeps these answers whole in its data, so
 * each schema lists every field the forecast sends, in the order the forecast builds them.
 * The forecast's own 503 (a live source down: FCT_ERR_UPSTREAM_UNAVAILABLE with its Retry-After) is
 * raised again as that error; any other failure (no forecast in reach, another status, an answer of
 * another shape) is 503 GEN_ERR_UNAVAILABLE with the UpstreamAnswerError as its cause, never a 500.
 */

export const FORECAST_SERVICE = 'forecast';

/** What the climate report reads of the forecast. */
export interface ClimateSource {
  inputs(): Promise<ClimateInputs>;
}

const dataQuality = z.enum(['LIVE', 'PARTIAL', 'ESTIMATED']);
const status = z.enum(['GREEN', 'YELLOW', 'RED']);

const heatCheckSchema = z.object({
  asOf: z.string(),
  dataQuality,
  commodities: z.array(z.object({ symbol: z.string(), status, signal: z.string() })),
  evaluatedAt: z.string(),
  dataAgeDays: z.number(),
});
const regionsSchema = z.array(
  z.object({
    region: z.string(),
    regionId: z.string(),
    commodities: z.array(z.string()),
    climateRiskScore: z.number(),
    activeAlerts: z.number(),
    primaryThreat: z.string(),
    outlook: z.string(),
  }),
);
const calendarSchema = z.array(
  z.object({
    month: z.string(),
    monthName: z.string(),
    events: z.array(z.string()),
    commoditiesAtRisk: z.array(z.string()),
    historicalSeverity: z.enum(['LOW', 'MODERATE', 'HIGH']),
  }),
);
const disclosedSourcesSchema = z.object({
  disclosure: z.object({ dataSources: z.array(z.object({ source: z.string(), url: z.string(), asOf: z.string() })) }),
});

/** The one-position TCFD report whose disclosure lists the dataset's sources. */
const SOURCES_REQUEST = { positions: [{ symbol: 'WHEAT', notionalUsd: 1 }] };

/** The forecast's 503 in its error shape ({message, code} with a catalog code), raised again as that error. */
function refusalOf(response: UpstreamResponse, path: string): Error {
  const body = response.body;
  if (response.status === 503 && typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { code, message } = body as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && Object.hasOwn(errorCatalog, code) && errorCatalog[code as ErrorCode].status === response.status) {
      const retryAfter = Number(response.headers['retry-after']);
      return new AppError(code as ErrorCode, {
        ...(typeof message === 'string' ? { message } : {}),
        ...(Number.isInteger(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
      });
    }
  }
  return unavailable(new UpstreamAnswerError(FORECAST_SERVICE, response.status, `${path}: ${upstreamErrorText(response)}`));
}

function unavailable(cause: unknown): AppError {
  return new AppError('GEN_ERR_UNAVAILABLE', { message: 'The forecast service is unavailable; retry later.', cause });
}

async function call<T>(transport: UpstreamTransport, request: UpstreamRequest, schema: z.ZodType<T>): Promise<T> {
  const response = await transport(request).catch((error: unknown) => {
    throw unavailable(error);
  });
  if (response.status !== 200) throw refusalOf(response, request.path);
  const parsed = schema.safeParse(response.body);
  if (!parsed.success) throw unavailable(new UpstreamAnswerError(FORECAST_SERVICE, response.status, `${request.path}: the answer does not have the documented shape`));
  return parsed.data;
}

export function createClimateSource(transport: UpstreamTransport): ClimateSource {
  return {
    async inputs() {
      const [heatCheck, regions, calendar, disclosed] = await Promise.all([
        call(transport, { method: 'GET', path: '/forecast/heat-check' }, heatCheckSchema),
        call(transport, { method: 'GET', path: '/forecast/regions' }, regionsSchema),
        call(transport, { method: 'GET', path: '/forecast/calendar' }, calendarSchema),
        call(transport, { method: 'POST', path: '/forecast/tcfd-report', body: SOURCES_REQUEST }, disclosedSourcesSchema),
      ]);
      return { heatCheck, regions, calendar, sources: disclosed.disclosure.dataSources };
    },
  };
}
