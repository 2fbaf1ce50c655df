import { type Access, paidWork } from '../../../platform/access/admission.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { RULE_BASED_MODEL, type Synthesiser } from '../../../platform/synthesis.js';
import type { AnswerCache } from '../shared/answer-cache.js';
import type { ClimateSource } from '../upstream/forecast.js';
import type { OracleReportSources } from '../upstream/oracles.js';
import { reportOffer, type ReportType } from './catalog.js';
import { buildClimateReport, type Report } from './domain/index.js';
import { buildEsgReport, buildMacroReport } from './domain/index.js';

/** Document 1 §8: a paid report is cached for 60 minutes. */
export const REPORT_CACHE_MS = 60 * 60_000;

export interface ReportsServiceDeps {
  clock: Clock;
  synthesiser: Synthesiser;
  access: Access;
  cache: AnswerCache;
  climate: ClimateSource;
  oracles: OracleReportSources;
}

/** The subject of an ESG report: exactly one of a normalised LEI or wallet address. */
export type EsgSubject = { lei: string; address?: undefined } | { address: string; lei?: undefined };

const ORACLE_SOURCES = {
  macro: ['Stability oracle GET /stability/reliability and /stability/api/history (docs/stability-model.md)'],
  esg: ['ESG oracle GET /esg/esg-score (docs/esg-oracle-methodology.md)', 'Compliance oracle entity ESG GET /compliance/esg/score (docs/entity-esg-methodology.md)'],
};

/** A rule-based report, its summary reworded by a configured language model when one answers; the numbers and the rest stay the rules'. */
async function worded(synthesiser: Synthesiser, report: Report, topic: string): Promise<Report> {
  const text = await synthesiser.synthesise({ topic, facts: { ...report.synthesis, summary: undefined }, ruleBasedText: report.synthesis.summary });
  if (text) report.synthesis = { ...report.synthesis, summary: text.text, model: text.model };
  return report;
}

async function generateClimateReport(deps: ReportsServiceDeps): Promise<Report> {
  const report = buildClimateReport(await deps.climate.inputs(), deps.clock.now(), RULE_BASED_MODEL);
  return worded(deps.synthesiser, report, 'climate intelligence report');
}

async function generateMacroReport(deps: ReportsServiceDeps): Promise<Report> {
  const inputs = await deps.oracles.macro();
  if (!inputs.reliability && !inputs.history) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'The stability oracle is unavailable; retry shortly.', retryAfterSeconds: 30 });
  return worded(deps.synthesiser, buildMacroReport({ ...inputs, sources: ORACLE_SOURCES.macro }, deps.clock.now(), RULE_BASED_MODEL), 'macro report');
}

async function generateEsgReport(deps: ReportsServiceDeps, subject: EsgSubject): Promise<Report> {
  const inputs = await deps.oracles.esg(subject);
  if (!inputs.rail && !inputs.entity) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'The ESG and compliance oracles are unavailable; retry shortly.', retryAfterSeconds: 30 });
  return worded(deps.synthesiser, buildEsgReport({ ...inputs, subject, sources: ORACLE_SOURCES.esg }, deps.clock.now(), RULE_BASED_MODEL), 'ESG report');
}

/** The reports service (Document 1): paid reports, called alike by routes.ts and resolvers.ts. */
export function createReportsService(deps: ReportsServiceDeps) {
  /** A report of `type`, once the caller is admitted (payment or API key); the payment is settled only if the report is delivered. */
  const paidReport = (type: ReportType, request: RequestContext, resource: string, cacheKey: string, generate: () => Promise<Report>) =>
    paidWork(deps.access, request, reportOffer(type), resource, async () => (await deps.cache.answer(`report:${cacheKey}`, REPORT_CACHE_MS, generate)).value);

  return {
    climateReport: (request: RequestContext, resource: string) => paidReport('climate', request, resource, 'climate', () => generateClimateReport(deps)),
    macroReport: (request: RequestContext, resource: string) => paidReport('macro', request, resource, 'macro', () => generateMacroReport(deps)),
    esgReport: (request: RequestContext, resource: string, subject: EsgSubject) =>
      paidReport('esg', request, resource, `esg:${subject.lei ? `lei:${subject.lei}` : `address:${subject.address}`}`, () => generateEsgReport(deps, subject)),
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
