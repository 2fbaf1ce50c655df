import { describe, expect, it } from 'vitest';
import parametersJson from '../../data/parameters/compliance-report.json' with { type: 'json' };
import { buildComplianceReport, complianceFlags, type ComplianceReportInputs, type ComplianceReportParameters, complianceRiskLevel, travelRuleOf } from './index.js';

const parameters = parametersJson as ComplianceReportParameters;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const LEI = '2138001KPMR6PD83HC08';
const registry = { lei: LEI, legalName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.', leiStatus: 'ACTIVE', jurisdiction: 'SG', wallets: [{ registrationType: 'REGISTRY_VERIFIED' }] };
const pep = { riskLevel: 'NONE', eddRequired: false, pepMatches: [], fatfR12: { note: 'No PEP identified.' } };

function inputs(overrides: Partial<ComplianceReportInputs> = {}): ComplianceReportInputs {
  return {
    subject: { lei: LEI },
    registry,
    screenedName: registry.legalName,
    screening: { verdict: 'APPROVED', signals: [], sanctions: false, pep: false, fatfBlacklist: false },
    pep,
    datasets: [{ dataset: 'ofacSdn', source: 'OFAC SDN', url: 'https://ofac.example', asOf: '2026-11-01', licence: 'Public domain', records: 13821 }],
    ...overrides,
  };
}

describe('complianceRiskLevel: the first rule from the top whose flags are raised', () => {
  it.each([
    [['SANCTIONS_MATCH', 'PEP_MATCH'], 'CRITICAL'],
    [['FATF_BLACKLIST_JURISDICTION'], 'CRITICAL'],
    [['SANCTIONS_NEAR_MATCH'], 'HIGH'],
    [['PEP_HIGH', 'PEP_MATCH'], 'HIGH'],
    [['PEP_MATCH'], 'ELEVATED'],
    [['FATF_GREYLIST_JURISDICTION'], 'ELEVATED'],
    [['TRAVEL_RULE_NOT_CONFIRMABLE'], 'MODERATE'],
    [['LEI_LAPSED'], 'MODERATE'],
    [['TRAVEL_RULE_CONFIRMABLE'], 'LOW'],
  ])('%j: %s', (flags, level) => {
    expect(complianceRiskLevel(flags, parameters)).toBe(level);
  });
});

describe('travelRuleOf', () => {
  it('a registered wallet makes the beneficiary confirmable; none does not; no record is undetermined', () => {
    expect(travelRuleOf(registry)).toMatchObject({ status: 'CONFIRMABLE', registeredWallets: 1, registryVerified: 1 });
    expect(travelRuleOf({ ...registry, wallets: [] }).status).toBe('NOT_CONFIRMABLE');
    expect(travelRuleOf(null).status).toBe('UNDETERMINED');
    expect(travelRuleOf(undefined).status).toBe('UNDETERMINED');
  });
});

describe('complianceFlags', () => {
  it('reads the screen, the PEP risk and the registry status', () => {
    const flagged = inputs({
      registry: { ...registry, leiStatus: 'LAPSED' },
      pep: { ...pep, riskLevel: 'HIGH' },
      screening: { verdict: 'FLAGGED', signals: ['PEP_MATCH'], sanctions: false, pep: true, fatfBlacklist: false },
    });
    expect(complianceFlags(flagged, 'CONFIRMABLE')).toEqual(['PEP_MATCH', 'PEP_HIGH', 'LEI_LAPSED', 'TRAVEL_RULE_CONFIRMABLE']);
    expect(complianceFlags(inputs({ registry: { ...registry, leiStatus: 'INACTIVE' } }), 'CONFIRMABLE')).toContain('ENTITY_INACTIVE');
    expect(complianceFlags(inputs({ registry: null, screening: null, pep: null }), 'UNDETERMINED')).toEqual(['LEI_NOT_FOUND', 'NOT_SCREENED', 'TRAVEL_RULE_UNDETERMINED']);
  });
});

describe('buildComplianceReport', () => {
  it('a clean, registered entity screened against fresh lists: LOW, LIVE', () => {
    const report = buildComplianceReport(inputs(), NOW, 'rule-based', parameters, ['oracle']);
    expect(report).toMatchObject({ reportType: 'compliance', period: '2026-11', synthesis: { riskLevel: 'LOW', dataQuality: 'LIVE', keyFindings: ['TRAVEL_RULE_CONFIRMABLE'] } });
    expect(report.data).toMatchObject({ countryRisk: { jurisdiction: 'SG', fatfFlags: [] }, travelRule: { status: 'CONFIRMABLE' } });
  });

  it('an OFAC list older than 30 days makes it ESTIMATED (31 days: stale; 30: not)', () => {
    const dated = (asOf: string) => inputs({ datasets: [{ ...inputs().datasets[0]!, asOf }] });
    expect(buildComplianceReport(dated('2026-10-22'), NOW, 'rule-based', parameters, []).synthesis.dataQuality).toBe('ESTIMATED');
    expect(buildComplianceReport(dated('2026-10-23'), NOW, 'rule-based', parameters, []).synthesis.dataQuality).toBe('LIVE');
  });

  it('nothing to screen (an LEI outside the registry, no name): PARTIAL, MODERATE', () => {
    const report = buildComplianceReport(inputs({ registry: null, screenedName: null, screening: null, pep: null }), NOW, 'rule-based', parameters, []);
    expect(report.synthesis).toMatchObject({ riskLevel: 'MODERATE', dataQuality: 'PARTIAL' });
    expect(report.synthesis.narrative['Sanctions screening']).toMatch(/^Not screened/);
  });
});
