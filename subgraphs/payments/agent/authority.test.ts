import { describe, expect, it } from 'vitest';
import type { RateLimitStore } from '../../../platform/access/rate-limit.js';
import { ManualClock } from '../../../platform/clock.js';
import { AppError, errorCatalog } from '../../../platform/errors.js';
import { createRequestContext } from '../../../platform/request-context.js';
import type { UpstreamRequest, UpstreamResponse } from '../../../platform/upstream.js';
import { createComplianceClient } from '../upstream/compliance.js';
import { requireAgentOwner } from './authority.js';

// How the settlement agent checks an owner's key against the compliance oracle (decision 0048 §4,
// §5), over the client's transport seam: what the oracle answers, and what it is never asked.

const AGENT_ID = 'agt_AAAAAAAAAAAAAAAAAAAAAA';
const WELL_FORMED_KEY = `agk_${'B'.repeat(43)}`;
const clock = new ManualClock(new Date('2026-01-05T10:00:00Z'));

function oracleAnswering(answer: UpstreamResponse) {
  const asked: UpstreamRequest[] = [];
  const compliance = createComplianceClient({ internalKey: 'internal', transport: async (request) => (asked.push(request), answer) });
  return { compliance, asked };
}

/** The rate limit is counted only after the proof held: none of these requests gets that far. */
const untouchedRateLimits: RateLimitStore = {
  kind: 'database',
  hit: async () => {
    throw new Error('the rate limit was counted before the proof held');
  },
  close: async () => undefined,
};

async function refusalOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('requireAgentOwner', () => {
  it('refuses a key not of the agent key format (200 characters) with 401, without asking the oracle (which would answer 400)', async () => {
    const { compliance, asked } = oracleAnswering({ status: 400, headers: {}, body: { code: 'GEN_ERR_VALIDATION' } });
    const request = createRequestContext({ 'x-agent-id': AGENT_ID, 'x-agent-key': 'k'.repeat(200) }, clock);
    const refusal = await refusalOf(requireAgentOwner({ compliance, rateLimits: untouchedRateLimits, clock }, request, AGENT_ID));
    expect(refusal.code).toBe('PAY_ERR_AGENT_UNAUTHORIZED');
    expect(asked).toEqual([]);
  });

  it('answers 503 GEN_ERR_UNAVAILABLE when the oracle answers the check with anything but 200, 401 or 404 (here 500)', async () => {
    const { compliance, asked } = oracleAnswering({ status: 500, headers: {}, body: { code: 'GEN_ERR_INTERNAL', error: 'boom' } });
    const request = createRequestContext({ 'x-agent-id': AGENT_ID, 'x-agent-key': WELL_FORMED_KEY }, clock);
    const refusal = await refusalOf(requireAgentOwner({ compliance, rateLimits: untouchedRateLimits, clock }, request, AGENT_ID));
    expect(refusal.code).toBe('GEN_ERR_UNAVAILABLE');
    expect(errorCatalog[refusal.code].status).toBe(503);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'POST', path: `/compliance/agent/${AGENT_ID}/authorize`, body: { agentKey: WELL_FORMED_KEY } });
  });

  it("reads the oracle's 401 CMP_ERR_AGENT_UNAUTHORIZED and its 404 as a key that is not the agent's: 401", async () => {
    for (const answer of [
      { status: 401, headers: {}, body: { code: 'CMP_ERR_AGENT_UNAUTHORIZED' } },
      { status: 404, headers: {}, body: { code: 'CMP_ERR_AGENT_NOT_FOUND' } },
    ]) {
      const { compliance } = oracleAnswering(answer);
      const request = createRequestContext({ 'x-agent-id': AGENT_ID, 'x-agent-key': WELL_FORMED_KEY }, clock);
      expect((await refusalOf(requireAgentOwner({ compliance, rateLimits: untouchedRateLimits, clock }, request, AGENT_ID))).code).toBe('PAY_ERR_AGENT_UNAUTHORIZED');
    }
  });
});
