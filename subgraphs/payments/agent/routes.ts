import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAdminKey } from '../../../platform/access/shared-secret.js';
import { httpRoutes, type HttpServer, publicOriginOf, type ServiceErrorShape } from '../../../platform/http.js';
import { registerOpenApi } from '../../../platform/openapi.js';
import { AGENT_PREFIX, asPaymentsError, INTEGRATION_API_VERSION } from '../shared/api.js';
import type { Ap2CapabilityDocument } from './domain/index.js';
import type { AgentFundsService } from './funds.js';
import { type HeldSettlements, MAX_LISTED_HOLDS } from './holds.js';
import {
  depositBodySchema,
  fundingWalletBodySchema,
  fundsHeadersSchema,
  holdDecisionBodySchema,
  holdParamsSchema,
  holdsQuerySchema,
  issuerDepositBodySchema,
  issuerFundsQuerySchema,
  readAgentId,
  readDepositBody,
  readFundingWalletBody,
  readHoldDecisionBody,
  readHoldId,
  readHoldsQuery,
  readIssuerDepositBody,
  readIssuerFundsQuery,
  readSettleBody,
  settleBodySchema,
  settleHeadersSchema,
} from './inputs.js';
import {
  agentErrorSchema,
  agentFundsSchema,
  depositAnswerSchema,
  heldSettlementListSchema,
  heldSettlementSchema,
  issuerDepositAnswerSchema,
  issuerFundsSchema,
  settlementAnswerSchema,
} from './responses.js';
import type { SettlementAgent } from './service.js';

/**
 * The settlement agent's errors are {error, code} like the integration API's, plus `reason` for a
 * mandate refused (PAY_ERR_MANDATE_INVALID) or an agent refused (PAY_ERR_AGENT_REFUSED); a
 * malformed request is PAY_ERR_INVALID_REQUEST.
 */
const agentErrorShape: ServiceErrorShape = {
  prefix: AGENT_PREFIX,
  refine: asPaymentsError,
  body: (error) => ({ error: error.message, code: error.code, ...(typeof error.details.reason === 'string' ? { reason: error.details.reason } : {}) }),
};

export interface AgentRouteOptions {
  /** The capability document for the agent URL (`<origin>/agent`). */
  capabilities(agentUrl: string): Ap2CapabilityDocument;
  holds: HeldSettlements;
  /** ADMIN_KEY: the operator's key for the held settlements; unset closes them. */
  adminKey: string | undefined;
  /** The agents' funds (decision 0049). */
  funds: AgentFundsService;
}

/** Our own readers take the input (PAY_ERR_INVALID_REQUEST naming the fields); the schemas document it. */
const readByHandler = () => (data: unknown) => ({ value: data });

/** POST /agent/settle, GET /agent/.well-known/ap2.json (Document 2 §4 "Settlement agent") and /agent/holds; thin. */
export function agentRoutes(agent: SettlementAgent, options: AgentRouteOptions): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    await registerOpenApi(app, {
      prefix: AGENT_PREFIX,
      title: 'Settlement agent',
      version: INTEGRATION_API_VERSION,
      description: 'Settlement under an agent mandate (X-Agent-Id) or an AP2 payment mandate (Document 2 §4).',
    });
    app.errorShapes.register(agentErrorShape);
    const errors = { 400: agentErrorSchema, 401: agentErrorSchema, 403: agentErrorSchema, 404: agentErrorSchema, 409: agentErrorSchema, 429: agentErrorSchema, 503: agentErrorSchema };

    app.post(
      `${AGENT_PREFIX}/settle`,
      {
        schema: {
          summary:
            "Settle from the agent owner's funds (X-Agent-Id with X-Agent-Key) under its mandate (verified live) and an AP2 payment mandate when given (body.mandate), or, with body.mandate alone, from its trusted issuer's funds; a mandate violation holds the settlement; Idempotency-Key answers a retry once",
          headers: settleHeadersSchema,
          body: settleBodySchema,
          response: { 200: settlementAnswerSchema, ...errors },
        },
        validatorCompiler: readByHandler,
      },
      async (request) => agent.settle(request.requestContext, readSettleBody(request.body), readAgentId(request.headers['x-agent-id'])),
    );
    app.get(
      `${AGENT_PREFIX}/.well-known/ap2.json`,
      { schema: { summary: 'AP2 capability document: mandate types, algorithms, constraints, trusted issuers (ids), endpoints', response: { 200: z.record(z.string(), z.unknown()) } } },
      async (request) => ({ ...options.capabilities(`${publicOriginOf(request)}${AGENT_PREFIX}`) }),
    );
    holdRoutes(app, options);
    fundsRoutes(app, options.funds, options.adminKey, errors);
  });
}

/** The agent's funds (decision 0049): its owner's proof on every call; a trusted issuer's: the admin key. */
function fundsRoutes(app: HttpServer, funds: AgentFundsService, adminKey: string | undefined, errors: Record<number, typeof agentErrorSchema>): void {
  const agentIdOf = (request: FastifyRequest) => readAgentId(request.headers['x-agent-id']);
  app.get(
    `${AGENT_PREFIX}/funds`,
    {
      schema: {
        summary: "The agent's funds: deposited, spent, available, its funding wallets and the treasury to deposit to",
        headers: fundsHeadersSchema,
        response: { 200: agentFundsSchema, ...errors },
      },
      validatorCompiler: readByHandler,
    },
    async (request) => funds.funds(request.requestContext, agentIdOf(request)),
  );
  app.post(
    `${AGENT_PREFIX}/funding-wallets`,
    {
      schema: {
        summary: "Bind a wallet of the owner to the agent, proven by the wallet's EIP-191 signature; its transfers to the treasury become the agent's deposits",
        headers: fundsHeadersSchema,
        body: fundingWalletBodySchema,
        response: { 200: agentFundsSchema, ...errors },
      },
      validatorCompiler: readByHandler,
    },
    async (request) => funds.bindFundingWallet(request.requestContext, agentIdOf(request), readFundingWalletBody(request.body)),
  );
  app.post(
    `${AGENT_PREFIX}/deposits`,
    {
      schema: {
        summary: "Credit a deposit: each transfer of the rail's token to its treasury from the agent's funding wallets in the transaction, once",
        headers: fundsHeadersSchema,
        body: depositBodySchema,
        response: { 200: depositAnswerSchema, ...errors },
      },
      validatorCompiler: readByHandler,
    },
    async (request) => funds.creditDeposit(request.requestContext, agentIdOf(request), readDepositBody(request.body)),
  );
  // A trusted AP2 issuer's funds (decision 0049 §9): the operator's, admin key checked before the input is read.
  const admin = { onRequest: async (request: FastifyRequest) => requireAdminKey(request.requestContext, adminKey), validatorCompiler: readByHandler };
  app.get(
    `${AGENT_PREFIX}/issuers/funds`,
    {
      ...admin,
      schema: {
        summary: "A trusted AP2 issuer's funds, which pay the settlements under its mandates alone: deposited, spent, available, its configured funding wallets (admin key)",
        querystring: issuerFundsQuerySchema,
        response: { 200: issuerFundsSchema, ...errors },
      },
    },
    async (request) => funds.issuerFunds(request.requestContext, readIssuerFundsQuery(request.query)),
  );
  app.post(
    `${AGENT_PREFIX}/issuers/deposits`,
    {
      ...admin,
      schema: {
        summary: "Credit a trusted AP2 issuer's deposit: each transfer of the rail's token to its treasury from the issuer's configured funding wallets in the transaction, once (admin key)",
        body: issuerDepositBodySchema,
        response: { 200: issuerDepositAnswerSchema, ...errors },
      },
    },
    async (request) => funds.creditIssuerDeposit(request.requestContext, readIssuerDepositBody(request.body)),
  );
}

/** The operator's held settlements (decision 0047): admin key, checked when the request arrives (before its body is read). */
function holdRoutes(app: HttpServer, options: AgentRouteOptions): void {
  const { holds } = options;
  const errors = { 400: agentErrorSchema, 401: agentErrorSchema, 403: agentErrorSchema, 404: agentErrorSchema, 409: agentErrorSchema, 503: agentErrorSchema };
  const admin = { onRequest: async (request: FastifyRequest) => requireAdminKey(request.requestContext, options.adminKey), validatorCompiler: readByHandler };
  const decision = { params: holdParamsSchema, body: holdDecisionBodySchema };
  app.get(
    `${AGENT_PREFIX}/holds`,
    {
      ...admin,
      schema: {
        summary: `Held settlements, most recent first (at most ${MAX_LISTED_HOLDS}), by agent and status (admin key)`,
        querystring: holdsQuerySchema,
        response: { 200: heldSettlementListSchema, ...errors },
      },
    },
    async (request) => holds.list(request.requestContext, readHoldsQuery(request.query)),
  );
  app.get(
    `${AGENT_PREFIX}/holds/:holdId`,
    { ...admin, schema: { summary: 'A held settlement (admin key)', params: holdParamsSchema, response: { 200: heldSettlementSchema, ...errors } } },
    async (request) => holds.get(request.requestContext, readHoldId(request.params)),
  );
  app.post(
    `${AGENT_PREFIX}/holds/:holdId/release`,
    {
      ...admin,
      schema: {
        summary: 'Release a held settlement: the operator overrides the mandate; the agent is verified live and the settlement sent once (admin key)',
        ...decision,
        response: { 200: settlementAnswerSchema, ...errors },
      },
    },
    async (request) => {
      readHoldDecisionBody(request.body);
      return holds.release(request.requestContext, readHoldId(request.params));
    },
  );
  app.post(
    `${AGENT_PREFIX}/holds/:holdId/dismiss`,
    { ...admin, schema: { summary: 'Dismiss a held settlement: nothing is sent (admin key)', ...decision, response: { 200: heldSettlementSchema, ...errors } } },
    async (request) => {
      readHoldDecisionBody(request.body);
      return holds.dismiss(request.requestContext, readHoldId(request.params));
    },
  );
}
