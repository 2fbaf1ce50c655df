import { describe, expect, it } from 'vitest';
import parametersJson from '../../data/parameters/esg.json' with { type: 'json' };
import { computeEntityEsg, type EntityEsgRecord, type EsgEvidence, type EsgParameters } from './index.js';

const parameters = parametersJson as EsgParameters;
const LEI = '2138001KPMR6PD83HC08';

/** The oracle's record as entity-esg/1 answers it today: governance from data, E and S at the neutral 50. */
function record(governance: number, inputs: EntityEsgRecord['inputs'] = [], missingInputs: string[] = []): EntityEsgRecord {
  return { lei: LEI, entityName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.', environmental: 50, social: 50, governance, assessedPillars: ['governance'], inputs, missingInputs };
}

/** A record with every pillar assessed at `score` (not reachable with today's data; tests the ladders). */
function everyPillarAt(score: number): EntityEsgRecord {
  return { ...record(score), environmental: score, social: score, assessedPillars: ['environmental', 'social', 'governance'] };
}

const clean = { verdict: 'APPROVED' as const, signals: [] };
const ofac = { dataset: 'ofacSdn', url: 'https://sanctionslistservice.ofac.treas.gov/', asOf: '2023-12-28', licence: 'Public domain' };

function byLei(entity: EntityEsgRecord | null, screening: EsgEvidence['screening'] = clean): EsgEvidence {
  return { subject: { kind: 'lei', lei: LEI }, entity, screening, datasets: [ofac] };
}

describe('computeEntityEsg: the composite', () => {
  it('weights the environment most: 0.45 x 50 + 0.25 x 50 + 0.30 x 100 = 22.5 + 12.5 + 30 = 65, AVERAGE, STANDARD', () => {
    const { body, missing } = computeEntityEsg(byLei(record(100)), parameters);
    expect(body).toEqual({
      esgScore: 65,
      tier: 'AVERAGE',
      components: {
        environmental: { score: 50, violations: null, riskLevel: 'UNASSESSED' },
        governance: { score: 100, riskLevel: 'LOW' },
        social: { score: 50, incidents: null, riskLevel: 'UNASSESSED' },
      },
      flags: ['ENVIRONMENTAL_UNASSESSED', 'SOCIAL_UNASSESSED'],
      recommendedTier: 'STANDARD',
      entity: { lei: LEI, legalName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.' },
    });
    expect(missing).toEqual([parameters.missingInputs.environmental, parameters.missingInputs.social]);
  });

  it('governance 73.8 (a lapsed LEI): 22.5 + 12.5 + 0.30 x 73.8 = 35 + 22.14 = 57.14, rounded 57.1', () => {
    const lapsed = record(73.8, [{ pillar: 'governance', input: 'registration', value: 'LAPSED', score: 30 }], ['governance.ownershipTransparency']);
    const { body, missing } = computeEntityEsg(byLei(lapsed), parameters);
    expect(body.esgScore).toBe(57.1);
    expect(body.flags).toEqual(['LEI_LAPSED', 'ENVIRONMENTAL_UNASSESSED', 'SOCIAL_UNASSESSED']);
    expect(missing).toContain('governance.ownershipTransparency');
  });

  it('a sanctions match sets governance to 0: 22.5 + 12.5 + 0 = 35, BELOW_AVERAGE, RESTRICTED', () => {
    const { body } = computeEntityEsg(byLei(record(100), { verdict: 'BLOCKED', signals: ['SANCTIONS_MATCH'] }), parameters);
    expect(body).toMatchObject({ esgScore: 35, tier: 'BELOW_AVERAGE', recommendedTier: 'RESTRICTED', components: { governance: { score: 0, riskLevel: 'HIGH' } } });
    expect(body.flags[0]).toBe('SANCTIONS_MATCH');
  });
});

describe('computeEntityEsg: ladders at their bounds', () => {
  it.each([
    [85, 'EXCELLENT'],
    [84.9, 'GOOD'],
    [70, 'GOOD'],
    [69.9, 'AVERAGE'],
    [50, 'AVERAGE'],
    [49.9, 'BELOW_AVERAGE'],
    [30, 'BELOW_AVERAGE'],
    [29.9, 'POOR'],
  ])('every pillar at %s: esgScore %s (the weights sum to 1), tier %s', (score, tier) => {
    const { body } = computeEntityEsg(byLei(everyPillarAt(score)), parameters);
    expect([body.esgScore, body.tier]).toEqual([score, tier]);
  });

  it.each([
    [70, 'LOW'],
    [69.9, 'MODERATE'],
    [50, 'MODERATE'],
    [49.9, 'ELEVATED'],
    [30, 'ELEVATED'],
    [29.9, 'HIGH'],
  ])('a pillar at %s has riskLevel %s', (score, level) => {
    expect(computeEntityEsg(byLei(record(score)), parameters).body.components.governance.riskLevel).toBe(level);
  });

  it('recommendedTier: ENHANCED_MONITORING under 50, STANDARD at 50', () => {
    expect(computeEntityEsg(byLei(everyPillarAt(49.9)), parameters).body.recommendedTier).toBe('ENHANCED_MONITORING');
    expect(computeEntityEsg(byLei(everyPillarAt(50)), parameters).body.recommendedTier).toBe('STANDARD');
  });

  it('recommendedTier: flags first, from the top (a black list restricts, a PEP or grey list asks for due diligence)', () => {
    const of = (signals: string[]) => computeEntityEsg(byLei(everyPillarAt(90), { verdict: 'FLAGGED', signals }), parameters).body.recommendedTier;
    expect(of(['PEP_MATCH'])).toBe('ENHANCED_DUE_DILIGENCE');
    expect(of(['FATF_GREYLIST_JURISDICTION', 'FATF_BLACKLIST_JURISDICTION'])).toBe('RESTRICTED');
  });
});

describe('computeEntityEsg: flags from the registry facts', () => {
  it('reads an inactive entity, weak corroboration, a withheld parent and a grey-listed jurisdiction', () => {
    const entity = record(40, [
      { pillar: 'governance', input: 'registration', value: 'RETIRED (entity INACTIVE)', score: 0 },
      { pillar: 'governance', input: 'corroboration', value: 'ENTITY_SUPPLIED_ONLY', score: 30 },
      { pillar: 'governance', input: 'ownershipTransparency', value: 'direct NON_PUBLIC', score: 20 },
      { pillar: 'governance', input: 'jurisdiction', value: 'NG INCREASED_MONITORING', score: 50 },
    ]);
    const { body } = computeEntityEsg(byLei(entity), parameters);
    expect(body.flags).toEqual(['ENTITY_INACTIVE', 'LEI_ENTITY_SUPPLIED_ONLY', 'PARENT_NOT_DISCLOSED', 'FATF_GREYLIST_JURISDICTION', 'ENVIRONMENTAL_UNASSESSED', 'SOCIAL_UNASSESSED']);
    expect(body.recommendedTier).toBe('ENHANCED_DUE_DILIGENCE');
  });
});

describe('computeEntityEsg: subjects the oracle holds no entity for', () => {
  it('an unregistered wallet: every pillar neutral, 50, AVERAGE, due diligence, no entity', () => {
    const evidence: EsgEvidence = { subject: { kind: 'wallet', address: `0x${'ab'.repeat(20)}` }, registration: null, entity: null, screening: clean, datasets: [] };
    const { body, missing } = computeEntityEsg(evidence, parameters);
    expect(body).toMatchObject({ esgScore: 50, tier: 'AVERAGE', recommendedTier: 'ENHANCED_DUE_DILIGENCE', entity: null });
    expect(body.flags).toEqual(['WALLET_NOT_REGISTERED', 'ENVIRONMENTAL_UNASSESSED', 'SOCIAL_UNASSESSED', 'GOVERNANCE_UNASSESSED']);
    expect(missing).toContain("the wallet's entity: the wallet is not registered with the compliance oracle");
  });

  it('a wallet registered without an LEI names its entity; an LEI outside the snapshot is not screened', () => {
    const wallet: EsgEvidence = { subject: { kind: 'wallet', address: `0x${'ab'.repeat(20)}` }, registration: { legalName: 'Acme Ltd', lei: null }, entity: null, screening: clean, datasets: [] };
    expect(computeEntityEsg(wallet, parameters).body).toMatchObject({ entity: { lei: null, legalName: 'Acme Ltd' }, flags: expect.arrayContaining(['WALLET_WITHOUT_LEI']) });
    const unknown = computeEntityEsg(byLei(null, null), parameters);
    expect(unknown.body.flags).toContain('LEI_NOT_IN_REGISTRY');
    expect(unknown.missing).toContain('sanctions and PEP screening: no legal name is known for the subject');
  });
});

describe('computeEntityEsg: inputs', () => {
  it('maps each dated reference dataset to an input with the publisher and rhythm of the parameters, live false', () => {
    const evidence = { ...byLei(record(100)), datasets: [ofac, { dataset: 'unknown', url: 'https://x.example', asOf: '2026-01-01', licence: 'x' }] };
    expect(computeEntityEsg(evidence, parameters).inputs).toEqual([
      { id: 'compliance:ofacSdn', ...parameters.datasets.ofacSdn, url: ofac.url, licence: ofac.licence, asOf: '2023-12-28', live: false },
    ]);
  });
});
