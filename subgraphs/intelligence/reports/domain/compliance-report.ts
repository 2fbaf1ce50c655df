// The compliance report (Document 1 §2 "compliance: AML and sanctions screening, PEP check, Travel
// Rule status"; §4 sources: sanctions dataset, LEI registry, country-risk list, compliance oracle;
// decision 0066), composed by rules from the compliance oracle's public answers. Pure.

import { reportEnvelope } from './oracle-reports.js';
import type { DataQuality, Report, RiskLevel } from './types.js';

/** What the report reads of the compliance oracle (upstream/compliance.ts), the fields it uses. */
export interface ComplianceReportInputs {
  subject: { lei?: string; name?: string };
  /** GET /compliance/lei/:lei; null when the LEI is not in the registry snapshot; undefined when none was given. */
  registry?: { lei: string; legalName: string; leiStatus: string; jurisdiction: string | null; wallets: ReadonlyArray<{ registrationType: string }> } | null;
  /** GET /compliance/lei/search for a name alone: the registry's closest entities. */
  candidates?: ReadonlyArray<{ lei: string; legalName: string; leiStatus: string; jurisdiction: string | null; score: number }>;
  /** The name screened (the one given, else the registry's); null when neither is known. */
  screenedName: string | null;
  /** POST /compliance/vendor-risk: sanctions (name, owners), PEP and FATF in one verdict. */
  screening: { verdict: string; signals: readonly string[]; sanctions: boolean; pep: boolean; fatfBlacklist: boolean } | null;
  /** POST /compliance/compliance/pep-screen. */
  pep: {
    riskLevel: string;
    eddRequired: boolean;
    pepMatches: ReadonlyArray<{ matchedName: string; position: string; countryName: string; current: boolean; matchConfidence: string; score: number; source: string }>;
    fatfR12: { note: string };
  } | null;
  /** GET /compliance/reference-data: the provenance of every dataset the screens read. */
  datasets: ReadonlyArray<{ dataset: string; source: string; url: string; asOf: string; licence: string; records: number }>;
}

export interface ComplianceReportParameters {
  riskLevels: ReadonlyArray<{ level: RiskLevel; anyFlag?: readonly string[] }>;
  recommendations: Record<RiskLevel, string[]>;
  staleAfterDays: Record<string, number>;
}

export type TravelRuleStatus = 'CONFIRMABLE' | 'NOT_CONFIRMABLE' | 'UNDETERMINED';

const DAY_MS = 86_400_000;
const countryOf = (jurisdiction: string | null | undefined) => (jurisdiction && /^[A-Z]{2}(-|$)/.test(jurisdiction) ? jurisdiction.slice(0, 2) : null);

/**
 * FATF R.16 (Travel Rule) readiness of a payment to the entity on this rail: a wallet registered
 * under its LEI makes the VoP of a payment that names the LEI an LEI match, which attests the
 * beneficiary; no registered wallet leaves it unconfirmed; without a registry record, undetermined.
 */
export function travelRuleOf(registry: ComplianceReportInputs['registry']): { status: TravelRuleStatus; registeredWallets: number; registryVerified: number; note: string } {
  if (!registry)
    return { status: 'UNDETERMINED', registeredWallets: 0, registryVerified: 0, note: 'No LEI registry record: the beneficiary of a payment to this name cannot be confirmed by LEI; give the LEI.' };
  const registeredWallets = registry.wallets.length;
  const registryVerified = registry.wallets.filter((wallet) => wallet.registrationType === 'REGISTRY_VERIFIED').length;
  return registeredWallets > 0
    ? {
        status: 'CONFIRMABLE',
        registeredWallets,
        registryVerified,
        note: `A payment naming LEI ${registry.lei} to one of its ${registeredWallets} registered wallets is an LEI match: FATF R.16 attested.`,
      }
    : {
        status: 'NOT_CONFIRMABLE',
        registeredWallets,
        registryVerified,
        note: 'No wallet is registered under this LEI: a payment to the entity would go with its beneficiary unconfirmed (FATF R.16 not met).',
      };
}

/** Every flag the report raises, in the vocabulary of compliance-report.json. */
export function complianceFlags(inputs: ComplianceReportInputs, travelRule: TravelRuleStatus): string[] {
  const flags = [...(inputs.screening?.signals ?? [])];
  if (inputs.pep?.riskLevel === 'HIGH') flags.push('PEP_HIGH');
  if (inputs.registry === null) flags.push('LEI_NOT_FOUND');
  // The registry's status: ACTIVE, the entity's INACTIVE, or a registration status such as LAPSED.
  const status = inputs.registry?.leiStatus;
  if (status === 'INACTIVE') flags.push('ENTITY_INACTIVE');
  else if (status !== undefined && status !== 'ACTIVE' && status !== 'ISSUED') flags.push(`LEI_${status}`);
  if (!inputs.screening) flags.push('NOT_SCREENED');
  flags.push(`TRAVEL_RULE_${travelRule}`);
  return [...new Set(flags)];
}

export function complianceRiskLevel(flags: readonly string[], parameters: ComplianceReportParameters): RiskLevel {
  for (const rule of parameters.riskLevels) {
    if (rule.anyFlag === undefined || rule.anyFlag.some((flag) => flags.includes(flag))) return rule.level;
  }
  throw new Error('riskLevels must end with a rule without flags');
}

/** The reference datasets with their age: a list older than staleAfterDays makes the report ESTIMATED. */
function datasetsOf(inputs: ComplianceReportInputs, now: Date, parameters: ComplianceReportParameters) {
  return inputs.datasets.map((dataset) => {
    const limit = Object.hasOwn(parameters.staleAfterDays, dataset.dataset) ? parameters.staleAfterDays[dataset.dataset]! : undefined;
    const age = Math.floor((now.getTime() - Date.parse(`${dataset.asOf}T00:00:00Z`)) / DAY_MS);
    return { ...dataset, stale: limit !== undefined && (Number.isNaN(age) || age > limit) };
  });
}

function narrativeOf(inputs: ComplianceReportInputs, travelRule: ReturnType<typeof travelRuleOf>, country: string | null): Record<string, string> {
  const { screening, pep, registry } = inputs;
  const fatf = screening?.signals.includes('FATF_BLACKLIST_JURISDICTION')
    ? 'on the FATF call-for-action list'
    : screening?.signals.includes('FATF_GREYLIST_JURISDICTION')
      ? 'under FATF increased monitoring'
      : 'on neither FATF list';
  return {
    'Sanctions screening': screening
      ? `${inputs.screenedName} and its reported owners were screened against the OFAC SDN list: verdict ${screening.verdict}${screening.sanctions ? ', sanctions exposure found' : ', no sanctions match'}.`
      : 'Not screened: neither a name was given nor one found in the LEI registry.',
    'PEP check': pep
      ? `PEP risk ${pep.riskLevel}, ${pep.pepMatches.length} match(es) at 0.60 or above; enhanced due diligence ${pep.eddRequired ? 'required' : 'not required'}. ${pep.fatfR12.note}`
      : 'Not screened.',
    'Country risk': country ? `Jurisdiction ${country}: ${fatf}.` : 'No jurisdiction known: give the LEI to read the country risk.',
    'LEI registry': registry
      ? `${registry.legalName} (${registry.lei}), registration ${registry.leiStatus}, jurisdiction ${registry.jurisdiction ?? 'not stated'}.`
      : registry === null
        ? 'The LEI is not in the registry snapshot.'
        : `No LEI given; ${inputs.candidates?.length ?? 0} registry entities resemble the name.`,
    'Travel Rule': `${travelRule.status}: ${travelRule.note}`,
  };
}

export function buildComplianceReport(inputs: ComplianceReportInputs, now: Date, model: string, parameters: ComplianceReportParameters, sources: string[]): Report {
  const travelRule = travelRuleOf(inputs.registry);
  const flags = complianceFlags(inputs, travelRule.status);
  const riskLevel = complianceRiskLevel(flags, parameters);
  const datasets = datasetsOf(inputs, now, parameters);
  const country = countryOf(inputs.registry?.jurisdiction);
  // Not screened is a source that could not speak; stale lists are historical data.
  const dataQuality: DataQuality = !inputs.screening || !inputs.pep ? 'PARTIAL' : datasets.some((dataset) => dataset.stale) ? 'ESTIMATED' : 'LIVE';
  const subject = inputs.subject.lei ?? inputs.subject.name ?? '';
  return reportEnvelope(
    'compliance',
    now,
    {
      summary: `Compliance screen of ${inputs.screenedName ?? subject}${inputs.subject.lei ? ` (${inputs.subject.lei})` : ''}: verdict ${inputs.screening?.verdict ?? 'NOT_SCREENED'}, PEP risk ${inputs.pep?.riskLevel ?? 'not screened'}, Travel Rule ${travelRule.status}; risk ${riskLevel}.`,
      keyFindings: flags,
      riskLevel,
      narrative: narrativeOf(inputs, travelRule, country),
      recommendations: parameters.recommendations[riskLevel],
      dataQuality,
      model,
    },
    {
      subject: inputs.subject,
      screenedName: inputs.screenedName,
      registry:
        inputs.registry === undefined
          ? null
          : inputs.registry && { lei: inputs.registry.lei, legalName: inputs.registry.legalName, leiStatus: inputs.registry.leiStatus, jurisdiction: inputs.registry.jurisdiction },
      candidates: inputs.candidates ?? [],
      screening: inputs.screening,
      pep: inputs.pep && { riskLevel: inputs.pep.riskLevel, eddRequired: inputs.pep.eddRequired, matches: inputs.pep.pepMatches },
      countryRisk: { jurisdiction: country, fatfFlags: flags.filter((flag) => flag.startsWith('FATF_')) },
      travelRule,
      flags,
      datasets,
    },
    sources,
  );
}
