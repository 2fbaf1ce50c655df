import { describe, expect, it } from 'vitest';
import { assessNameDiscrepancy } from './gray-zone.js';
import { type PayeeNameMatcher, type RegisteredEntity, verifyPayee } from './verify-payee.js';

/** A matcher with fixed similarities, so each test states the score it exercises. */
function fixedMatcher(similarities: Record<string, number>): PayeeNameMatcher {
  return {
    similarity: (submitted, registered) => similarities[`${submitted}|${registered}`] ?? 0,
    resultForScore: (score) => (score >= 90 ? 'VERIFIED' : score >= 75 ? 'PROCEED_HIGH_CONFIDENCE' : score >= 55 ? 'PROCEED_FLAGGED' : score >= 35 ? 'PROCEED_UNVERIFIED' : 'BLOCKED'),
  };
}

const registration: RegisteredEntity = {
  walletAddress: '0x976ea74026e726554db657fa54763abd0c3a0aa9',
  legalName: 'Acme Trading GmbH',
  aliases: ['Acme Handel'],
  lei: '5493001KJTIIGC8Y1R12',
  leiStatus: 'ACTIVE',
};

describe('verifyPayee', () => {
  it('NOT_REGISTERED proceeds with no score and no R.16 confirmation', () => {
    const answer = verifyPayee({ registration: undefined, submittedName: 'Anyone' }, fixedMatcher({}));
    expect(answer).toMatchObject({ result: 'NOT_REGISTERED', proceedSafe: true, score: null, resolvedBy: 'NOT_REGISTERED', registeredName: null, attestation: { fatfR16Compliant: false } });
  });

  it('an LEI equal to the registration bypasses the name: LEI_MATCH when active, LEI_INACTIVE when lapsed', () => {
    const matcher = fixedMatcher({});
    expect(verifyPayee({ registration, submittedName: 'Totally different', submittedLei: '5493001kjtiigc8y1r12' }, matcher)).toMatchObject({
      result: 'LEI_MATCH',
      score: 100,
      resolvedBy: 'LEI_EXACT_MATCH',
      proceedSafe: true,
      registeredLei: registration.lei,
      attestation: { fatfR16Compliant: true },
    });
    expect(verifyPayee({ registration: { ...registration, leiStatus: 'LAPSED' }, submittedName: 'x', submittedLei: registration.lei! }, matcher)).toMatchObject({
      result: 'LEI_INACTIVE',
      score: 100,
      leiStatus: 'LAPSED',
      proceedSafe: true,
    });
  });

  it('another LEI falls back to the name', () => {
    const answer = verifyPayee({ registration, submittedName: 'Acme Trading', submittedLei: '529900T8BM49AURSDO55' }, fixedMatcher({ 'Acme Trading|Acme Trading GmbH': 0.95 }));
    expect(answer).toMatchObject({ result: 'VERIFIED', score: 95, resolvedBy: 'LEGAL_NAME_MATCH' });
  });

  it.each([
    [0.9, 'VERIFIED', true, true],
    [0.8999, 'PROCEED_HIGH_CONFIDENCE', true, true],
    [0.75, 'PROCEED_HIGH_CONFIDENCE', true, true],
    [0.7499, 'PROCEED_FLAGGED', true, false],
    [0.55, 'PROCEED_FLAGGED', true, false],
    [0.5499, 'PROCEED_UNVERIFIED', true, false],
    [0.35, 'PROCEED_UNVERIFIED', true, false],
    [0.3499, 'BLOCKED', false, false],
  ])('similarity %s is %s (proceedSafe %s, R.16 confirmed %s)', (similarity, result, proceedSafe, confirmed) => {
    const answer = verifyPayee({ registration, submittedName: 'N', submittedLei: undefined }, fixedMatcher({ 'N|Acme Trading GmbH': similarity }));
    expect(answer).toMatchObject({ result, proceedSafe, score: Math.round(similarity * 10_000) / 100, attestation: { fatfR16Compliant: confirmed } });
  });

  it('takes the best of the legal name and the aliases, and says which matched', () => {
    const answer = verifyPayee({ registration, submittedName: 'Acme Handel', submittedLei: undefined }, fixedMatcher({ 'Acme Handel|Acme Trading GmbH': 0.5, 'Acme Handel|Acme Handel': 1 }));
    expect(answer).toMatchObject({ result: 'VERIFIED', score: 100, resolvedBy: 'ALIAS_MATCH', matchedName: 'Acme Handel', registeredName: 'Acme Trading GmbH' });
  });
});

describe('assessNameDiscrepancy', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it.each([
    [['acme', 'trading'], ['acme', 'trading'], 60, 'LIKELY_CORRECT', 'HIGH', 'PROCEED'],
    [['acme'], ['acme', 'trading'], 60, 'LIKELY_CORRECT', 'MEDIUM', 'PROCEED_WITH_CAUTION'],
    [['acme', 'tradng'], ['acme', 'trading'], 60, 'UNCERTAIN', 'MEDIUM', 'PROCEED_WITH_CAUTION'],
    [['akme', 'tradng'], ['acme', 'trading'], 56, 'UNCERTAIN', 'MEDIUM', 'PROCEED_WITH_CAUTION'],
    [['globex'], ['acme', 'trading'], 40, 'LIKELY_WRONG', 'MEDIUM', 'MANUAL_REVIEW'],
  ])('%j against %j (score %s): %s', (submittedTokens, registeredTokens, score, assessment, confidence, proceedRecommendation) => {
    expect(assessNameDiscrepancy({ submitted: 's', registered: 'r', submittedTokens, registeredTokens }, score, now)).toMatchObject({
      assessment,
      confidence,
      proceedRecommendation,
      processedAt: 1795348800,
    });
  });
});
