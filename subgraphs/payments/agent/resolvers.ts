import { Big } from 'big.js';
import { requireAdminKey } from '../../../platform/access/shared-secret.js';
import { AppError } from '../../../platform/errors.js';
import { withoutNulls } from '../../../platform/graphql.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AgentFundsService } from './funds.js';
import type { HeldSettlements } from './holds.js';
import { readAgentId, readDepositBody, readFundingWalletBody, readHoldId, readHoldsQuery, readIssuerDepositBody, readIssuerFundsQuery, readSettleBody, type SettleBody } from './inputs.js';
import type { SettlementAgent } from './service.js';

/**
 * The settlement agent in the graph (decision 0083): thin, each field calls the function its REST
 * route calls (agent/routes.ts), with the same authority read from the same forwarded headers:
 * X-Agent-Id and X-Agent-Key (the owner's proof, checked in the service), Idempotency-Key (read by
 * the service), and the admin key (Authorization: Bearer) checked before the input is read, as the
 * routes' onRequest hooks do.
 */
export interface AgentGraphDeps {
  agent: SettlementAgent;
  holds: HeldSettlements;
  funds: AgentFundsService;
  /** ADMIN_KEY: the held settlements and the issuers' funds. */
  adminKey: string | undefined;
}

interface AgentGraphContext {
  request: RequestContext;
}

/** X-Agent-Id as REST reads it (absent, or one agentId; else PAY_ERR_INVALID_REQUEST). */
const agentIdOf = (context: AgentGraphContext) => readAgentId(context.request.headers['x-agent-id']);

/**
 * SettleInput as POST /agent/settle's body: REST takes the amount as a JSON number, the graph as a
 * Decimal, given to the same reader as the number it is, only when that number is exactly it (a
 * Decimal a double cannot hold would settle another amount).
 */
function settleBodyOf(input: Record<string, unknown>): SettleBody {
  const { amount, ...rest } = withoutNulls(input);
  const asNumber = Number(amount);
  if (typeof amount !== 'string' || !Number.isFinite(asNumber) || !new Big(asNumber).eq(new Big(amount)))
    throw new AppError('PAY_ERR_INVALID_REQUEST', { message: 'Invalid body: amount must be a decimal a JSON number holds exactly (at most 15 significant digits).' });
  return readSettleBody({ amount: asNumber, ...rest });
}

export function createAgentResolvers(deps: AgentGraphDeps) {
  const { agent, holds, funds, adminKey } = deps;
  const asAdmin = (context: AgentGraphContext) => requireAdminKey(context.request, adminKey);
  return {
    Query: {
      agentFunds: (_: unknown, __: unknown, context: AgentGraphContext) => funds.funds(context.request, agentIdOf(context)),
      issuerFunds: (_: unknown, args: { issuer: string }, context: AgentGraphContext) => {
        asAdmin(context);
        return funds.issuerFunds(context.request, readIssuerFundsQuery(args));
      },
      heldSettlements: (_: unknown, args: { agentId?: string | null; status?: string | null }, context: AgentGraphContext) => {
        asAdmin(context);
        return holds.list(context.request, readHoldsQuery(withoutNulls(args)));
      },
      heldSettlement: (_: unknown, args: { holdId: string }, context: AgentGraphContext) => {
        asAdmin(context);
        return holds.get(context.request, readHoldId(args));
      },
    },
    Mutation: {
      settle: (_: unknown, args: { input: Record<string, unknown> }, context: AgentGraphContext) => agent.settle(context.request, settleBodyOf(args.input), agentIdOf(context)),
      bindFundingWallet: (_: unknown, args: { input: Record<string, unknown> }, context: AgentGraphContext) =>
        funds.bindFundingWallet(context.request, agentIdOf(context), readFundingWalletBody(args.input)),
      creditAgentDeposit: (_: unknown, args: { txHash: string }, context: AgentGraphContext) => funds.creditDeposit(context.request, agentIdOf(context), readDepositBody(args)),
      creditIssuerDeposit: (_: unknown, args: { issuer: string; txHash: string }, context: AgentGraphContext) => {
        asAdmin(context);
        return funds.creditIssuerDeposit(context.request, readIssuerDepositBody(args));
      },
      releaseHeldSettlement: (_: unknown, args: { holdId: string }, context: AgentGraphContext) => {
        asAdmin(context);
        return holds.release(context.request, readHoldId(args));
      },
      dismissHeldSettlement: (_: unknown, args: { holdId: string }, context: AgentGraphContext) => {
        asAdmin(context);
        return holds.dismiss(context.request, readHoldId(args));
      },
    },
  };
}
