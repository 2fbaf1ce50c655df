import { describe, expect, it } from 'vitest';
import type { AgentAttestation, AgentMandateTerms, AgentVerificationView } from '../../domain/index.js';
import { type AgentSettlementRequest, checkAgentMandate } from './mandate-check.js';

const AGENT = 'agt_AAAAAAAAAAAAAAAAAAAAAA';
const NOW = new Date('2026-05-04T10:00:00Z');
const WHITELISTED = '529900T8BM49AURSDO55';
const OTHER_LEI = '5493001KJTIIGC8Y1R12';

const attestation = (caps: Partial<AgentAttestation> = {}): AgentAttestation => ({
  kyaLevel: 'VERIFIED',
  ownerVerified: true,
  mandateActive: true,
  fatfCompliant: true,
  maxNotionalUsd: 10_000,
  dailyCapUsd: 25_000,
  ...caps,
});
const active = (caps: Partial<AgentAttestation> = {}, expiresAt = NOW.getTime() + 3_600_000): Extract<AgentVerificationView, { verified: true }> => ({
  verified: true,
  agentId: AGENT,
  status: 'ACTIVE',
  credential: { agentId: AGENT, expiresAt, attestation: attestation(caps) },
});
const mandate: AgentMandateTerms = { counterpartyWhitelist: [WHITELISTED], currencyPairs: ['USD|EUR', 'USDC|GBP'], esgFloor: 60 };
const request = (overrides: Partial<AgentSettlementRequest> = {}): AgentSettlementRequest => ({
  amountUsd: 5_000,
  sourceCurrency: 'USD',
  destinationCurrency: 'EUR',
  recipientAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  recipientLei: WHITELISTED,
  recipientEsgScore: 72,
  ...overrides,
});
const decide = (settlement: AgentSettlementRequest, settledTodayUsd: string | number = 0, verification: AgentVerificationView | null = active(), terms: AgentMandateTerms | null = mandate) =>
  checkAgentMandate({ agentId: AGENT, verification, mandate: terms, settlement, settledTodayUsd, now: NOW });

const ALL_RULES = ['MAX_NOTIONAL', 'DAILY_CAP', 'COUNTERPARTY_WHITELIST', 'CURRENCY_PAIRS', 'ESG_FLOOR'];

describe('agent mandate check: each limit at its boundary', () => {
  it('a settlement inside every limit proceeds, every rule checked', () => {
    expect(decide(request())).toEqual({ outcome: 'PROCEED', checked: ALL_RULES });
  });

  it.each([
    // maxNotionalUsd 10,000: 10,000.00 is at the cap, 10,000.01 a cent above.
    { rule: 'MAX_NOTIONAL', at: request({ amountUsd: 10_000 }), over: request({ amountUsd: '10000.01' }), today: 0 },
    // dailyCapUsd 25,000: 20,000 settled today + 5,000 = 25,000 at the cap; + 5,000.01 = 25,000.01 above.
    { rule: 'DAILY_CAP', at: request({ amountUsd: 5_000 }), over: request({ amountUsd: '5000.01' }), today: 20_000 },
    // esgFloor 60: a score of 60 meets it, 59.99 does not.
    { rule: 'ESG_FLOOR', at: request({ recipientEsgScore: 60 }), over: request({ recipientEsgScore: 59.99 }), today: 0 },
  ])('$rule: at the limit proceeds, past it holds', ({ rule, at, over, today }) => {
    expect(decide(at, today)).toMatchObject({ outcome: 'PROCEED' });
    const held = decide(over, today);
    expect(held.outcome).toBe('HOLD');
    expect(held.outcome === 'HOLD' && held.violations.map((violation) => violation.rule)).toEqual([rule]);
  });

  it('the daily cap counts what was already settled today as decimals, exactly: 0.1 + 0.2 fits a cap of 0.3', () => {
    expect(decide(request({ amountUsd: '0.2' }), '0.1', active({ dailyCapUsd: 0.3, maxNotionalUsd: 0.3 }))).toMatchObject({ outcome: 'PROCEED' });
  });

  it.each([
    { why: 'a whitelisted LEI (any case)', settlement: request({ recipientLei: WHITELISTED.toLowerCase() }), outcome: 'PROCEED' },
    { why: 'an LEI not on the whitelist', settlement: request({ recipientLei: OTHER_LEI }), outcome: 'HOLD' },
    { why: 'no known LEI', settlement: request({ recipientLei: null }), outcome: 'HOLD' },
  ])('COUNTERPARTY_WHITELIST: $why -> $outcome', ({ settlement, outcome }) => {
    const decision = decide(settlement);
    expect(decision.outcome).toBe(outcome);
    if (decision.outcome === 'HOLD') expect(decision.violations.map((violation) => violation.rule)).toEqual(['COUNTERPARTY_WHITELIST']);
  });

  it.each([
    { pair: ['usd', 'eur'], outcome: 'PROCEED' },
    { pair: ['USDC', 'GBP'], outcome: 'PROCEED' },
    { pair: ['EUR', 'USD'], outcome: 'HOLD' },
    { pair: ['USD', 'GBP'], outcome: 'HOLD' },
  ])('CURRENCY_PAIRS: $pair -> $outcome', ({ pair, outcome }) => {
    expect(decide(request({ sourceCurrency: pair[0]!, destinationCurrency: pair[1]! })).outcome).toBe(outcome);
  });

  it('an unknown ESG score cannot meet a floor', () => {
    expect(decide(request({ recipientEsgScore: null }))).toMatchObject({ outcome: 'HOLD', violations: [{ rule: 'ESG_FLOOR' }] });
  });

  it('every violated rule is listed, not only the first', () => {
    const decision = decide(request({ amountUsd: 30_000, recipientLei: OTHER_LEI, sourceCurrency: 'JPY', recipientEsgScore: 10 }));
    expect(decision.outcome).toBe('HOLD');
    expect(decision.outcome === 'HOLD' && decision.violations.map((violation) => violation.rule)).toEqual(ALL_RULES);
  });

  it('no mandate: only the tier caps of the attestation apply; null caps (VERIFIED) are no limit', () => {
    expect(decide(request({ recipientLei: null, recipientEsgScore: null }), 0, active({ mandateActive: false, maxNotionalUsd: 1_000, dailyCapUsd: 1_000 }), null)).toMatchObject({
      outcome: 'HOLD',
      checked: ['MAX_NOTIONAL', 'DAILY_CAP'],
    });
    expect(decide(request({ amountUsd: 5_000_000 }), 1e9, active({ maxNotionalUsd: null, dailyCapUsd: null }), { counterpartyWhitelist: [], currencyPairs: [], esgFloor: null })).toEqual({
      outcome: 'PROCEED',
      checked: [],
    });
  });
});

describe('agent mandate check: refusals', () => {
  it('a REVOKED agent is refused, whatever the amount', () => {
    const revoked: AgentVerificationView = { verified: false, agentId: AGENT, status: 'REVOKED' };
    expect(decide(request({ amountUsd: 1 }), 0, revoked)).toEqual({ outcome: 'REFUSED', reason: 'AGENT_REVOKED', message: 'The agent was revoked: it may not settle.' });
  });

  it.each([
    { why: 'an unknown agent', verification: null, reason: 'AGENT_NOT_FOUND' },
    { why: 'a credential for another agent', verification: { ...active(), credential: { ...active().credential, agentId: 'agt_BBBBBBBBBBBBBBBBBBBBBB' } }, reason: 'AGENT_MISMATCH' },
    { why: 'a credential expiring exactly now', verification: active({}, NOW.getTime()), reason: 'CREDENTIAL_EXPIRED' },
  ])('$why is refused', ({ verification, reason }) => {
    expect(decide(request(), 0, verification as AgentVerificationView | null)).toMatchObject({ outcome: 'REFUSED', reason });
  });

  it('a credential valid for one more millisecond is accepted', () => {
    expect(decide(request(), 0, active({}, NOW.getTime() + 1)).outcome).toBe('PROCEED');
  });

  it.each([{ amount: -1 }, { amount: Number.NaN }, { amount: '1e3' }, { amount: '' }, { amount: '__proto__' }])('amount $amount is refused as invalid', ({ amount }) => {
    expect(decide(request({ amountUsd: amount }))).toMatchObject({ outcome: 'REFUSED', reason: 'INVALID_AMOUNT' });
  });
});
