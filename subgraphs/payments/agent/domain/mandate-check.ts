import { Big } from 'big.js';
import type { AgentMandateTerms, AgentVerificationView } from '../../domain/index.js';

// The agent mandate check of POST /agent/settle with X-Agent-Id (Document 2 §4 "Settlement agent",
// §3 "Settlement with a mandate", §7): the agent's live verification (POST /compliance/agent/:id/verify)
// and its record's mandate (GET /compliance/agent/:id) against the settlement. A violation HOLDS the
// settlement, it does not reject it; a REVOKED or unverified agent is refused.
// docs/decisions/0023-settlement-agent-mandates.md.

export interface AgentSettlementRequest {
  /** USD value of the settlement (decimal text or JSON number). */
  amountUsd: string | number;
  sourceCurrency: string;
  destinationCurrency: string;
  recipientAddress: string;
  /** LEI of the recipient (its wallet registration), null when unknown. */
  recipientLei: string | null;
  /** Entity ESG score of the recipient (0-100), null when unknown. */
  recipientEsgScore: number | null;
}

export const AGENT_MANDATE_RULES = ['MAX_NOTIONAL', 'DAILY_CAP', 'COUNTERPARTY_WHITELIST', 'CURRENCY_PAIRS', 'ESG_FLOOR'] as const;
export type AgentMandateRule = (typeof AGENT_MANDATE_RULES)[number];

export interface RuleViolation {
  rule: AgentMandateRule;
  message: string;
}

export type AgentRefusalReason = 'AGENT_REVOKED' | 'AGENT_NOT_FOUND' | 'AGENT_MISMATCH' | 'CREDENTIAL_EXPIRED' | 'INVALID_AMOUNT';

export type AgentMandateDecision =
  | { outcome: 'REFUSED'; reason: AgentRefusalReason; message: string }
  | { outcome: 'PROCEED'; checked: AgentMandateRule[] }
  | { outcome: 'HOLD'; checked: AgentMandateRule[]; violations: RuleViolation[] };

const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;
const usd = (value: string | number): Big | null => {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return DECIMAL.test(text) ? new Big(text) : null;
};
const money = (value: Big) => value.toFixed(2);

type AgentRefusal = Extract<AgentMandateDecision, { outcome: 'REFUSED' }>;
type VerifiedCredential = Extract<AgentVerificationView, { verified: true }>['credential'];

/**
 * Whether the agent may settle at all, whatever the settlement: VERIFIED with its credential when
 * its live verification holds; else the refusal (unknown, REVOKED, verified for another agent,
 * credential expired by `now`). Also the check of an operator's release of a held settlement
 * (decision 0047), which overrides the mandate's rules but never a refused agent.
 */
export function agentVerdictOf(input: { agentId: string; verification: AgentVerificationView | null; now: Date }): AgentRefusal | { outcome: 'VERIFIED'; credential: VerifiedCredential } {
  const { verification } = input;
  if (verification === null) return { outcome: 'REFUSED', reason: 'AGENT_NOT_FOUND', message: 'No agent with this X-Agent-Id is registered.' };
  if (!verification.verified) return { outcome: 'REFUSED', reason: 'AGENT_REVOKED', message: 'The agent was revoked: it may not settle.' };
  const { credential } = verification;
  if (verification.agentId !== input.agentId || credential.agentId !== input.agentId) {
    return { outcome: 'REFUSED', reason: 'AGENT_MISMATCH', message: 'The verification answered for another agent.' };
  }
  if (credential.expiresAt <= input.now.getTime()) {
    return { outcome: 'REFUSED', reason: 'CREDENTIAL_EXPIRED', message: 'The agent credential has expired; verify the agent again.' };
  }
  return { outcome: 'VERIFIED', credential };
}

/**
 * The decision, in order:
 * 1. refused (the route answers PAY_ERR_AGENT_REFUSED, 403): the agent is unknown (null), REVOKED
 *    (Document 2 §3: verification returns REVOKED immediately), the credential names another agent,
 *    or it has expired (1 hour TTL, §8) by `now`; or the amounts are not decimals;
 * 2. every rule that applies is checked, and all violations are listed, not only the first:
 *    - MAX_NOTIONAL: amountUsd <= maxNotionalUsd of the attestation (equal passes);
 *    - DAILY_CAP: settledTodayUsd + amountUsd <= dailyCapUsd of the attestation (equal passes);
 *    - COUNTERPARTY_WHITELIST: when the mandate lists LEIs, the recipient's LEI is one of them
 *      (an unknown LEI cannot be shown to be listed, so it violates);
 *    - CURRENCY_PAIRS: when the mandate lists pairs, `<SRC>|<DST>` is one of them;
 *    - ESG_FLOOR: when the mandate sets a floor, the recipient's score is at least the floor
 *      (an unknown score violates);
 *    Caps come from the signed, live attestation (the mandate's or else the tier's); null is no cap.
 * 3. HOLD when any rule is violated (the same outcome as any oracle or AI hold), else PROCEED.
 */
export function checkAgentMandate(input: {
  agentId: string;
  verification: AgentVerificationView | null;
  mandate: AgentMandateTerms | null;
  settlement: AgentSettlementRequest;
  settledTodayUsd: string | number;
  now: Date;
}): AgentMandateDecision {
  const { mandate, settlement } = input;
  const verdict = agentVerdictOf(input);
  if (verdict.outcome === 'REFUSED') return verdict;
  const { credential } = verdict;
  const amount = usd(settlement.amountUsd);
  const settled = usd(input.settledTodayUsd);
  if (amount === null || settled === null) return { outcome: 'REFUSED', reason: 'INVALID_AMOUNT', message: 'The settlement and daily amounts must be non-negative decimals.' };

  const { attestation } = credential;
  const checked: AgentMandateRule[] = [];
  const violations: RuleViolation[] = [];
  const check = (rule: AgentMandateRule, holds: boolean, message: () => string) => {
    checked.push(rule);
    if (!holds) violations.push({ rule, message: message() });
  };

  if (attestation.maxNotionalUsd !== null) {
    const cap = new Big(attestation.maxNotionalUsd);
    check('MAX_NOTIONAL', amount.lte(cap), () => `USD ${money(amount)} is above the agent's maximum notional of USD ${money(cap)}.`);
  }
  if (attestation.dailyCapUsd !== null) {
    const cap = new Big(attestation.dailyCapUsd);
    const total = settled.plus(amount);
    check('DAILY_CAP', total.lte(cap), () => `USD ${money(settled)} settled today plus USD ${money(amount)} is USD ${money(total)}, above the daily cap of USD ${money(cap)}.`);
  }
  if (mandate !== null && mandate.counterpartyWhitelist.length > 0) {
    const lei = settlement.recipientLei?.toUpperCase() ?? null;
    check('COUNTERPARTY_WHITELIST', lei !== null && mandate.counterpartyWhitelist.some((listed) => listed.toUpperCase() === lei), () =>
      lei === null ? 'The recipient has no known LEI, so it cannot be on the counterparty whitelist.' : `The recipient's LEI ${lei.slice(0, 20)} is not on the counterparty whitelist.`,
    );
  }
  if (mandate !== null && mandate.currencyPairs.length > 0) {
    const pair = `${settlement.sourceCurrency.toUpperCase()}|${settlement.destinationCurrency.toUpperCase()}`;
    check(
      'CURRENCY_PAIRS',
      mandate.currencyPairs.some((allowed) => allowed.toUpperCase() === pair),
      () => `The pair ${pair.slice(0, 16)} is not among the mandate's currency pairs.`,
    );
  }
  if (mandate !== null && mandate.esgFloor !== null) {
    const floor = mandate.esgFloor;
    const score = settlement.recipientEsgScore;
    check('ESG_FLOOR', score !== null && score >= floor, () =>
      score === null ? `The recipient has no ESG score, so the floor of ${floor} cannot be shown to hold.` : `The recipient's ESG score ${score} is below the mandate's floor of ${floor}.`,
    );
  }
  return violations.length === 0 ? { outcome: 'PROCEED', checked } : { outcome: 'HOLD', checked, violations };
}
