import { describe, expect, it } from 'vitest';
import { entityEsgParameters, leiGovernanceFacts } from '../../data/entity-esg.js';
import { fatfLists } from '../../data/index.js';
import { fatfStatusOf } from '../../domain/index.js';
import { assessEntityEsg, type DeclaredEntityFacts, type EntityEsgSubject, entityEsgTierOf, narrateEntityEsg } from './entity-esg.js';

const parameters = entityEsgParameters();
const fatf = fatfLists().current;
const declared: DeclaredEntityFacts = { name: 'Declared Name Ltd', country: 'US', leiStatus: 'ISSUED' };
const UNKNOWN_LEI = '2138002Z2N3GIS5ZUN17';

/** A subject from the shipped GLEIF snapshot. */
function known(lei: string): EntityEsgSubject {
  const record = leiGovernanceFacts().get(lei);
  if (!record) throw new Error(`${lei} is not in the snapshot`);
  return { lei, record, declared, fatf };
}
const unknown = (facts: Partial<DeclaredEntityFacts>): EntityEsgSubject => ({ lei: UNKNOWN_LEI, record: null, declared: { ...declared, ...facts }, fatf });

describe('entity ESG tiers (Document 2 §3) and their fee surcharge', () => {
  // Surcharge = the rail's ESG fee at the tier's lowest score: (100 - score) / 2 bps (docs/fee-model.md), / 10,000 as a fraction.
  it.each([
    [100, 'EXCELLENT', 0.00075], // (100 - 85) / 2 = 7.5 bps
    [85, 'EXCELLENT', 0.00075],
    [84.9, 'GOOD', 0.0015], // (100 - 70) / 2 = 15 bps
    [70, 'GOOD', 0.0015],
    [69.9, 'AVERAGE', 0.0025], // (100 - 50) / 2 = 25 bps
    [50, 'AVERAGE', 0.0025],
    [49.9, 'BELOW_AVERAGE', 0.0035], // (100 - 30) / 2 = 35 bps
    [30, 'BELOW_AVERAGE', 0.0035],
    [29.9, 'POOR', 0.005], // (100 - 0) / 2 = 50 bps, the fee model's maximum
    [0, 'POOR', 0.005],
  ])('%s -> %s, surcharge %s', (score, tier, surcharge) => {
    expect(entityEsgTierOf(score, parameters)).toEqual({ tier, feeSurcharge: surcharge });
  });

  it('every surcharge is the fee formula at the tier floor', () => {
    for (const band of parameters.tiers) expect(band.feeSurcharge).toBeCloseTo((100 - band.minScore) / 2 / 10_000, 12);
  });
});

describe('FATF status of a jurisdiction (current lists)', () => {
  it.each([
    ['KP', 'CALL_FOR_ACTION'],
    ['ir', 'CALL_FOR_ACTION'],
    ['KE', 'INCREASED_MONITORING'],
    ['US', 'NOT_LISTED'],
  ])('%s -> %s', (country, status) => expect(fatfStatusOf(country, fatf)).toBe(status));
});

describe('assessEntityEsg over shipped GLEIF records', () => {
  // Weights: registration 0.3, corroboration 0.2, ownership transparency 0.2, jurisdiction 0.3.
  it.each([
    // ISSUED 100, FULLY_CORROBORATED 100, direct and ultimate REPORTED 100, SG not listed 100: G = 100; (50 + 50 + 100) / 3 = 66.7.
    ['2138001KPMR6PD83HC08', 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.', 100, 66.7, 'AVERAGE'],
    // Ownership: direct NON_PUBLIC 20, ultimate REPORTED 100 -> 60. G = 30 + 20 + 0.2 x 60 + 30 = 92; (50 + 50 + 92) / 3 = 64.
    ['254900LNRYNOQ9YPU758', 'Amazon Digital UK Limited', 92, 64, 'AVERAGE'],
    // Entity INACTIVE (RETIRED) -> registration 0. G = 0 + 20 + 20 + 30 = 70; 170 / 3 = 56.7.
    ['222100RB6N1EBY6GMD95', 'BLUE AMBER FUND MANAGEMENT S.A.', 70, 56.7, 'AVERAGE'],
    // LAPSED 30, FULLY_CORROBORATED 100, no parent facts (left out), SK not listed 100: G = (9 + 20 + 30) / 0.8 = 73.75 -> 73.8; 173.8 / 3 = 57.9.
    ['097900BID10000147476', 'ALFA REY s.r.o.', 73.8, 57.9, 'AVERAGE'],
  ])('%s (%s): governance %s, composite %s, %s, coverage PARTIAL', (lei, name, governance, composite, tier) => {
    const assessment = assessEntityEsg(known(lei), parameters);
    expect(assessment).toMatchObject({
      lei,
      entityName: name,
      governance,
      composite,
      feeTier: tier,
      environmental: 50,
      social: 50,
      coverage: 'PARTIAL',
      assessedPillars: ['governance'],
      methodology: 'entity-esg/1',
    });
  });

  it('names every input with its source and date, and every missing one', () => {
    const assessment = assessEntityEsg(known('254900LNRYNOQ9YPU758'), parameters);
    expect(assessment.inputs).toEqual([
      { pillar: 'governance', input: 'registration', value: 'ISSUED', score: 100, weight: 0.3, source: 'lei-record', asOf: '2025-05-15' },
      { pillar: 'governance', input: 'corroboration', value: 'FULLY_CORROBORATED', score: 100, weight: 0.2, source: 'lei-record', asOf: '2025-05-15' },
      { pillar: 'governance', input: 'ownershipTransparency', value: 'direct NON_PUBLIC, ultimate REPORTED', score: 60, weight: 0.2, source: 'lei-record', asOf: '2025-05-15' },
      { pillar: 'governance', input: 'jurisdiction', value: 'GB NOT_LISTED', score: 100, weight: 0.3, source: 'fatf-lists', asOf: fatf.statementDate },
    ]);
    expect(assessment.missingInputs).toEqual(['environmental (no shipped dataset)', 'social (no shipped dataset)']);
    expect(assessEntityEsg(known('097900BID10000147476'), parameters).missingInputs).toContain('governance.ownershipTransparency');
  });

  it('the declared facts are not used for an LEI the snapshot holds', () => {
    const subject = { ...known('2138001KPMR6PD83HC08'), declared: { name: 'Other', country: 'KP', leiStatus: 'RETIRED' } };
    expect(assessEntityEsg(subject, parameters)).toMatchObject({ entityName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.', governance: 100 });
  });
});

describe('assessEntityEsg for an LEI the snapshot does not hold: declared facts, coverage MINIMAL', () => {
  it.each([
    // ISSUED 100 (declared), US not listed 100: G = (30 + 30) / 0.6 = 100; 200 / 3 = 66.7.
    [{}, 100, 66.7, 'AVERAGE'],
    // ISSUED 100, KE increased monitoring 50: G = (30 + 15) / 0.6 = 75; 175 / 3 = 58.3.
    [{ country: 'KE' }, 75, 58.3, 'AVERAGE'],
    // ISSUED 100, IR call for action 0: G = 30 / 0.6 = 50; 150 / 3 = 50.
    [{ country: 'IR' }, 50, 50, 'AVERAGE'],
    // RETIRED 0, KP call for action 0: G = 0; 100 / 3 = 33.3.
    [{ country: 'KP', leiStatus: 'RETIRED' }, 0, 33.3, 'BELOW_AVERAGE'],
    // LAPSED 30, US 100: G = (9 + 30) / 0.6 = 65; 165 / 3 = 55.
    [{ leiStatus: 'LAPSED' }, 65, 55, 'AVERAGE'],
  ])('%j: governance %s, composite %s, %s', (facts, governance, composite, tier) => {
    const assessment = assessEntityEsg(unknown(facts), parameters);
    expect(assessment).toMatchObject({ entityName: 'Declared Name Ltd', governance, composite, feeTier: tier, coverage: 'MINIMAL' });
    expect(assessment.inputs.map((input) => input.source)).toEqual(['declared', 'fatf-lists']);
  });

  it('a declared status the model does not score is left out, not guessed (and __proto__ is not a status)', () => {
    for (const leiStatus of ['UNHEARD_OF', '__proto__', 'constructor']) {
      const assessment = assessEntityEsg(unknown({ leiStatus }), parameters);
      expect(assessment.inputs.map((input) => input.input)).toEqual(['jurisdiction']);
      expect(assessment.governance).toBe(100);
      expect(assessment.missingInputs).toContain('governance.registration');
    }
  });
});

describe('narrateEntityEsg', () => {
  it('says the score, tier, surcharge, the facts and what was not assessed, in three sentences', () => {
    const text = narrateEntityEsg(assessEntityEsg(known('2138001KPMR6PD83HC08'), parameters));
    expect(text).toBe(
      'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD. (2138001KPMR6PD83HC08) scores 66.7 of 100, tier AVERAGE, which carries an ESG fee surcharge of 25 bps. ' +
        'Governance scores 100 from registration ISSUED (100), corroboration FULLY_CORROBORATED (100), ownershipTransparency direct REPORTED, ultimate REPORTED (100), jurisdiction SG NOT_LISTED (100). ' +
        'The environmental and social pillars have no data and stand at the neutral scores, so coverage is PARTIAL.',
    );
  });
});
