import { createHash } from 'node:crypto';
import { SDJwtInstance } from '@sd-jwt/core';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { PublicP256Jwk } from '../../../platform/credentials.js';
import { Ap2MandateError, type Ap2VerificationRequest, createAp2MandateVerifier, MAX_MANDATE_LENGTH } from './ap2-verifier.js';
import { type Ap2SettlementQuote, type Ap2SettlementTerms, RAIL_FEE_CAP_CONSTRAINT } from './domain/index.js';

// AP2 payment mandates signed in the test with ES256 keys through @sd-jwt/core, the library an
// issuer (a wallet, a trusted surface) would use, then verified as POST /agent/settle does.

const ISSUER = 'https://wallet.example';
const NOW = new Date('2026-05-04T10:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7';

type Jwk = Record<string, unknown>;
let issuerKey: { publicKey: Jwk; privateKey: Jwk };
let otherKey: { publicKey: Jwk; privateKey: Jwk };

const publicOf = (jwk: Jwk): PublicP256Jwk => ({ kty: 'EC', crv: 'P-256', x: jwk.x as string, y: jwk.y as string });

async function issue(claims: Record<string, unknown>, frame: Record<string, unknown> = { _sd: ['payee', 'payment_amount'] }, options: { privateKey?: Jwk; signAlg?: string } = {}): Promise<string> {
  const instance = new SDJwtInstance({
    signer: await ES256.getSigner(options.privateKey ?? issuerKey.privateKey),
    signAlg: options.signAlg ?? 'ES256',
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
  });
  return instance.issue(claims as Record<string, unknown>, frame as never, { header: { typ: 'dc+sd-jwt', kid: 'wallet-key-1' } });
}

/** A closed mandate for 1,250.50 USD to RECIPIENT, valid for the next hour. */
const closed = (overrides: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  iat: NOW_S - 60,
  exp: NOW_S + 3600,
  vct: 'mandate.payment.1',
  transaction_id: 'NivWhuqfzcvZNapvIEJ2-3tsdQLkiuIcye2g46WVgX8',
  payee: { id: RECIPIENT, name: 'Acme Treasury GmbH' },
  payment_amount: { amount: 125050, currency: 'USD' },
  ...overrides,
});

const open = (constraints: unknown[], overrides: Record<string, unknown> = {}) =>
  closed({ vct: 'mandate.payment.open.1', transaction_id: undefined, cnf: { jwk: publicOf(otherKey.publicKey) }, constraints, ...overrides });

const settlement: Ap2SettlementTerms = { amount: 1250.5, sourceCurrency: 'USD', destinationCurrency: 'EUR', recipientAddress: RECIPIENT };
// Fee of the quote: 1.375625 USD = 137.5625 cents.
const quote: Ap2SettlementQuote = { quoteId: 'q_test', amount: '1250.50', currency: 'USD', feeUsd: '1.375625', expiresAt: new Date(NOW.getTime() + 60_000) };

const verifier = (issuers: Array<[string, Jwk]> = [[ISSUER, issuerKey.publicKey]]) =>
  createAp2MandateVerifier({ trustedIssuers: new Map(issuers.map(([name, jwk]) => [name, publicOf(jwk)])), clock: new ManualClock(NOW) });

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(Ap2MandateError);
    const refusal = error as Ap2MandateError;
    expect(refusal.status).toBe(400);
    expect(refusal.code).toBe('PAY_ERR_MANDATE_INVALID');
    expect(refusal.details).toEqual({ reason: refusal.reason });
    return refusal.reason;
  }
  throw new Error('the mandate was accepted');
}

const verify = (mandate: unknown, overrides: Partial<Ap2VerificationRequest> = {}) => verifier().verify({ mandate, settlement, quote, ...overrides });

beforeAll(async () => {
  issuerKey = (await ES256.generateKeyPair()) as { publicKey: Jwk; privateKey: Jwk };
  otherKey = (await ES256.generateKeyPair()) as { publicKey: Jwk; privateKey: Jwk };
});

describe('AP2 mandate verification: accepted', () => {
  it('a valid closed mandate (payee and payment_amount selectively disclosed) is accepted and recorded', async () => {
    const mandate = await issue(closed());
    const verified = await verify(mandate);
    expect(verified).toEqual({
      type: 'mandate.payment.1',
      issuer: ISSUER,
      keyId: 'wallet-key-1',
      payee: { id: RECIPIENT, name: 'Acme Treasury GmbH' },
      paymentAmount: { amount: 125050, currency: 'USD' },
      transactionId: 'NivWhuqfzcvZNapvIEJ2-3tsdQLkiuIcye2g46WVgX8',
      constraints: [],
      issuedAt: NOW_S - 60,
      expiresAt: NOW_S + 3600,
      reference: createHash('sha256').update(mandate).digest('base64url'),
      quoteId: 'q_test',
    });
  });

  it('the payee address matches whatever its EIP-55 case, and the amount may come as decimal text', async () => {
    const mandate = await issue(closed({ payee: { id: RECIPIENT.toLowerCase(), name: 'Acme Treasury GmbH' } }));
    await expect(verify(mandate, { settlement: { ...settlement, amount: '1250.50' } })).resolves.toMatchObject({ type: 'mandate.payment.1' });
  });

  it('a valid open mandate: every constraint evaluated, payment.reference kept as not applicable', async () => {
    const mandate = await issue(
      open([
        { type: 'payment.amount_range', currency: 'USD', min: 125050, max: 125050 },
        { type: 'payment.allowed_payees', allowed: [{ id: RECIPIENT, name: 'Acme Treasury GmbH' }] },
        { type: 'payment.execution_date', not_before: '2026-05-04T00:00:00Z', not_after: '2026-05-04T10:00:00Z' },
        { type: 'payment.reference', conditional_transaction_id: 'FzLoxbbtgQGYZxoSM2NJYJtkFTSsdfUBoVEQ12k7JN8' },
        // 1.375625 USD = 137.5625 cents <= 138.
        { type: RAIL_FEE_CAP_CONSTRAINT, currency: 'USD', max: 138 },
      ]),
    );
    const verified = await verify(mandate);
    expect(verified.type).toBe('mandate.payment.open.1');
    expect(verified.constraints).toEqual([
      { type: 'payment.amount_range', outcome: 'SATISFIED' },
      { type: 'payment.allowed_payees', outcome: 'SATISFIED' },
      { type: 'payment.execution_date', outcome: 'SATISFIED' },
      { type: 'payment.reference', outcome: 'NOT_APPLICABLE' },
      { type: RAIL_FEE_CAP_CONSTRAINT, outcome: 'SATISFIED' },
    ]);
  });

  it('the AP2 v0.2 delegate form: the mandate content disclosed as the one delegate_payload element', async () => {
    const { iss, iat, exp, ...content } = closed();
    const mandate = await issue({ iss, iat, exp, delegate_payload: [content] }, { delegate_payload: { _sd: [0] } });
    await expect(verify(mandate)).resolves.toMatchObject({ type: 'mandate.payment.1', paymentAmount: { amount: 125050, currency: 'USD' } });
  });

  it('currencies with another minor unit: 1250 JPY is amount 1250 (CLDR digits 0)', async () => {
    const mandate = await issue(closed({ payment_amount: { amount: 1250, currency: 'JPY' } }));
    const yen = { ...settlement, amount: 1250, sourceCurrency: 'JPY' };
    await expect(verify(mandate, { settlement: yen, quote: { ...quote, amount: '1250', currency: 'JPY' } })).resolves.toMatchObject({ paymentAmount: { currency: 'JPY' } });
  });
});

describe('AP2 mandate verification: refused with a reason (400)', () => {
  it('wrong payee', async () => {
    const mandate = await issue(closed({ payee: { id: '0x0000000000000000000000000000000000000001', name: 'Acme Treasury GmbH' } }));
    expect(await reasonOf(verify(mandate))).toBe('PAYEE_MISMATCH');
  });

  it.each([
    { why: 'one cent less', amount: 1250.49 },
    { why: 'one cent more', amount: 1250.51 },
    { why: 'finer than a cent', amount: 1250.501 },
  ])('wrong amount: $why', async ({ amount }) => {
    const mandate = await issue(closed());
    expect(await reasonOf(verify(mandate, { settlement: { ...settlement, amount } }))).toBe('AMOUNT_MISMATCH');
  });

  it('a mandate in EUR does not pay a USD settlement', async () => {
    const mandate = await issue(closed({ payment_amount: { amount: 125050, currency: 'EUR' } }));
    expect(await reasonOf(verify(mandate))).toBe('CURRENCY_MISMATCH');
  });

  it('untrusted issuer: not on the allowlist, or the allowlist empty, or a prototype name', async () => {
    expect(await reasonOf(verify(await issue(closed({ iss: 'https://other-wallet.example' }))))).toBe('UNTRUSTED_ISSUER');
    const mandate = await issue(closed());
    expect(await reasonOf(verifier([]).verify({ mandate, settlement, quote }))).toBe('UNTRUSTED_ISSUER');
    expect(await reasonOf(verify(await issue(closed({ iss: '__proto__' }))))).toBe('UNTRUSTED_ISSUER');
    expect(await reasonOf(verify(await issue(closed({ iss: 'constructor' }))))).toBe('UNTRUSTED_ISSUER');
  });

  it("a trusted issuer's name signed with another key", async () => {
    const mandate = await issue(closed(), undefined, { privateKey: otherKey.privateKey });
    expect(await reasonOf(verify(mandate))).toBe('INVALID_SIGNATURE');
  });

  it('a header naming another algorithm', async () => {
    expect(await reasonOf(verify(await issue(closed(), undefined, { signAlg: 'ES384' })))).toBe('UNSUPPORTED_ALGORITHM');
  });

  it.each([
    { why: 'expired a second ago', claims: { exp: NOW_S - 1 }, reason: 'EXPIRED' },
    { why: 'expiring exactly now', claims: { exp: NOW_S }, reason: 'EXPIRED' },
    { why: 'without exp', claims: { exp: undefined }, reason: 'EXPIRY_MISSING' },
    { why: 'nbf a second ahead', claims: { nbf: NOW_S + 1 }, reason: 'NOT_YET_VALID' },
    { why: 'issued in the future', claims: { iat: NOW_S + 1 }, reason: 'NOT_YET_VALID' },
    { why: 'exp as text', claims: { exp: String(NOW_S + 60) }, reason: 'MALFORMED' },
  ])('validity window against the injected clock: $why', async ({ claims, reason }) => {
    expect(await reasonOf(verify(await issue(closed(claims))))).toBe(reason);
  });

  it('expiring a second from now is still valid (the boundary above)', async () => {
    await expect(verify(await issue(closed({ exp: NOW_S + 1, nbf: NOW_S, iat: NOW_S })))).resolves.toMatchObject({ expiresAt: NOW_S + 1 });
  });

  it('tampered disclosure: a payment_amount disclosure rewritten to a larger amount is referenced by no digest', async () => {
    const mandate = await issue(closed());
    const [jwt, ...disclosures] = mandate.split('~');
    const forged = disclosures.map((encoded) => {
      if (!encoded) return encoded;
      const [salt, name, _value] = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as [string, string, unknown];
      return name === 'payment_amount' ? Buffer.from(JSON.stringify([salt, name, { amount: 999999, currency: 'USD' }])).toString('base64url') : encoded;
    });
    const tampered = [jwt, ...forged].join('~');
    expect(tampered).not.toBe(mandate);
    expect(await reasonOf(verify(tampered, { settlement: { ...settlement, amount: 9999.99 }, quote: { ...quote, amount: '9999.99' } }))).toBe('INVALID_DISCLOSURE');
  });

  it('a disclosure of another mandate appended, or the same disclosure presented twice', async () => {
    const mandate = await issue(closed());
    const foreign = (await issue(closed())).split('~')[1]!;
    expect(await reasonOf(verify(`${mandate}${foreign}~`))).toBe('INVALID_DISCLOSURE');
    const first = mandate.split('~')[1]!;
    expect(await reasonOf(verify(`${mandate}${first}~`))).toBe('INVALID_DISCLOSURE');
  });

  it('a withheld disclosure leaves the mandate without its payee', async () => {
    const mandate = await issue(closed());
    const [jwt, ...disclosures] = mandate.split('~');
    const withoutPayee = disclosures.filter((encoded) => !encoded || !Buffer.from(encoded, 'base64url').toString().includes('"payee"'));
    expect(await reasonOf(verify([jwt, ...withoutPayee].join('~')))).toBe('INVALID_CONTENT');
  });

  it('a signed payload altered after signing', async () => {
    const mandate = await issue(closed());
    const [header, payload, signature] = mandate.split('~')[0]!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...claims, exp: NOW_S + 86_400 })).toString('base64url');
    expect(await reasonOf(verify(mandate.replace(`${header}.${payload}.${signature}`, `${header}.${altered}.${signature}`)))).toBe('INVALID_SIGNATURE');
  });

  it.each([{ vct: 'mandate.checkout.1' }, { vct: 'mandate.payment.2' }, { vct: 'mandate.payment' }, { vct: undefined }])('wrong type: vct $vct', async ({ vct }) => {
    expect(await reasonOf(verify(await issue(closed({ vct }))))).toBe('WRONG_TYPE');
  });

  it.each([
    { why: 'the quote was computed for another amount', override: { quote: { ...quote, amount: '1250.00' } } },
    { why: 'the quote was computed in another currency', override: { quote: { ...quote, currency: 'EUR' } } },
    { why: 'the quote has expired', override: { quote: { ...quote, expiresAt: NOW } } },
  ])('terms contradicting the quote: $why', async ({ override }) => {
    expect(await reasonOf(verify(await issue(closed()), override))).toBe('QUOTE_MISMATCH');
  });

  it('terms contradicting the quote: the fee cap is below the quoted fee (137.5625 cents > 137)', async () => {
    const mandate = await issue(open([{ type: RAIL_FEE_CAP_CONSTRAINT, currency: 'USD', max: 137 }]));
    expect(await reasonOf(verify(mandate))).toBe('QUOTE_MISMATCH');
  });

  it.each([
    { why: 'amount above the range', constraint: { type: 'payment.amount_range', currency: 'USD', max: 125049 }, reason: 'CONSTRAINT_VIOLATED' },
    { why: 'amount below the range', constraint: { type: 'payment.amount_range', currency: 'USD', min: 125051, max: 200000 }, reason: 'CONSTRAINT_VIOLATED' },
    { why: 'range in another currency', constraint: { type: 'payment.amount_range', currency: 'EUR', max: 200000 }, reason: 'CONSTRAINT_VIOLATED' },
    { why: 'payee not allowed', constraint: { type: 'payment.allowed_payees', allowed: [{ name: 'Someone Else' }] }, reason: 'CONSTRAINT_VIOLATED' },
    { why: 'execution window over', constraint: { type: 'payment.execution_date', not_after: '2026-05-04T09:59:59Z' }, reason: 'CONSTRAINT_VIOLATED' },
    { why: 'a budget needs a history the rail does not keep', constraint: { type: 'payment.budget', currency: 'USD', max: 5000 }, reason: 'UNRESOLVED_CONSTRAINT' },
    { why: 'an unknown constraint', constraint: { type: 'com.example.whatever' }, reason: 'UNRESOLVED_CONSTRAINT' },
  ])('open mandate constraints: $why', async ({ constraint, reason }) => {
    expect(await reasonOf(verify(await issue(open([constraint]))))).toBe(reason);
  });

  it('an open mandate without cnf, and a closed one with constraints, are malformed content', async () => {
    expect(await reasonOf(verify(await issue(open([], { cnf: undefined }))))).toBe('INVALID_CONTENT');
    expect(await reasonOf(verify(await issue(closed({ constraints: [{ type: 'payment.amount_range', currency: 'USD', max: 1 }] }))))).toBe('INVALID_CONTENT');
  });

  it('an execution_date other than today', async () => {
    expect(await reasonOf(verify(await issue(closed({ execution_date: '2026-05-05' }))))).toBe('EXECUTION_DATE_MISMATCH');
    await expect(verify(await issue(closed({ execution_date: '2026-05-04' })))).resolves.toMatchObject({ type: 'mandate.payment.1' });
  });

  it.each([
    { why: 'a number', mandate: 42 },
    { why: 'null', mandate: null },
    { why: 'an object', mandate: { __proto__: { polluted: true } } },
    { why: 'empty', mandate: '' },
    { why: 'a plain JWT without ~', mandate: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln' },
    { why: 'garbage', mandate: 'not a mandate ☃' },
    { why: 'base64 that is not JSON', mandate: 'aaaa.bbbb.cccc~' },
    { why: 'too long', mandate: `${'a'.repeat(MAX_MANDATE_LENGTH)}.b.c~` },
  ])('hostile input is MALFORMED, never a crash: $why', async ({ mandate }) => {
    expect(await reasonOf(verify(mandate))).toBe('MALFORMED');
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
