import { AGENT_KEY_HEADER, isAgentKeyFormat } from '../../../platform/access/agent-key.js';
import { admitAgentKey } from '../../../platform/access/agent-rate-limit.js';
import type { RateLimitStore } from '../../../platform/access/rate-limit.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { ComplianceClient } from '../upstream/compliance.js';

export interface AgentAuthorityDeps {
  /** Undefined without INTERNAL_KEY (the compliance oracle is closed to payments). */
  compliance: ComplianceClient | undefined;
  /** The API keys' rate-limit store: the agent key's per-minute limit (decision 0048). */
  rateLimits: RateLimitStore;
  clock: Clock;
}

const unauthorized = (message?: string) => new AppError('PAY_ERR_AGENT_UNAUTHORIZED', message ? { message } : {});

/**
 * The agent a request may act for with money (decision 0048): X-Agent-Id names it, X-Agent-Key is
 * its owner's key, of the agent key's format (platform/access/agent-key.ts), checked by the compliance oracle which keeps the key's digest (POST
 * /compliance/agent/:id/authorize, internal); then the key's per-minute limit is counted. An
 * unknown agent is refused as a wrong key is, 401, so the answer tells a stranger nothing. The
 * limit covers settlements (decision 0048 §7): the agent's funds (reading them, binding a wallet,
 * crediting a deposit) pass `countsAgainstLimit: false`, so they never use up the settlement budget.
 */
export async function requireAgentOwner(
  deps: AgentAuthorityDeps,
  request: RequestContext,
  agentId: string | undefined,
  options: { countsAgainstLimit: boolean } = { countsAgainstLimit: true },
): Promise<string> {
  if (agentId === undefined) throw unauthorized("Send X-Agent-Id and its owner's X-Agent-Key (decision 0048).");
  const agentKey = request.headers[AGENT_KEY_HEADER];
  // A key of another shape is nobody's: refused here, not passed to the oracle (which would answer 400).
  if (agentKey === undefined || !isAgentKeyFormat(agentKey)) throw unauthorized();
  if (!deps.compliance) throw new AppError('GEN_ERR_UNAVAILABLE', { message: "An agent's key cannot be checked: INTERNAL_KEY is not configured, so the compliance oracle is closed to payments." });
  if (!(await deps.compliance.authorizeAgent(agentId, agentKey))) throw unauthorized();
  if (options.countsAgainstLimit) await admitAgentKey(deps.rateLimits, request, agentId, deps.clock);
  return agentId;
}
