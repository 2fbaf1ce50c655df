import { describe, expect, it } from 'vitest';
import { createHmacSigner } from '../../../platform/signing.js';
import { checkQuoteId, issueQuoteId } from './index.js';

const signer = createHmacSigner('quote-id-test-key-0123456789abcdef');
const terms = { amountUsd: 10000, hasFx: true, esgScore: 75, monthlyVolumeUsd: 0 };
const issuedAt = new Date('2026-11-22T12:00:00.000Z');

describe('quote ids', () => {
  const quoteId = issueQuoteId(terms, issuedAt, signer);

  it('has the documented form <prefix>-<digits>-<token>', () => {
    expect(quoteId).toMatch(/^srq-\d+-[0-9a-f]{24}$/);
    expect(quoteId.split('-')[1]).toBe(String(issuedAt.getTime()));
  });

  it('verifies for exactly the terms it was issued for, and is valid for 300 s', () => {
    const fresh = checkQuoteId(quoteId, terms, signer, 300, new Date(issuedAt.getTime() + 299_999));
    expect(fresh).toEqual({ valid: true, issuedAt, expiresAt: new Date(issuedAt.getTime() + 300_000), expired: false });
    const stale = checkQuoteId(quoteId, terms, signer, 300, new Date(issuedAt.getTime() + 300_000));
    expect(stale).toMatchObject({ valid: true, expired: true });
  });

  it.each([
    { name: 'a changed amount', id: () => quoteId, terms: { ...terms, amountUsd: 10001 }, reason: 'signature-mismatch' },
    { name: 'hasFx flipped', id: () => quoteId, terms: { ...terms, hasFx: false }, reason: 'signature-mismatch' },
    { name: 'a moved issue time', id: () => quoteId.replace(/-(\d+)-/, (_, ms: string) => `-${Number(ms) + 1}-`), terms, reason: 'signature-mismatch' },
    { name: 'another key', id: () => issueQuoteId(terms, issuedAt, createHmacSigner('another-key-0123456789abcdef012345')), terms, reason: 'signature-mismatch' },
    { name: 'a malformed id', id: () => 'srq-abc-123', terms, reason: 'malformed' },
  ])('rejects $name', ({ id, terms: claimed, reason }) => {
    expect(checkQuoteId(id(), claimed, signer, 300, issuedAt)).toEqual({ valid: false, reason });
  });
});
