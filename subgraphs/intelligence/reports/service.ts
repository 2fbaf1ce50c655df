import { type Access, paidWork } from '../../../platform/access/admission.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { RULE_BASED_MODEL, type Synthesiser } from '../../../platform/synthesis.js';
import complianceParameters from '../data/parameters/compliance-report.json' with { type: 'json' };
import treasuryParameters from '../data/parameters/treasury-report.json' with { type: 'json' };
import type { AnswerCache } from '../shared/answer-cache.js';
import type { ComplianceClient } from '../upstream/compliance.js';
import type { ClimateSource } from '../upstream/forecast.js';
import type { OracleReportSources } from '../upstream/oracles.js';
import type { TreasurySource } from '../upstream/payments.js';
import { reportOffer, type ReportType } from './catalog.js';
import { buildClimateReport, buildComplianceReport, type ComplianceReportInputs, type ComplianceReportParameters, type Report, type TreasuryReportParameters } from './domain/index.js';
import { buildEsgReport, buildMacroReport, buildTreasuryReport } from './domain/index.js';

/** Document 1 §8: a paid report is cached for 60 minutes. */
export const REPORT_CACHE_MS = 60 * 60_000;

export interface ReportsServiceDeps {
  clock: Clock;
  synthesiser: Synthesiser;
  access: Access;
  cache: AnswerCache;
  climate: ClimateSource;
  oracles: OracleReportSources;
  /** The compliance oracle's public interface (the compliance report). */
  compliance: ComplianceClient;
  /** The payments subgraph's aggregate of a month (the treasury report). */
  treasury: TreasurySource;
}

/** The subject of an ESG report: exactly one of a normalised LEI or wallet address. */
export type EsgSubject = { lei: string; address?: undefined } | { address: string; lei?: undefined };

/** The subject of a compliance report: an LEI, a name, or both (at least one). */
export type ComplianceSubject = { lei?: string; name?: string };

const ORACLE_SOURCES = {
  macro: ['Stability oracle GET /stability/reliability and /stability/api/history (docs/stability-model.md)'],
  esg: ['ESG oracle GET /esg/esg-score (docs/esg-oracle-methodology.md)', 'Compliance oracle entity ESG GET /compliance/esg/score (docs/entity-esg-methodology.md)'],
  compliance: ['Compliance oracle: GET /compliance/lei/:lei and /lei/search (LEI registry), POST /compliance/vendor-risk (sanctions, owners, FATF), POST /compliance/compliance/pep-screen (PEP)'],
  treasury: [
    'Payments subgraph: the settlement records and the settlement agent decisions of the month, GET /integration/treasury-summary (aggregate only, decision 0066)',
    'Corridor feedback: the settlement rate, volume and time to settle of each corridor, from the same records',
  ],
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

const countryOf = (jurisdiction: string | null | undefined) => (jurisdiction && /^[A-Z]{2}(-|$)/.test(jurisdiction) ? jurisdiction.slice(0, 2) : undefined);

/** What the compliance oracle holds on the subject: the registry record or look-alikes, the screens of its name, the datasets' provenance. */
async function complianceInputs(compliance: ComplianceClient, subject: ComplianceSubject): Promise<ComplianceReportInputs> {
  const [registry, candidates, datasets] = await Promise.all([
    subject.lei ? compliance.leiRecord(subject.lei) : Promise.resolve(undefined),
    subject.lei ? Promise.resolve(undefined) : compliance.leiSearch(subject.name!).then((answer) => answer.matches),
    compliance.referenceData(),
  ]);
  const screenedName = subject.name ?? registry?.legalName ?? null;
  const country = countryOf(registry?.jurisdiction);
  const where = country ? { country } : {};
  const [screen, pep] = screenedName
    ? await Promise.all([compliance.vendorScreen({ name: screenedName, ...(subject.lei ? { lei: subject.lei } : {}), ...where }), compliance.pepScreen({ name: screenedName, ...where })])
    : [null, null];
  return { subject, ...(registry === undefined ? {} : { registry }), ...(candidates ? { candidates } : {}), screenedName, screening: screen?.compliance ?? null, pep, datasets };
}

async function generateComplianceReport(deps: ReportsServiceDeps, subject: ComplianceSubject): Promise<Report> {
  const inputs = await complianceInputs(deps.compliance, subject);
  const sources = [...ORACLE_SOURCES.compliance, ...inputs.datasets.map((dataset) => `${dataset.source} (${dataset.url}), as of ${dataset.asOf}, ${dataset.licence}`)];
  return worded(deps.synthesiser, buildComplianceReport(inputs, deps.clock.now(), RULE_BASED_MODEL, complianceParameters as ComplianceReportParameters, sources), 'compliance report');
}

async function generateTreasuryReport(deps: ReportsServiceDeps, period: string): Promise<Report> {
  const summary = await deps.treasury.summary(period);
  return worded(deps.synthesiser, buildTreasuryReport(summary, deps.clock.now(), RULE_BASED_MODEL, treasuryParameters as TreasuryReportParameters, ORACLE_SOURCES.treasury), 'treasury report');
}

/** The month asked for, or the clock's; a month after the clock's has no records yet: 400. */
function treasuryPeriod(now: Date, period: string | undefined): string {
  const current = now.toISOString().slice(0, 7);
  if (period !== undefined && period > current) throw new AppError('GEN_ERR_BAD_REQUEST', { message: `period must not be after the current month (${current})` });
  return period ?? current;
}

/** One cache entry per subject: the LEI, and the name as the screens read it (case and spacing aside). */
const complianceKey = (subject: ComplianceSubject) => `compliance:lei:${subject.lei ?? ''}|name:${(subject.name ?? '').normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase()}`;

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
    complianceReport: (request: RequestContext, resource: string, subject: ComplianceSubject) =>
      paidReport('compliance', request, resource, complianceKey(subject), () => generateComplianceReport(deps, subject)),
    treasuryReport: async (request: RequestContext, resource: string, period: string | undefined) => {
      const month = treasuryPeriod(deps.clock.now(), period);
      return paidReport('treasury', request, resource, `treasury:${month}`, () => generateTreasuryReport(deps, month));
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
