import { describe, expect, it } from 'vitest';
import { createHmacSigner } from '../../../../platform/signing.js';
import { checkQuoteId, issueQuoteId, looksLikeQuoteId, parseQuoteId } from './index.js';

const signer = createHmacSigner('quote-id-test-key-0123456789abcdef');
const terms = { amountUsd: 10000, hasFx: true, esgScore: 75, monthlyVolumeUsd: 0 };
const issuedAt = new Date('2026-11-22T12:00:00.000Z');
const nonce = '0123456789abcdef';

/** Replaces the 16 nonce digits of an id, keeping its signature. */
const withNonce = (id: string, other: string) => id.replace(/^(srq-\d+-)[0-9a-f]{16}/, `$1${other}`);

describe('quote ids', () => {
  const quoteId = issueQuoteId(terms, issuedAt, nonce, signer);

  it('has the documented form <prefix>-<digits>-<token>: issue time, then nonce and signature in hex', () => {
    expect(quoteId).toMatch(/^srq-\d+-[0-9a-f]{40}$/);
    expect(quoteId.split('-')[1]).toBe(String(issuedAt.getTime()));
    expect(parseQuoteId(quoteId)).toEqual({ issuedAt, nonce, signature: quoteId.slice(-24) });
  });

  it('finding: the same terms at the same millisecond get a different id for each nonce', () => {
    const ids = ['0000000000000001', '0000000000000002', 'ffffffffffffffff'].map((each) => issueQuoteId(terms, issuedAt, each, signer));
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(checkQuoteId(id, terms, signer, 300, issuedAt)).toMatchObject({ valid: true });
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
    { name: 'a changed nonce', id: () => withNonce(quoteId, 'fedcba9876543210'), terms, reason: 'signature-mismatch' },
    { name: 'the issue time re-spelt with a leading zero', id: () => quoteId.replace(/-(\d+)-/, '-0$1-'), terms, reason: 'malformed' },
    { name: 'another key', id: () => issueQuoteId(terms, issuedAt, nonce, createHmacSigner('another-key-0123456789abcdef012345')), terms, reason: 'signature-mismatch' },
    { name: 'a malformed id', id: () => 'srq-abc-123', terms, reason: 'malformed' },
    { name: 'an id of the first issue (no nonce)', id: () => `srq-${issuedAt.getTime()}-${'0'.repeat(24)}`, terms, reason: 'malformed' },
  ])('rejects $name', ({ id, terms: claimed, reason }) => {
    expect(checkQuoteId(id(), claimed, signer, 300, issuedAt)).toEqual({ valid: false, reason });
  });

  it('refuses to issue with a nonce that is not 16 hex digits', () => {
    expect(() => issueQuoteId(terms, issuedAt, 'short', signer)).toThrow(/16 lowercase hex/);
  });

  it.each([
    { id: 'srq-1764000000000-0123456789abcdef0123456789abcdef01234567', looks: true },
    { id: 'srq-1-000000000000000000000000', looks: true },
    { id: 'srq-1-\u0000abc', looks: false },
    { id: 'srq-1-XYZ', looks: false },
    { id: `srq-1-${'a'.repeat(65)}`, looks: false },
    { id: 'abc-1-000000000000000000000000', looks: false },
    { id: '', looks: false },
  ])('looksLikeQuoteId($id) is $looks', ({ id, looks }) => {
    expect(looksLikeQuoteId(id)).toBe(looks);
  });
});
