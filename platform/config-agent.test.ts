import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** A fresh P-256 key pair's public JWK, as an issuer would publish it. */
function publicJwk() {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { kty, crv, x, y } as { kty: 'EC'; crv: 'P-256'; x: string; y: string };
}

describe('AP2_TRUSTED_ISSUERS', () => {
  it('is an empty map when unset or empty: no issuer is trusted', () => {
    expect(loadConfig({}).agent.ap2TrustedIssuers.size).toBe(0);
    expect(loadConfig({ AP2_TRUSTED_ISSUERS: '' }).agent.ap2TrustedIssuers.size).toBe(0);
  });

  it('reads issuer -> public JWK, dropping alg/use/kid, and keeps __proto__ as an ordinary issuer name', () => {
    const a = publicJwk();
    const b = publicJwk();
    // Written by hand so that "__proto__" is a real key of the JSON text, as a hostile value would be.
    const raw = `{"https://wallet.example":${JSON.stringify({ ...a, alg: 'ES256', use: 'sig', kid: 'k1' })},"__proto__":${JSON.stringify(b)}}`;
    const issuers = loadConfig({ AP2_TRUSTED_ISSUERS: raw }).agent.ap2TrustedIssuers;
    expect([...issuers.keys()]).toEqual(['https://wallet.example', '__proto__']);
    expect(issuers.get('https://wallet.example')).toEqual({ jwk: a, fundingWallets: [] });
    expect(issuers.get('__proto__')).toEqual({ jwk: b, fundingWallets: [] });
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('reads the object form {jwk, fundingWallets}: the wallets lower-case, each once (decision 0049 §9)', () => {
    const a = publicJwk();
    const wallet = '0x52908400098527886E0F7030069857D2E4169EE7';
    const raw = JSON.stringify({ 'https://bank.example': { jwk: a, fundingWallets: [wallet, wallet.toLowerCase()] }, 'https://wallet.example': { jwk: publicJwk() } });
    const issuers = loadConfig({ AP2_TRUSTED_ISSUERS: raw }).agent.ap2TrustedIssuers;
    expect(issuers.get('https://bank.example')).toEqual({ jwk: a, fundingWallets: [wallet.toLowerCase()] });
    expect(issuers.get('https://wallet.example')?.fundingWallets).toEqual([]);
  });

  const { x, y } = publicJwk();
  const jwk = { kty: 'EC', crv: 'P-256', x, y };
  const wallet = '0x52908400098527886E0F7030069857D2E4169EE7';
  it.each([
    { why: 'a funding wallet that is not an address', raw: JSON.stringify({ i: { jwk, fundingWallets: ['0x1234'] } }), message: /fundingWallets\.0/ },
    { why: 'a bad EIP-55 checksum', raw: JSON.stringify({ i: { jwk, fundingWallets: ['0x52908400098527886E0F7030069857D2E4169Ee7'] } }), message: /fundingWallets\.0/ },
    { why: 'one wallet for two issuers', raw: JSON.stringify({ i: { jwk, fundingWallets: [wallet] }, j: { jwk, fundingWallets: [wallet.toLowerCase()] } }), message: /funds issuer "i" already/ },
    { why: 'an unknown member beside jwk', raw: JSON.stringify({ i: { jwk, fundingWallets: [], limitUsd: 5 } }), message: /AP2_TRUSTED_ISSUERS/ },
    { why: 'a private key in jwk', raw: JSON.stringify({ i: { jwk: { ...jwk, d: x } } }), message: /AP2_TRUSTED_ISSUERS/ },
    {
      why: 'more than 20 wallets',
      raw: JSON.stringify({ i: { jwk, fundingWallets: Array.from({ length: 21 }, (_, index) => `0x${index.toString(16).padStart(40, '0')}`) } }),
      message: /at most 20 wallets/,
    },
  ])('a malformed object form is a start error: $why', ({ raw, message }) => {
    expect(() => loadConfig({ AP2_TRUSTED_ISSUERS: raw })).toThrow(ConfigError);
    expect(() => loadConfig({ AP2_TRUSTED_ISSUERS: raw })).toThrow(message);
  });

  it.each([
    { why: 'not JSON', raw: '{issuer: key}' },
    { why: 'an array', raw: '[]' },
    { why: 'a string', raw: '"https://wallet.example"' },
    { why: 'null', raw: 'null' },
    { why: 'a key that is not an object', raw: '{"i":"key"}' },
    { why: 'an RSA key', raw: `{"i":{"kty":"RSA","n":"AQAB","e":"AQAB"}}` },
    { why: 'another curve', raw: `{"i":{"kty":"EC","crv":"P-384","x":"${x}","y":"${y}"}}` },
    { why: 'a private key (d)', raw: `{"i":{"kty":"EC","crv":"P-256","x":"${x}","y":"${y}","d":"${x}"}}` },
    { why: 'a point off the curve', raw: `{"i":{"kty":"EC","crv":"P-256","x":"${x}","y":"${x}"}}` },
    { why: 'an algorithm other than ES256', raw: `{"i":{"kty":"EC","crv":"P-256","x":"${x}","y":"${y}","alg":"ES384"}}` },
    { why: 'an empty issuer', raw: `{"":{"kty":"EC","crv":"P-256","x":"${x}","y":"${y}"}}` },
    { why: 'a control character in the issuer', raw: `{"a\\u0000b":{"kty":"EC","crv":"P-256","x":"${x}","y":"${y}"}}` },
    { why: 'a 513-character issuer', raw: `{"${'i'.repeat(513)}":{"kty":"EC","crv":"P-256","x":"${x}","y":"${y}"}}` },
  ])('a malformed value is a start error: $why', ({ raw }) => {
    expect(() => loadConfig({ AP2_TRUSTED_ISSUERS: raw })).toThrow(ConfigError);
    expect(() => loadConfig({ AP2_TRUSTED_ISSUERS: raw })).toThrow(/AP2_TRUSTED_ISSUERS/);
  });

  it('refuses more than 100 issuers', () => {
    const key = { kty: 'EC', crv: 'P-256', x, y };
    const raw = JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`issuer-${index}`, key])));
    expect(() => loadConfig({ AP2_TRUSTED_ISSUERS: raw })).toThrow(/at most 100 issuers/);
  });
});
