import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import type { Address, Hash } from 'viem';
import { createDatabaseRateLimitStore } from '../../../platform/access/rate-limit.js';
import { createIdempotency } from '../../../platform/idempotency.js';
import { createAgentFunds, type FundsRail } from './funds.js';
import { createAgentFundsStore } from './funds-store.js';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../../platform/errors.js';
import type { PlatformServices } from '../../../platform/subgraph.js';
import { agentManifestRoutes } from './manifest.js';
import { createAgentSettlementStore } from './store.js';
import { agentRoutes } from './routes.js';
import { createHeldSettlements } from './holds.js';
import { createSettlementAgent } from './service.js';
import { createAp2MandateVerifier } from './ap2-verifier.js';
import { ap2CapabilityData } from './data/ap2-capabilities.js';
import { buildAp2Capabilities } from './domain/index.js';
import { railTreasuryOf } from '../rail/settlement.js';
import type { PaymentsService } from '../integration/service.js';
import { COMPLIANCE_SERVICE, createComplianceClient } from '../upstream/compliance.js';
import { createFeesClient, FEES_SERVICE } from '../upstream/fees.js';

/** The wallet the rail settles from (decision 0025): the one rail/settlement.ts settles from, whether or not x402 payments are taken. */
async function treasuryWallet(platform: PlatformServices): Promise<string> {
  const connection = await platform.chain.connect();
  const { settlerKey } = platform.config.access;
  const address = railTreasuryOf(connection, settlerKey ? privateKeyToAccount(settlerKey as Hash) : undefined)?.address;
  if (!address) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'The rail has no settling account (RAIL_SETTLER_KEY is not configured).' });
  return address;
}

/** The rail as an agent's deposits are read on it (decision 0049): its token and the treasury they are paid to. */
async function fundsRail(platform: PlatformServices): Promise<FundsRail> {
  const connection = await platform.chain.connect();
  const token = connection.contracts.token;
  if (!token) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'The rail has no token configured: deposits cannot be read.' });
  return { publicClient: connection.publicClient, token, treasury: (await treasuryWallet(platform)) as Address, chainId: await connection.publicClient.getChainId() };
}

/** The settlement agent family as the payments subgraph composes it. */
export interface SettlementAgentFamily {
  /** Its routes under /agent: the agent's (settle, capabilities, holds, funds, with its OpenAPI document), then its manifest. */
  routes: FastifyPluginAsync;
}

/**
 * The settlement agent under /agent (decision 0027), part of the payments subgraph: its routes are
 * registered after the integration API's, and its settlements go through `service`, the payments of
 * the settlement agent's tenant (decision 0050).
 */
export function buildSettlementAgent(platform: PlatformServices, service: PaymentsService): SettlementAgentFamily {
  const { config } = platform;
  const { internalKey } = platform.access;
  const trustedIssuers = config.agent.ap2TrustedIssuers;
  const { db } = platform.database;
  const authority = {
    compliance: internalKey ? createComplianceClient({ transport: platform.upstream.transport(COMPLIANCE_SERVICE), internalKey }) : undefined,
    rateLimits: platform.access.rateLimits ?? createDatabaseRateLimitStore(db),
    clock: platform.clock,
  };
  const { adminKey } = config.access;
  const funds = createAgentFunds({ ...authority, store: createAgentFundsStore(db, { timeoutMs: config.database.statementTimeoutMs }), rail: () => fundsRail(platform), issuers: trustedIssuers, adminKey });
  const deps = {
    ...authority,
    payments: service,
    store: createAgentSettlementStore(db, { timeoutMs: config.database.statementTimeoutMs }),
    payerWallet: () => treasuryWallet(platform),
    ids: platform.ids,
    funds,
  };
  const agent = createSettlementAgent({
    ...deps,
    fees: createFeesClient({ transport: platform.upstream.transport(FEES_SERVICE) }),
    verifier: createAp2MandateVerifier({ trustedIssuers: new Map([...trustedIssuers].map(([issuer, trusted]) => [issuer, trusted.jwk])), clock: platform.clock }),
    idempotency: createIdempotency(db, { clock: platform.clock }),
  });
  const holds = createHeldSettlements({ ...deps, adminKey });
  const data = ap2CapabilityData();
  const agentPlugin = agentRoutes(agent, { capabilities: (agentUrl) => buildAp2Capabilities(data, { agentUrl, trustedIssuers: trustedIssuers.keys() }), holds, adminKey, funds });
  return {
    routes: httpRoutes(async (app) => {
      await app.register(agentPlugin);
      await app.register(agentManifestRoutes());
    }),
  };
}
