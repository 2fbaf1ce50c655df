import { describe, expect, it } from 'vitest';
import { amlWeights, parseAmlWeights } from '../../data/aml-weights.js';
import { fatfLists, sdnList } from '../../data/index.js';
import { buildSanctionsIndex, fatfStandingOf } from '../../domain/index.js';
import { type AmlProfileStats, type AmlSignalCode, amlWeightProblems, type AmlWeights, amountStdDev, EMPTY_AML_PROFILE, maturityOf, recordScreen, screenSanctions } from './aml.js';
import { type AmlScreenFacts, assessScreen, detectSignals, levelOf, tierOf } from './assessment.js';
const NOW = new Date('2026-11-22T12:00:00Z');
const DAY_MS = 86_400_000;
const weights = amlWeights();

/** Weights with some signals reweighted, for exact sums. */
function reweighted(changes: Partial<Record<AmlSignalCode, number>>): AmlWeights {
  const signals = { ...weights.signals };
  for (const [code, weight] of Object.entries(changes) as [AmlSignalCode, number][]) signals[code] = { ...signals[code], weight };
  return { ...weights, signals };
}

/** A profile of `txCount` transactions with this mean and sample standard deviation (M2 = sd² (n - 1)), last seen a day ago. */
function profileOf(txCount: number, mean = 20_000, sd = 5_000): AmlProfileStats {
  return {
    ...EMPTY_AML_PROFILE,
    txCount,
    amountMeanUsd: mean,
    amountM2: sd * sd * (txCount - 1),
    volumeTotalUsd: mean * txCount,
    amountMaxUsd: mean + sd,
    counterpartyCount: 3,
    screenCount: txCount,
    riskScore: 10,
    firstSeenAt: new Date(NOW.getTime() - 300 * DAY_MS),
    lastSeenAt: new Date(NOW.getTime() - DAY_MS),
    lastScreenedAt: new Date(NOW.getTime() - DAY_MS),
  };
}

function facts(overrides: Partial<AmlScreenFacts> = {}): AmlScreenFacts {
  return { amountUsd: 20_001, direction: 'SEND', profile: profileOf(50), newCounterparty: false, recentScreens: 0, recentNearThreshold: 0, jurisdiction: null, sanctions: [], now: NOW, ...overrides };
}
const codes = (f: AmlScreenFacts, w = weights) => detectSignals(f, w).map((signal) => signal.code);
const fatf = (country: string) => fatfStandingOf(country, fatfLists().current);

describe('wallet profile maturity (Document 2 §3)', () => {
  it.each([
    [0, 'UNKNOWN'],
    [1, 'NEW'],
    [9, 'NEW'],
    [10, 'DEVELOPING'],
    [99, 'DEVELOPING'],
    [100, 'ESTABLISHED'],
    [5_000, 'ESTABLISHED'],
  ] as const)('%i transactions: %s', (txCount, maturity) => {
    expect(maturityOf(txCount)).toBe(maturity);
  });
});

describe('AML tiers (Document 2 §3)', () => {
  it.each([
    [0, 'LOW', 'PROCEED', 'INFO'],
    [24, 'LOW', 'PROCEED', 'INFO'],
    [25, 'MEDIUM', 'PROCEED', 'WARNING'],
    [49, 'MEDIUM', 'PROCEED', 'WARNING'],
    [50, 'HIGH', 'FLAG', 'ALERT'],
    [74, 'HIGH', 'FLAG', 'ALERT'],
    [75, 'CRITICAL', 'BLOCK', 'CRITICAL'],
    [100, 'CRITICAL', 'BLOCK', 'CRITICAL'],
  ] as const)('score %i: %s, %s, level %s', (score, riskTier, action, level) => {
    expect(tierOf(score)).toEqual({ riskTier, action });
    expect(levelOf(riskTier, action)).toBe(level);
  });

  // A DEVELOPING wallet (multiplier 1) paying USD 20,001 against a mean of 20,000 (sd 5,000): the only
  // signal is REPORTABLE_AMOUNT (above USD 10,000), reweighted to the score under test.
  it.each([
    [24, 'LOW', 'PROCEED'],
    [25, 'MEDIUM', 'PROCEED'],
    [49, 'MEDIUM', 'PROCEED'],
    [50, 'HIGH', 'FLAG'],
    [74, 'HIGH', 'FLAG'],
    [75, 'CRITICAL', 'BLOCK'],
  ] as const)('one signal of weight %i assesses to %s and %s; reasoning only for FLAG', (weight, riskTier, action) => {
    const assessment = assessScreen(facts(), reweighted({ REPORTABLE_AMOUNT: weight }));
    expect(assessment.signals.map((signal) => [signal.code, signal.weight])).toEqual([['REPORTABLE_AMOUNT', weight]]);
    expect(assessment).toMatchObject({ maturity: 'DEVELOPING', riskScore: weight, riskTier, action, sanctionsHit: false });
    if (action === 'FLAG') {
      // One signal, below the escalation rules: advisory, MEDIUM confidence for a DEVELOPING wallet.
      expect(assessment.reasoning).toMatchObject({ recommendation: 'PROCEED_WITH_REVIEW', confidence: 'MEDIUM', processedAt: NOW.getTime() / 1000 });
      expect(assessment.reasoning!.keyFactors).toEqual(['USD 20,001.00 is above the USD 10,000.00 reporting threshold.']);
    } else {
      expect(assessment.reasoning).toBeNull();
    }
  });

  it('the score is the rounded sum of the weights, capped at 100', () => {
    // DEVELOPING: REPORTABLE_AMOUNT 10 + VELOCITY_BURST 15 + NEW_COUNTERPARTY 5 = 30.
    expect(assessScreen(facts({ recentScreens: 10, newCounterparty: true }), weights).riskScore).toBe(30);
    // Reweighted to 60 + 60: capped at 100.
    expect(assessScreen(facts({ recentScreens: 10 }), reweighted({ REPORTABLE_AMOUNT: 60, VELOCITY_BURST: 60 })).riskScore).toBe(100);
  });
});

describe('cohort weights', () => {
  // VELOCITY_BURST (15, COHORT) scales with the cohort: 15 x 1.5, x 1.25, x 1, x 0.6.
  // FATF_CALL_FOR_ACTION (50, ELEVATE_ONLY, sanctions-correlated): 50 x 1.5, x 1.25, then never below 50.
  it.each([
    [0, 'UNKNOWN', 22.5, 75],
    [5, 'NEW', 18.75, 62.5],
    [50, 'DEVELOPING', 15, 50],
    [500, 'ESTABLISHED', 9, 50],
  ] as const)('%i transactions (%s): velocity %d, FATF call for action %d', (txCount, _maturity, velocity, fatfWeight) => {
    const signals = detectSignals(facts({ profile: txCount === 0 ? EMPTY_AML_PROFILE : profileOf(txCount), amountUsd: 500, recentScreens: 12, jurisdiction: fatf('KP') }), weights);
    expect(signals.find((signal) => signal.code === 'VELOCITY_BURST')?.weight).toBe(velocity);
    expect(signals.find((signal) => signal.code === 'FATF_CALL_FOR_ACTION')?.weight).toBe(fatfWeight);
  });

  it('the shipped weights never reduce a sanctions-correlated signal; a file that would is refused', () => {
    expect(amlWeightProblems(weights)).toEqual([]);
    const broken = { ...weights, signals: { ...weights.signals, PRIOR_BLOCKS: { ...weights.signals.PRIOR_BLOCKS, scaling: 'COHORT' as const } } };
    expect(amlWeightProblems(broken)).toEqual(['PRIOR_BLOCKS is sanctions-correlated: its scaling must be ELEVATE_ONLY or FIXED, never COHORT']);
    expect(() => parseAmlWeights({ ...broken, documentation: '' })).toThrow(/PRIOR_BLOCKS is sanctions-correlated/);
  });
});

describe('signals', () => {
  it.each([
    [8_999.99, []],
    [9_000, ['ROUND_AMOUNT', 'STRUCTURING_BAND']],
    [9_999.99, ['STRUCTURING_BAND']],
    [10_000, ['ROUND_AMOUNT', 'STRUCTURING_BAND']], // 31 CFR 1010.311 reports "more than $10,000": 10,000 itself is not reportable
    [10_000.01, ['REPORTABLE_AMOUNT']],
  ] as const)('USD %d against the reporting threshold: %j', (amountUsd, expected) => {
    // A DEVELOPING wallet whose mean is the amount itself: no z-score signal.
    expect(codes(facts({ amountUsd, profile: profileOf(50, amountUsd, 1) })).sort()).toEqual([...expected].sort());
  });

  it('structuring: a band amount after two others within 24 hours is a pattern', () => {
    expect(codes(facts({ amountUsd: 9_500, profile: profileOf(50, 9_500, 1), recentNearThreshold: 1 }))).toEqual(['STRUCTURING_BAND']);
    expect(codes(facts({ amountUsd: 9_500, profile: profileOf(50, 9_500, 1), recentNearThreshold: 2 }))).toEqual(['STRUCTURING_PATTERN', 'STRUCTURING_BAND']);
  });

  it.each([
    // mean 1,000, sd 100: z = (x - 1000) / 100.
    [1_299, []],
    [1_300, ['AMOUNT_ANOMALY']],
    [1_599, ['AMOUNT_ANOMALY']],
    [1_600, ['AMOUNT_EXTREME']],
  ] as const)('z-score: USD %d against mean 1,000 and sd 100: %j', (amountUsd, expected) => {
    expect(codes(facts({ amountUsd, profile: profileOf(50, 1_000, 100) }))).toEqual(expected);
  });

  it('z-score: the standard deviation is floored at 10% of the mean, and needs 5 transactions', () => {
    // sd 1 is floored to 100: USD 1,299 is z 2.99, no signal; 1,300 is z 3.
    expect(codes(facts({ amountUsd: 1_299, profile: profileOf(50, 1_000, 1) }))).toEqual([]);
    expect(codes(facts({ amountUsd: 1_300, profile: profileOf(50, 1_000, 1) }))).toEqual(['AMOUNT_ANOMALY']);
    expect(codes(facts({ amountUsd: 1_600, profile: profileOf(4, 1_000, 100) }))).not.toContain('AMOUNT_EXTREME');
  });

  it('a large first transaction, a new counterparty, dormancy, round amounts, prior blocks, no history', () => {
    expect(codes(facts({ amountUsd: 15_001, profile: EMPTY_AML_PROFILE, newCounterparty: true }))).toEqual(['LARGE_INITIAL_AMOUNT', 'REPORTABLE_AMOUNT', 'NO_HISTORY']);
    expect(codes(facts({ newCounterparty: true }))).toEqual(['REPORTABLE_AMOUNT', 'NEW_COUNTERPARTY']);
    const dormant = { ...profileOf(50), lastSeenAt: new Date(NOW.getTime() - 180 * DAY_MS) };
    expect(codes(facts({ profile: dormant }))).toEqual(['DORMANT_REACTIVATION', 'REPORTABLE_AMOUNT']);
    expect(codes(facts({ profile: { ...dormant, lastSeenAt: new Date(NOW.getTime() - 179 * DAY_MS) } }))).toEqual(['REPORTABLE_AMOUNT']);
    expect(codes(facts({ amountUsd: 5_000, profile: profileOf(50, 5_000, 1) }))).toEqual(['ROUND_AMOUNT']);
    expect(codes(facts({ amountUsd: 4_000, profile: profileOf(50, 4_000, 1) }))).toEqual([]);
    expect(codes(facts({ profile: { ...profileOf(50), blockedCount: 2 } }))).toEqual(['PRIOR_BLOCKS', 'REPORTABLE_AMOUNT']);
  });

  it('FATF standing by country: call for action, increased monitoring, neither', () => {
    expect(fatf('kp')).toMatchObject({ country: 'KP', list: 'CALL_FOR_ACTION', call: 'countermeasures' });
    expect(fatf('MM')).toMatchObject({ list: 'CALL_FOR_ACTION', call: expect.stringMatching(/^enhanced due diligence/) });
    expect(fatf('VE')).toMatchObject({ list: 'INCREASED_MONITORING', call: null });
    expect(fatf('FR')).toBeNull();
  });
});

describe('sanctions always BLOCK', () => {
  const index = buildSanctionsIndex(sdnList().records);
  const LAZARUS_ETH = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';

  it('a wallet on the SDN digital-currency list, in any letter case (EVM addresses are case-insensitive)', () => {
    const findings = screenSanctions(index, { wallet: LAZARUS_ETH.toLowerCase(), counterparty: 'Acme Treasury Ltd' });
    expect(findings).toEqual([
      { kind: 'WALLET_ADDRESS', entNum: 27307, name: 'LAZARUS GROUP', type: 'entity', programs: ['DPRK3'], matchedName: LAZARUS_ETH, score: 1, currency: 'ETH', address: LAZARUS_ETH },
    ]);
    // Even an ESTABLISHED wallet with nothing else: score 100, CRITICAL, BLOCK.
    expect(assessScreen(facts({ profile: profileOf(500), sanctions: findings }), weights)).toMatchObject({
      riskScore: 100,
      riskTier: 'CRITICAL',
      action: 'BLOCK',
      level: 'CRITICAL',
      sanctionsHit: true,
      reasoning: null,
    });
  });

  it('a counterparty address, and a counterparty name at >= 0.70 (the name or counterpartyName)', () => {
    expect(screenSanctions(index, { wallet: '0x' + '1'.repeat(40), counterparty: LAZARUS_ETH }).map((f) => f.kind)).toEqual(['COUNTERPARTY_ADDRESS']);
    const byName = screenSanctions(index, { wallet: '0x' + '1'.repeat(40), counterparty: 'Banco Nacional de Cuba' });
    expect(byName[0]).toMatchObject({ kind: 'COUNTERPARTY_NAME', entNum: 306, name: 'BANCO NACIONAL DE CUBA', programs: ['CUBA'], score: 1 });
    const byGivenName = screenSanctions(index, { wallet: '0x' + '1'.repeat(40), counterparty: '0x' + '2'.repeat(40), counterpartyName: 'Lazarus Group' });
    expect(byGivenName.map((f) => [f.kind, f.entNum])).toContainEqual(['COUNTERPARTY_NAME', 27307]);
    expect(screenSanctions(index, { wallet: '0x' + '1'.repeat(40), counterparty: 'Acme Treasury Ltd' })).toEqual([]);
  });
});

describe('ESCALATE_TO_BLOCK turns a FLAG into a BLOCK', () => {
  it('a counterparty under a FATF call for countermeasures: HIGH tier, BLOCK, level CRITICAL', () => {
    // ESTABLISHED, USD 500 (mean 500): FATF_CALL_FOR_ACTION 50 alone, never reduced.
    const assessment = assessScreen(facts({ amountUsd: 500, profile: profileOf(500, 500, 50), jurisdiction: fatf('IR') }), weights);
    expect(assessment).toMatchObject({ riskScore: 50, riskTier: 'HIGH', action: 'BLOCK', level: 'CRITICAL', reasoning: { recommendation: 'ESCALATE_TO_BLOCK', confidence: 'HIGH' } });
  });

  it('a call for enhanced due diligence only (Myanmar) stays an advisory FLAG', () => {
    const assessment = assessScreen(facts({ amountUsd: 500, profile: profileOf(500, 500, 50), jurisdiction: fatf('MM') }), weights);
    expect(assessment).toMatchObject({ riskScore: 50, action: 'FLAG', level: 'ALERT', reasoning: { recommendation: 'PROCEED_WITH_REVIEW', confidence: 'HIGH' } });
  });

  it('a structuring pattern from a NEW wallet', () => {
    // NEW (x 1.25): (STRUCTURING_BAND 15 + STRUCTURING_PATTERN 35) x 1.25 = 62.5, rounded to 63.
    const assessment = assessScreen(facts({ amountUsd: 9_500, profile: profileOf(3, 9_500, 10), recentNearThreshold: 2 }), weights);
    expect(assessment).toMatchObject({ riskScore: 63, riskTier: 'HIGH', action: 'BLOCK', reasoning: { recommendation: 'ESCALATE_TO_BLOCK', confidence: 'MEDIUM' } });
  });

  it('three signals together within reach of CRITICAL (70 or more)', () => {
    // DEVELOPING: AMOUNT_EXTREME 35 + VELOCITY_BURST 15 + FATF_INCREASED_MONITORING 20 = 70.
    const three = facts({ amountUsd: 1_650, profile: profileOf(50, 1_000, 100), recentScreens: 10, jurisdiction: fatf('VE') });
    expect(assessScreen(three, weights)).toMatchObject({ riskScore: 70, action: 'BLOCK', reasoning: { recommendation: 'ESCALATE_TO_BLOCK' } });
    // The same three at 69 (velocity 14) stay a FLAG.
    expect(assessScreen(three, reweighted({ VELOCITY_BURST: 14 }))).toMatchObject({ riskScore: 69, action: 'FLAG', reasoning: { recommendation: 'PROCEED_WITH_REVIEW' } });
  });
});

describe('recordScreen: the rolling statistics (Welford)', () => {
  it('mean and sample variance equal the direct formulas; a BLOCK is not a transaction', () => {
    const amounts = [120, 80.5, 1_000, 99.99, 5_000, 42];
    let profile: AmlProfileStats = EMPTY_AML_PROFILE;
    amounts.forEach((amountUsd, i) => {
      profile = recordScreen(profile, { amountUsd, riskScore: 10 * i, blocked: false, newCounterparty: i % 2 === 0, now: new Date(NOW.getTime() + i * 1000) }, 0.2);
    });
    const mean = amounts.reduce((a, b) => a + b, 0) / amounts.length;
    const variance = amounts.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (amounts.length - 1);
    expect(profile.txCount).toBe(6);
    expect(profile.amountMeanUsd).toBeCloseTo(mean, 9);
    expect(amountStdDev(profile)! ** 2).toBeCloseTo(variance, 6);
    expect(profile).toMatchObject({ volumeTotalUsd: 6_342.49, amountMaxUsd: 5_000, counterpartyCount: 3, screenCount: 6, firstSeenAt: NOW });
    // Risk score: 0, then 0 + 0.2 (10 - 0) = 2, 2 + 0.2 (20 - 2) = 5.6, 5.6 + 0.2 (30 - 5.6) = 10.48, 10.48 + 0.2 (40 - 10.48) = 16.384, + 0.2 (50 - 16.384) = 23.1072.
    expect(profile.riskScore).toBeCloseTo(23.1072, 9);

    const blocked = recordScreen(profile, { amountUsd: 1e6, riskScore: 100, blocked: true, newCounterparty: true, now: new Date(NOW.getTime() + DAY_MS) }, 0.2);
    expect(blocked).toMatchObject({ txCount: 6, amountMeanUsd: profile.amountMeanUsd, counterpartyCount: 3, screenCount: 7, blockedCount: 1, lastSeenAt: profile.lastSeenAt });
    expect(amountStdDev(EMPTY_AML_PROFILE)).toBeNull();
  });
});
