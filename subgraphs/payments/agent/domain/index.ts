// The settlement agent's pure rules: AP2 payment mandates (decision 0023), the agent mandate check,
// the AP2 capability document, and whose money a settlement moves (decision 0049).
export type { Ap2CapabilityData, Ap2CapabilityDocument } from './ap2-capabilities.js';
export { buildAp2Capabilities } from './ap2-capabilities.js';
export type {
  Ap2Amount,
  Ap2Constraint,
  Ap2MandateContent,
  Ap2MandateFailure,
  Ap2MandateFailureReason,
  Ap2MandateMatch,
  Ap2MandateType,
  Ap2Merchant,
  Ap2SettlementQuote,
  Ap2SettlementTerms,
  ConstraintOutcome,
  PresentedDisclosure,
} from './ap2-mandate.js';
export {
  AP2_MANDATE_FAILURES,
  AP2_MANDATE_TYPES,
  AP2_SD_ALGORITHM,
  AP2_SIGNING_ALGORITHM,
  checkDisclosures,
  checkValidityWindow,
  minorUnitDigits,
  RAIL_FEE_CAP_CONSTRAINT,
  readMandateContent,
  toMinorUnits,
} from './ap2-mandate.js';
export { matchMandate } from './ap2-match.js';
export type { AgentMandateDecision, AgentMandateRule, AgentRefusalReason, AgentSettlementRequest, RuleViolation } from './mandate-check.js';
export { AGENT_MANDATE_RULES, agentVerdictOf, checkAgentMandate } from './mandate-check.js';
// Whose money an agent settles (decision 0049): its owner's deposits.
export type { AgentFunds, Deposit, DepositRules, TransferLog } from './funds.js';
export { agentFundsOf, depositsIn, fundingWalletMessage, fundsCover } from './funds.js';
