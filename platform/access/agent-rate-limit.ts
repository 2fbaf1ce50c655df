import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import { rateLimitHeaders, setHeaders } from './admission.js';
import type { RateLimitStore } from './rate-limit.js';

/**
 * The per-key rate limit of an agent's key (decision 0048): its settlements, mandate changes and
 * revocations, on whichever subgraph, count in one window of one minute in the API keys' store
 * (the database or Redis), so every replica shares one exact count. Counted only once the proof
 * held: a stranger cannot spend the owner's budget.
 */
export const AGENT_REQUESTS_PER_MINUTE = 60;
const WINDOW_MS = 60_000;

export async function admitAgentKey(store: RateLimitStore, request: RequestContext, agentId: string, clock: Clock): Promise<void> {
  const nowMs = clock.now().getTime();
  const windowStart = new Date(nowMs - (nowMs % WINDOW_MS));
  const used = await store.hit(`agent-key:${agentId}`, windowStart, WINDOW_MS);
  const state = {
    limit: AGENT_REQUESTS_PER_MINUTE,
    remaining: Math.max(0, AGENT_REQUESTS_PER_MINUTE - used),
    resetSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - nowMs) / 1000)),
    exceeded: used > AGENT_REQUESTS_PER_MINUTE,
  };
  setHeaders(request, rateLimitHeaders(state));
  if (state.exceeded)
    throw new AppError('GEN_ERR_RATE_LIMITED', {
      retryAfterSeconds: state.resetSeconds,
      message: `An agent's key is limited to ${AGENT_REQUESTS_PER_MINUTE} settlements, mandate changes and revocations a minute.`,
    });
}
