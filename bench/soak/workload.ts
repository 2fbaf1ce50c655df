import { createPaymentHeader } from 'x402/client';
import { settleResponseFromHeader } from 'x402/types';
import { VENDOR_QUERY } from '../../test/fixtures/vendor-query.js';
import { type Answer, parsedBody, send, type SoakRequest } from './http.js';
import { initiatePayment } from './payments.js';
import type { Random } from './random.js';
import type { RequestKind } from './records.js';
import { PAID_PATH } from './setup.js';
import { type MixEntry, record, type Workload } from './workload-context.js';

/** A read: expected when it is a 200 whose JSON body (an object or a list) has what `accepts` needs. */
async function read(workload: Workload, kind: RequestKind, path: string, request: SoakRequest, accepts: (body: Record<string, unknown>) => boolean): Promise<Answer> {
  const answer = await send(`${workload.cluster.url}${path}`, request);
  const body = parsedBody(answer);
  const object = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  record(workload, kind, answer, answer.outcome === 200 && body !== undefined && accepts(object));
  return answer;
}

function countKey(workload: Workload, answer: Answer): void {
  const limit = answer.headers?.get('x-ratelimit-limit');
  const remaining = answer.headers?.get('x-ratelimit-remaining');
  const reset = answer.headers?.get('x-ratelimit-reset');
  if (limit == null || remaining == null || reset == null) return;
  workload.observations.keyCounts.push({ at: answer.endedAt, limit: Number(limit), remaining: Number(remaining), resetSeconds: Number(reset) });
}

const amountUsd = (random: Random) => random.integer(100, 99_999) / 100;
const hasData = (field: string) => (body: Record<string, unknown>) => body[field] !== undefined && body[field] !== null;
const graphQLAnswered = (body: Record<string, unknown>) => body.errors === undefined && (body.data as Record<string, unknown> | undefined)?.vendorAssessment != null;

/** The authorization's payer and nonce, read back from the X-PAYMENT header (base64 JSON, x402 v1). */
function authorizationOf(header: string): { payer: string; nonce: string } {
  const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { payload: { authorization: { from: string; nonce: string } } };
  return { payer: decoded.payload.authorization.from.toLowerCase(), nonce: decoded.payload.authorization.nonce.toLowerCase() };
}

async function paidByX402(workload: Workload): Promise<void> {
  const payer = workload.random.pick(workload.accounts.payers);
  const header = await createPaymentHeader(payer as never, 1, workload.accounts.requirements);
  const answer = await send(`${workload.cluster.url}${PAID_PATH}`, { headers: { 'x-payment': header } });
  const settlement = answer.headers?.get('x-payment-response');
  const settledInAnswer = settlement ? settleResponseFromHeader(settlement).success : false;
  record(workload, 'paid-x402', answer, answer.outcome === 200 && settledInAnswer);
  workload.observations.x402.push({ ...authorizationOf(header), startedAt: answer.startedAt, endedAt: answer.endedAt, outcome: answer.outcome, settledInAnswer });
}

/** The mix (decision 0089): weights are shares of the requests started. */
export const MIX: readonly MixEntry[] = [
  {
    name: 'GET /stability/quote',
    weight: 3,
    run: async (workload) => {
      await read(workload, 'stability-quote-get', `/stability/quote?amountUsd=${amountUsd(workload.random)}&hasFx=true&esgScore=75`, {}, hasData('quoteId'));
    },
  },
  {
    name: 'POST /stability/quote',
    weight: 2,
    run: async (workload) => {
      await read(workload, 'stability-quote-post', '/stability/quote', { json: { amountUsd: amountUsd(workload.random), hasFx: false, esgScore: 60 } }, hasData('quoteId'));
    },
  },
  {
    name: 'forecast',
    weight: 2,
    run: async (workload) => {
      const path = workload.random.pick(['/forecast/heat-check', '/forecast/commodity/WHEAT', '/forecast/regions']);
      await read(workload, 'forecast', path, {}, () => true);
    },
  },
  {
    name: 'vendorAssessment (GraphQL, X-API-Key)',
    weight: 1,
    run: async (workload) => {
      const { creditorName, creditorLei, creditors, apiKey } = workload.accounts;
      const variables = { name: creditorName, lei: creditorLei, wallet: workload.random.pick(creditors), amount: amountUsd(workload.random) };
      const answer = await read(workload, 'vendor-assessment', '/graphql', { headers: { 'x-api-key': apiKey }, json: { query: VENDOR_QUERY, variables } }, graphQLAnswered);
      countKey(workload, answer);
    },
  },
  {
    name: 'GET /v1/intelligence/contagion (free listing)',
    weight: 1,
    run: async (workload) => {
      await read(workload, 'intelligence-listing', '/v1/intelligence/contagion', {}, () => true);
    },
  },
  {
    name: `GET ${PAID_PATH} (X-API-Key)`,
    weight: 2,
    run: async (workload) => {
      const answer = await read(workload, 'paid-api-key', PAID_PATH, { headers: { 'x-api-key': workload.accounts.apiKey } }, () => true);
      countKey(workload, answer);
    },
  },
  { name: `GET ${PAID_PATH} (x402)`, weight: 2, run: paidByX402 },
  { name: 'payment with a callback', weight: 2, run: initiatePayment },
];
