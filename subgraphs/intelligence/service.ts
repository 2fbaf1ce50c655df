import { paidWork, type Access } from '../../platform/access/admission.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import type { RequestContext } from '../../platform/request-context.js';
import { RULE_BASED_MODEL, type Synthesiser } from '../../platform/synthesis.js';
import { reportOffer, type ReportType } from './data/catalog.js';
import { buildClimateReport, type Report } from './domain/index.js';
import { buildEsgReport, buildMacroReport } from './domain/oracle-reports.js';
import type { KeptReport, ReportStore } from './store.js';
import type { ClimateSource } from './upstream/forecast.js';
import type { OracleReportSources } from './upstream/oracles.js';

/** Document 1 §8: a paid report is cached for 60 minutes. */
export const REPORT_CACHE_MS = 60 * 60_000;

export interface IntelligenceServiceDeps {
  clock: Clock;
  synthesiser: Synthesiser;
  access: Access;
  store: ReportStore;
  climate: ClimateSource;
  oracles: OracleReportSources;
}

/** The subject of an ESG report: exactly one of a normalised LEI or wallet address. */
export type EsgSubject = { lei: string; address?: undefined } | { address: string; lei?: undefined };

const ORACLE_SOURCES = {
  macro: ['Stability oracle GET /stability/reliability and /stability/api/history (docs/stability-model.md)'],
  esg: ['ESG oracle GET /esg/esg-score (docs/esg-oracle-methodology.md)', 'Compliance oracle entity ESG GET /compliance/esg/score (docs/entity-esg-methodology.md)'],
};

/** The reports service (Document 1): paid reports, called alike by routes.ts and resolvers.ts. */
export function createIntelligenceService(deps: IntelligenceServiceDeps) {
  const generating = new Map<string, Promise<KeptReport>>();

  async function generateClimateReport(): Promise<Report> {
    const report = buildClimateReport(await deps.climate.inputs(), deps.clock.now(), RULE_BASED_MODEL);
    // A configured language model may reword the summary; the numbers and the rest stay the rules'.
    const worded = await deps.synthesiser.synthesise({ topic: 'climate intelligence report', facts: { ...report.synthesis, summary: undefined }, ruleBasedText: report.synthesis.summary });
    if (worded) report.synthesis = { ...report.synthesis, summary: worded.text, model: worded.model };
    return report;
  }

  /** A rule-based report, its summary reworded by a configured language model when one answers. */
  async function worded(report: Report, topic: string): Promise<Report> {
    const text = await deps.synthesiser.synthesise({ topic, facts: { ...report.synthesis, summary: undefined }, ruleBasedText: report.synthesis.summary });
    if (text) report.synthesis = { ...report.synthesis, summary: text.text, model: text.model };
    return report;
  }

  async function generateMacroReport(): Promise<Report> {
    const inputs = await deps.oracles.macro();
    if (!inputs.reliability && !inputs.history) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'The stability oracle is unavailable; retry shortly.', retryAfterSeconds: 30 });
    return worded(buildMacroReport({ ...inputs, sources: ORACLE_SOURCES.macro }, deps.clock.now(), RULE_BASED_MODEL), 'macro report');
  }

  async function generateEsgReport(subject: EsgSubject): Promise<Report> {
    const inputs = await deps.oracles.esg(subject);
    if (!inputs.rail && !inputs.entity) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'The ESG and compliance oracles are unavailable; retry shortly.', retryAfterSeconds: 30 });
    return worded(buildEsgReport({ ...inputs, subject, sources: ORACLE_SOURCES.esg }, deps.clock.now(), RULE_BASED_MODEL), 'ESG report');
  }

  /**
   * The fresh cached report, or a new one kept for the window; one generation at a time per
   * process. A kept report is never replaced before it expires (store.keep), so this process may
   * hold it until then instead of reading the table on every paid call.
   */
  const held = new Map<string, KeptReport>();
  async function cachedReport(cacheKey: string, generate: () => Promise<Report>): Promise<Report> {
    const now = deps.clock.now();
    const local = held.get(cacheKey);
    if (local && local.expiresAt > now) return local.report;
    let pending = generating.get(cacheKey);
    if (!pending) {
      pending = (async () => {
        const kept = (await deps.store.fresh(cacheKey, now)) ?? (await deps.store.keep(cacheKey, await generate(), now, new Date(now.getTime() + REPORT_CACHE_MS)));
        held.set(cacheKey, kept);
        return kept;
      })().finally(() => generating.delete(cacheKey));
      generating.set(cacheKey, pending);
    }
    return (await pending).report;
  }

  /** A report of `type`, once the caller is admitted (payment or API key); the payment is settled only if the report is delivered. */
  function paidReport(type: ReportType, request: RequestContext, resource: string, cacheKey: string, generate: () => Promise<Report>) {
    return paidWork(deps.access, request, reportOffer(type), resource, () => cachedReport(cacheKey, generate));
  }

  return {
    climateReport: (request: RequestContext, resource: string) => paidReport('climate', request, resource, 'climate', generateClimateReport),
    macroReport: (request: RequestContext, resource: string) => paidReport('macro', request, resource, 'macro', generateMacroReport),
    esgReport: (request: RequestContext, resource: string, subject: EsgSubject) =>
      paidReport('esg', request, resource, `esg:${subject.lei ? `lei:${subject.lei}` : `address:${subject.address}`}`, () => generateEsgReport(subject)),
  };
}

export type IntelligenceService = ReturnType<typeof createIntelligenceService>;
