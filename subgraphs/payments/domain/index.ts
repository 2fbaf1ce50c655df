// The payments subgraph's shared domain: what several families use (the payment, its flow and
// result, USDC amounts, the settling record, what compliance says of an agent). Each family's own
// pure logic is in its domain/ folder (integration/, agent/, callbacks/, recovery/).
export type { Funder, NativePayment, PaymentResult, PaymentStatus } from './payment.js';
export { AGENT_REFERENCE_PROBLEM, isAgentReference } from './payment.js';
// The native payment's flow (decision 0025): transitions, USDC amounts, the attestation.
export { usdcAmountAtUnitsPerUsd, usdcUnitsAtUnitsPerUsd } from './fx-conversion.js';
export type { AmlOutcome, FlowStep, ResultFrame, SettlementOutcome, VopOutcome } from './payment-flow.js';
export { canTransition, complianceOf, finalResult, isFinalStatus, PAYMENT_TRANSITIONS, pendingResult, USDC_DECIMALS, usdcAmountOf, usdcTextOfUnits, usdcUnitsOf } from './payment-flow.js';
// What a payment recorded before its send, and what the chain says after (decision 0039).
export type { SettlementOnChain, SettlingRecord } from './settling.js';
// What the compliance oracle says of a settlement agent (its verification, its record's mandate).
export type { AgentAttestation, AgentMandateTerms, AgentVerificationView } from './agent-verification.js';
