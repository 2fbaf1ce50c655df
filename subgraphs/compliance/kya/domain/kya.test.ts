import { describe, expect, it } from 'vitest';
import {
  attestationOf,
  canonicalJson,
  credentialClaimsOf,
  decideMandateCaps,
  deriveKyaLevel,
  isAp2Compatible,
  type KyaLevel,
  kyaScoreOf,
  type MandateCapsDecision,
  type MandateCapsRequest,
  nextStepOf,
  type OwnerEvidence,
  type OwnerLeiCheck,
  tierCapsOf,
  tierNoteOf,
} from './kya.js';

const notGiven: OwnerLeiCheck = { kind: 'NOT_GIVEN' };
const unknownLei: OwnerLeiCheck = { kind: 'NOT_IN_REGISTRY' };
// Two records of the GLEIF snapshot (shared/data/lei/lei_records.json): entity ACTIVE with registration ISSUED, and with registration LAPSED.
const activeLei: OwnerLeiCheck = { kind: 'IN_REGISTRY', leiStatus: 'ACTIVE', legalName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.' };
const lapsedLei: OwnerLeiCheck = { kind: 'IN_REGISTRY', leiStatus: 'LAPSED', legalName: 'ALFA REY s.r.o.' };

describe('deriveKyaLevel', () => {
  it.each<[string, OwnerEvidence, KyaLevel]>([
    ['name only', { lei: notGiven }, 'ANONYMOUS'],
    ['ownerEntity without email', { ownerEntity: 'Acme Treasury Ltd', lei: notGiven }, 'ANONYMOUS'],
    ['ownerEmail without entity', { ownerEmail: 'ops@acme.example', lei: notGiven }, 'ANONYMOUS'],
    ['ownerEntity and ownerEmail', { ownerEntity: 'Acme Treasury Ltd', ownerEmail: 'ops@acme.example', lei: notGiven }, 'REGISTERED'],
    ['an ACTIVE LEI alone', { lei: activeLei }, 'VERIFIED'],
    ['an ACTIVE LEI with entity and email', { ownerEntity: 'Shell', ownerEmail: 'ops@shell.example', lei: activeLei }, 'VERIFIED'],
    ['a LAPSED LEI alone', { lei: lapsedLei }, 'ANONYMOUS'],
    ['a LAPSED LEI with entity and email', { ownerEntity: 'ALFA REY', ownerEmail: 'ops@alfarey.example', lei: lapsedLei }, 'REGISTERED'],
    ['an LEI not in the registry, with entity and email', { ownerEntity: 'X', ownerEmail: 'x@x.example', lei: unknownLei }, 'REGISTERED'],
    ['empty strings count as absent', { ownerEntity: '', ownerEmail: '', lei: notGiven }, 'ANONYMOUS'],
  ])('%s -> %s', (_case, evidence, level) => {
    expect(deriveKyaLevel(evidence)).toBe(level);
  });
});

describe('tierCapsOf', () => {
  it.each<[KyaLevel, number | null]>([
    ['ANONYMOUS', 1_000],
    ['REGISTERED', 25_000],
    ['VERIFIED', null], // no platform cap
  ])('%s: daily cap and largest single payment %s', (level, cap) => {
    expect(tierCapsOf(level)).toEqual({ maxNotionalUsd: cap, dailyCapUsd: cap });
  });
});

describe('kyaScoreOf', () => {
  it.each<[KyaLevel, boolean, boolean, number, number]>([
    ['ANONYMOUS', false, false, 0, 20], // 20
    ['ANONYMOUS', true, true, 2, 40], // 20 + 10 + 5 + 5
    ['REGISTERED', false, true, 0, 55], // 50 + 5
    ['REGISTERED', true, false, 1, 65], // 50 + 10 + 5
    ['VERIFIED', false, false, 0, 80], // 80
    ['VERIFIED', true, true, 3, 100], // 80 + 10 + 5 + 5
  ])('%s, publicKey %s, framework %s, %i protocols -> %i', (level, hasPublicKey, hasFramework, protocolCount, score) => {
    expect(kyaScoreOf({ level, hasPublicKey, hasFramework, protocolCount })).toBe(score);
  });

  it('the tier dominates: the best ANONYMOUS scores below the barest REGISTERED, and so on up', () => {
    const best = (level: KyaLevel) => kyaScoreOf({ level, hasPublicKey: true, hasFramework: true, protocolCount: 1 });
    const bare = (level: KyaLevel) => kyaScoreOf({ level, hasPublicKey: false, hasFramework: false, protocolCount: 0 });
    expect(best('ANONYMOUS')).toBeLessThan(bare('REGISTERED'));
    expect(best('REGISTERED')).toBeLessThan(bare('VERIFIED'));
  });
});

describe('nextStepOf and tierNoteOf', () => {
  it.each<[KyaLevel, RegExp | undefined]>([
    ['ANONYMOUS', /ownerEntity and ownerEmail for REGISTERED.*ACTIVE ownerLei for VERIFIED.*new agentId/],
    ['REGISTERED', /ACTIVE ownerLei for VERIFIED.*new agentId/],
    ['VERIFIED', undefined],
  ])('_next of %s', (level, text) => {
    const next = nextStepOf(level);
    if (text === undefined) expect(next).toBeUndefined();
    else expect(next).toMatch(text);
  });

  it.each<[KyaLevel, OwnerLeiCheck, string]>([
    ['ANONYMOUS', notGiven, 'ANONYMOUS: agent name only; daily cap USD 1,000; a mandate needs REGISTERED or VERIFIED.'],
    ['REGISTERED', notGiven, 'REGISTERED: owner entity and self-attested email; daily cap USD 25,000; mandate caps are clamped to it.'],
    [
      'REGISTERED',
      lapsedLei,
      'REGISTERED: owner entity and self-attested email; daily cap USD 25,000; mandate caps are clamped to it. The ownerLei is in the LEI registry with status LAPSED, not ACTIVE, so it does not verify the owner.',
    ],
    ['ANONYMOUS', unknownLei, 'ANONYMOUS: agent name only; daily cap USD 1,000; a mandate needs REGISTERED or VERIFIED. The ownerLei is not in the LEI registry, so it does not verify the owner.'],
    ['VERIFIED', activeLei, "VERIFIED: the owner's LEI is ACTIVE in the LEI registry (SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.); no platform cap; mandates set their own caps."],
  ])('tierNote of %s with LEI %j', (level, lei, note) => {
    expect(tierNoteOf(level, lei)).toBe(note);
  });
});

describe('decideMandateCaps', () => {
  it.each<[KyaLevel, MandateCapsRequest, MandateCapsDecision]>([
    ['ANONYMOUS', { dailyCapUsd: 500 }, { allowed: false, reason: 'UPGRADE_REQUIRED' }],
    // REGISTERED: min(request, 25,000) each, then maxNotional <= daily.
    ['REGISTERED', { maxNotionalUsd: 5_000, dailyCapUsd: 10_000 }, { allowed: true, maxNotionalUsd: 5_000, dailyCapUsd: 10_000, clamped: false }],
    ['REGISTERED', { maxNotionalUsd: 50_000, dailyCapUsd: 100_000 }, { allowed: true, maxNotionalUsd: 25_000, dailyCapUsd: 25_000, clamped: true }],
    ['REGISTERED', { dailyCapUsd: 25_000 }, { allowed: true, maxNotionalUsd: 25_000, dailyCapUsd: 25_000, clamped: false }], // exactly at the limit
    ['REGISTERED', { dailyCapUsd: 25_000.01 }, { allowed: true, maxNotionalUsd: 25_000, dailyCapUsd: 25_000, clamped: true }],
    ['REGISTERED', {}, { allowed: true, maxNotionalUsd: 25_000, dailyCapUsd: 25_000, clamped: false }], // omitted: the tier's caps
    ['REGISTERED', { maxNotionalUsd: 8_000, dailyCapUsd: 3_000 }, { allowed: true, maxNotionalUsd: 3_000, dailyCapUsd: 3_000, clamped: true }], // min(8,000, 3,000)
    // VERIFIED: its own caps, no ceiling.
    ['VERIFIED', { maxNotionalUsd: 2_000_000, dailyCapUsd: 10_000_000 }, { allowed: true, maxNotionalUsd: 2_000_000, dailyCapUsd: 10_000_000, clamped: false }],
    ['VERIFIED', {}, { allowed: true, maxNotionalUsd: null, dailyCapUsd: null, clamped: false }],
    ['VERIFIED', { maxNotionalUsd: 750_000 }, { allowed: true, maxNotionalUsd: 750_000, dailyCapUsd: null, clamped: false }],
    ['VERIFIED', { dailyCapUsd: 40_000 }, { allowed: true, maxNotionalUsd: 40_000, dailyCapUsd: 40_000, clamped: false }], // omitted maxNotional takes the daily cap, nothing was lowered
    ['VERIFIED', { maxNotionalUsd: 90_000, dailyCapUsd: 40_000 }, { allowed: true, maxNotionalUsd: 40_000, dailyCapUsd: 40_000, clamped: true }],
  ])('%s %j -> %j', (level, requested, decision) => {
    expect(decideMandateCaps(level, requested)).toEqual(decision);
  });
});

describe('isAp2Compatible', () => {
  it.each<[boolean | undefined, string[], boolean]>([
    [undefined, ['x402', 'ap2'], true],
    [undefined, ['x402'], false],
    [false, ['ap2'], false],
    [true, [], true],
  ])('declared %s, protocols %j -> %s', (declared, protocols, expected) => {
    expect(isAp2Compatible(declared, protocols)).toBe(expected);
  });
});

describe('attestationOf', () => {
  it.each([
    ['ANONYMOUS', null, { kyaLevel: 'ANONYMOUS', ownerVerified: false, mandateActive: false, fatfCompliant: false, dailyCapUsd: 1_000, maxNotionalUsd: 1_000 }],
    ['REGISTERED', null, { kyaLevel: 'REGISTERED', ownerVerified: false, mandateActive: false, fatfCompliant: true, dailyCapUsd: 25_000, maxNotionalUsd: 25_000 }],
    [
      'REGISTERED',
      { maxNotionalUsd: 5_000, dailyCapUsd: 10_000 },
      { kyaLevel: 'REGISTERED', ownerVerified: false, mandateActive: true, fatfCompliant: true, dailyCapUsd: 10_000, maxNotionalUsd: 5_000 },
    ],
    ['VERIFIED', null, { kyaLevel: 'VERIFIED', ownerVerified: true, mandateActive: false, fatfCompliant: true, dailyCapUsd: null, maxNotionalUsd: null }],
    ['VERIFIED', { maxNotionalUsd: null, dailyCapUsd: 1e7 }, { kyaLevel: 'VERIFIED', ownerVerified: true, mandateActive: true, fatfCompliant: true, dailyCapUsd: 1e7, maxNotionalUsd: null }],
  ] as const)('%s with mandate %j', (level, mandate, attestation) => {
    expect(attestationOf(level, mandate)).toEqual(attestation);
  });
});

describe('credentialClaimsOf', () => {
  it('expires one hour after it is issued, in epoch milliseconds', () => {
    const claims = credentialClaimsOf('agt_1', null, attestationOf('REGISTERED', null), new Date('2026-11-22T12:00:00.000Z'));
    // 2026-11-22T12:00:00Z = 1795348800000 ms; + 3,600,000 ms.
    expect(claims).toMatchObject({ agentId: 'agt_1', issuedAt: 1_795_348_800_000, expiresAt: 1_795_352_400_000, mandateId: null });
  });
});

describe('canonicalJson', () => {
  it.each<[string, Parameters<typeof canonicalJson>[0], string]>([
    ['keys sorted at every depth', { b: 1, a: { d: true, c: null } }, '{"a":{"c":null,"d":true},"b":1}'],
    ['arrays keep their order', { list: [3, 1, 2] }, '{"list":[3,1,2]}'],
    ['numbers in ECMAScript form', { n: 25_000.5, m: 1e21, z: -0 }, '{"m":1e+21,"n":25000.5,"z":0}'],
    ['strings escaped as JSON', { s: 'a"b\u2028' }, '{"s":"a\\"b\u2028"}'],
    ['keys by UTF-16 code units (upper case first)', { b: 1, B: 2, a: 3 }, '{"B":2,"a":3,"b":1}'],
  ])('%s', (_case, value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  it('refuses numbers JSON cannot carry', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(RangeError);
  });
});
