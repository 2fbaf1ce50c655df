import { describe, expect, it } from 'vitest';
import type { AmlOutcome, FlowStep, ResultFrame, VopOutcome } from './index.js';
import { canTransition, complianceOf, finalResult, isFinalStatus, pendingResult, usdcAmountOf, usdcTextOfUnits, usdcUnitsOf } from './index.js';
import type { PaymentStatus } from './payment.js';

const STATUSES: PaymentStatus[] = ['PENDING', 'SETTLED', 'BLOCKED', 'FAILED'];

describe('status transitions', () => {
  it.each(STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const)))('%s -> %s', (from, to) => {
    // Only PENDING moves, and only to a final status; final statuses never change.
    expect(canTransition(from, to)).toBe(from === 'PENDING' && to !== 'PENDING');
  });
  it.each(STATUSES)('%s is final unless PENDING', (status) => expect(isFinalStatus(status)).toBe(status !== 'PENDING'));
});

describe('USDC amounts', () => {
  it.each([
    ['1250.50', '1', '1250.5'], // 1250.50 x 1
    ['100', '1.0845', '108.45'], // 100 x 1.0845
    ['0.00001', '0.5', '0.000005'], // exactly 6 decimals
    ['0.0000025', '1', '0.000002'], // 2.5 base units: half-even to 2
    ['0.0000035', '1', '0.000004'], // 3.5 base units: half-even to 4
    ['1.23456789', '3', '3.703704'], // 3.70370367 -> 3.703704
  ])('%s at %s is %s USDC', (amount, rate, usdc) => expect(usdcAmountOf(amount, rate)).toBe(usdc));

  it.each([
    [1_250_500_000n, '1250.5'],
    [1n, '0.000001'],
    [3_000_000n, '3'],
    [0n, '0'],
  ])('%s base units read %s, and back', (units, text) => {
    expect(usdcTextOfUnits(units)).toBe(text);
    expect(usdcUnitsOf(text)).toBe(units);
  });
});

const frame: ResultFrame = {
  railPaymentId: 'pay_1',
  payment: { tmsReference: 'T-1', amount: '10.00', currency: 'USD', settlementAsset: 'USDC', creditor: { name: 'C', walletAddress: '0xC' }, debtor: { name: 'D', walletAddress: '0xD' } },
  submittedAt: 1000,
  network: 'embedded-base',
};
const vop = (result: string, fatfR16Compliant: boolean, score: number | null = 100): VopOutcome => ({
  requestId: 'r',
  result,
  proceedSafe: result !== 'BLOCKED',
  score,
  resolvedBy: 'LEI_EXACT_MATCH',
  message: 'm',
  attestation: { fatfR16Compliant, regulatoryNote: `FATF R.16: ${result}.` },
});
const aml = (action: AmlOutcome['action'], sanctionsHit = false): AmlOutcome => ({
  action,
  riskScore: 10,
  riskTier: 'LOW',
  sanctionsHit,
  ...(action === 'FLAG' ? { recommendation: 'PROCEED_WITH_REVIEW' } : {}),
});
const settled = (v: VopOutcome, a: AmlOutcome): FlowStep => ({ kind: 'settled', vop: v, aml: a, settlement: { txHash: '0xabc', fee: '0.01', exchangeRate: '1' }, settledAt: 1001 });

describe('the attestation', () => {
  it.each([
    ['verified, AML clear: every flag met', settled(vop('LEI_MATCH', true), aml('PROCEED')), [true, true, true]],
    ['verified, AML FLAG: proceeds, flags met, the flag in the note', settled(vop('VERIFIED', true), aml('FLAG')), [true, true, true]],
    ['not registered: R.16 and MiCA not met (beneficiary unverified), GENIUS met', settled(vop('NOT_REGISTERED', false, null), aml('PROCEED')), [false, false, true]],
    ['a sanctions hit that did not block: GENIUS not met', settled(vop('VERIFIED', true), aml('PROCEED', true)), [true, true, false]],
    ['VoP BLOCKED: nothing attested', { kind: 'vop-blocked', vop: vop('BLOCKED', false, 20) } as FlowStep, [false, false, false]],
    ['AML BLOCK: nothing attested', { kind: 'aml-blocked', vop: vop('VERIFIED', true), aml: aml('BLOCK', true) } as FlowStep, [false, false, false]],
    ['FAILED: nothing attested', { kind: 'failed', reason: 'the rail failed.' } as FlowStep, [false, false, false]],
  ])('%s', (_name, step, [fatf, mica, genius]) => {
    const compliance = complianceOf(step);
    expect([compliance.fatfR16Compliant, compliance.micaCompliant, compliance.geniusCompliant]).toEqual([fatf, mica, genius]);
    expect(compliance.regulatoryNote.length).toBeGreaterThan(0);
  });

  it('notes the AML flag and the VoP result', () => {
    const note = complianceOf(settled(vop('PROCEED_FLAGGED', true, 60), aml('FLAG'))).regulatoryNote;
    expect(note).toContain('VoP PROCEED_FLAGGED (score 60)');
    expect(note).toContain('flagged for review (PROCEED_WITH_REVIEW); the payment proceeded with the flag recorded.');
  });
});

describe('results', () => {
  it('pending: the request echoed, nothing settled', () => {
    expect(pendingResult(frame)).toMatchObject({
      status: 'PENDING',
      settledAt: 0,
      settlement: { txHash: '', amount: '10.00', currency: 'USD', asset: 'USDC', network: 'embedded-base', exchangeRate: '', fee: '' },
    });
  });
  it('settled: the settlement, NOT_REGISTERED score recorded as 0', () => {
    const result = finalResult(frame, settled(vop('NOT_REGISTERED', false, null), aml('PROCEED')));
    expect(result).toMatchObject({ status: 'SETTLED', settledAt: 1001, settlement: { txHash: '0xabc', fee: '0.01', exchangeRate: '1' }, vop: { score: 0, result: 'NOT_REGISTERED' } });
  });
  it('failed after sending keeps the transaction hash', () => {
    expect(finalResult(frame, { kind: 'failed', reason: 'reverted.', txHash: '0xdef', exchangeRate: '1' }).settlement).toMatchObject({ txHash: '0xdef', exchangeRate: '1', fee: '' });
  });
});
