import { describe, expect, it } from 'vitest';
import type { SettlingRecord } from '../../domain/index.js';
import { recoverableFrom, recoveredStep } from './rules.js';

const delays = { beforeSettlingMs: 300_000, afterSettlingMs: 600_000 };
const vop = { requestId: 'vop_1', result: 'VERIFIED', proceedSafe: true, score: 100, resolvedBy: 'LEI_EXACT_MATCH', message: 'ok', attestation: { fatfR16Compliant: true, regulatoryNote: 'note' } };
const aml = { action: 'PROCEED' as const, riskScore: 12, riskTier: 'LOW', sanctionsHit: false };
const settling: SettlingRecord = { quoteId: 'srq-1-abc', vop, aml, exchangeRate: '1', recordedAtMs: 1_000_000 };

describe('recoverableFrom', () => {
  it.each([
    // nothing recorded: the last step (claim at 1,000,000 ms) + 300,000 = 1,300,000
    { lastStepMs: 1_000_000, settling: null, expected: 1_300_000 },
    // recorded at 1,000,000 ms: + 600,000 = 1,600,000, whatever the last step says
    { lastStepMs: 900_000, settling, expected: 1_600_000 },
  ])('$expected for a payment last stepped at $lastStepMs', ({ lastStepMs, settling: record, expected }) => {
    expect(recoverableFrom(lastStepMs, record, delays)).toBe(expected);
  });
});

describe('recoveredStep', () => {
  it('nothing recorded: FAILED without screening, nothing was sent', () => {
    expect(recoveredStep(null, null)).toEqual({ kind: 'failed', reason: expect.stringContaining('stopped before its settlement was sent') });
  });

  it('recorded and settled on chain: SETTLED with the chain tx, fee and time and the recorded screening', () => {
    const onChain = { txHash: '0xabc', fee: '0.012000', settledAt: 1_700_000_000 };
    expect(recoveredStep(settling, onChain)).toEqual({ kind: 'settled', vop, aml, settlement: { txHash: '0xabc', fee: '0.012000', exchangeRate: '1' }, settledAt: 1_700_000_000 });
  });

  it('recorded and not settled on chain: FAILED with the recorded screening and rate', () => {
    expect(recoveredStep(settling, null)).toEqual({ kind: 'failed', reason: expect.stringContaining('not confirmed on chain'), vop, aml, exchangeRate: '1' });
  });
});
