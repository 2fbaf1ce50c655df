import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type Address, getAddress, type Hash, parseEventLogs } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../contracts/artifacts/SettlementRouter.js';
import { payments } from '../drizzle/schema.js';
import type { ChainConnection } from '../platform/chain/index.js';
import { feeParameters } from '../subgraphs/fees/data/index.js';
import { createFeeStore } from '../subgraphs/fees/quotes/store.js';
import { ACTIVE_LEI_ENTRY } from './fixtures/lei-entries.js';
import { startTestServer, TEST_NOW, type TestServer } from './helpers.js';

// Decision 0026 through the all-in-one server (compliance, fees and payments in one process): the
// FX rate of the fees subgraph on GET /integration/rates and in a non-USD payment, and a quoteId
// given with a payment (issue 10 item 9). The EUR figures are the shipped H.10 row of 2026-08-14.

const ADMIN_KEY = 'payments-fx-test-admin-key-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const EUR_RATE = '0.8635';
const EUR_DATE_SECONDS = Date.UTC(2026, 7, 14) / 1000;

let server: TestServer;
let rail: ChainConnection;
let bearer: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'], environment: { ADMIN_KEY } });
  rail = await server.platform!.chain.connect();
  bearer = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'treasury desk', 1000)).key}` };
}, 120_000);
afterAll(async () => {
  await server?.close();
});
beforeEach(() => server.clock.set(TEST_NOW));

const freshWallet = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);
const balanceOf = (address: Address) => rail.publicClient.readContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });

async function call(method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) {
  const response = await server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, any> };
}

async function registeredCreditor(): Promise<Address> {
  const wallet = freshWallet();
  const response = await call('POST', '/compliance/register', { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei }, ADMIN);
  expect([200, 201]).toContain(response.status);
  return wallet;
}

function nativePayment(creditor: Address, overrides: Record<string, unknown> = {}) {
  return {
    tmsReference: `TMS-${randomBytes(6).toString('hex')}`,
    amount: '1250.50',
    currency: 'USD',
    settlementAsset: 'USDC',
    creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditor, accountRef: 'ACC-001' },
    debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
    remittanceInfo: 'Invoice 2026-114',
    requestedExecutionDate: '2026-11-23',
    ...overrides,
  };
}

const initiate = (payload: object) => call('POST', '/integration/payments/initiate', payload, bearer);

async function settledEvent(txHash: Hash) {
  const receipt = await rail.publicClient.getTransactionReceipt({ hash: txHash });
  const events = parseEventLogs({ abi: settlementRouterAbi, eventName: 'Settled', logs: receipt.logs });
  expect(events).toHaveLength(1);
  return events[0]!.args;
}

async function issueQuote(terms: Record<string, unknown>) {
  const { status, body } = await call('POST', '/stability/quote', terms);
  expect(status).toBe(200);
  return body as { quoteId: string; fees: { total: { usd: number } } };
}

const storedRow = async (tmsReference: string) => (await server.platform!.database.db.select().from(payments).where(eq(payments.tmsReference, tmsReference)))[0];

/** The ledger is written behind the request (decision 0001): wait until it holds the quote. */
async function untilInLedger(quoteId: string): Promise<void> {
  const store = createFeeStore(server.platform!.database.db);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if ((await store.findQuotes([quoteId])).has(quoteId)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the quote never reached the ledger');
}

describe('GET /integration/rates/{currency} from the fees subgraph', () => {
  it('EUR: exactly {currency, rate, updatedAt}, the shipped rate as text, dated by its observation', async () => {
    expect(await call('GET', '/integration/rates/EUR')).toEqual({ status: 200, body: { currency: 'EUR', rate: EUR_RATE, updatedAt: EUR_DATE_SECONDS } });
    expect(await call('GET', '/integration/rates/JPY')).toEqual({ status: 200, body: { currency: 'JPY', rate: '159.21', updatedAt: EUR_DATE_SECONDS } });
  });
});

describe('a payment in EUR', () => {
  it('settles at the shipped rate: 1000 EUR / 0.8635 EUR per USD = 1158.077591 USDC, with the FX fee', async () => {
    const creditor = await registeredCreditor();
    const { status, body } = await initiate(nativePayment(creditor, { amount: '1000', currency: 'EUR' }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'SETTLED', settlement: { amount: '1000', currency: 'EUR', asset: 'USDC', exchangeRate: EUR_RATE } });
    const event = await settledEvent(body.settlement.txHash);
    expect(event.amount).toBe(1_158_077_591n);
    // The fee is the fee model's for 1158.077591 USD with FX.
    const quote = await issueQuote({ amountUsd: 1158.077591, hasFx: true });
    expect(body.settlement.fee).toBe(String(quote.fees.total.usd));
    expect(await balanceOf(creditor)).toBe(1_158_077_591n - event.fee);
  });
});

describe('a quoteId given with a payment (issue 10 item 9)', () => {
  it('a valid quote at another ESG score: charged exactly the quoted fee, the quote recorded', async () => {
    const creditor = await registeredCreditor();
    const quote = await issueQuote({ amountUsd: 1250.5, hasFx: false, esgScore: 95 });
    const atDefault = await issueQuote({ amountUsd: 1250.5, hasFx: false });
    expect(quote.fees.total.usd).not.toBe(atDefault.fees.total.usd); // so the fee charged shows which quote was used
    await untilInLedger(quote.quoteId);
    const payment = nativePayment(creditor, { quoteId: quote.quoteId });
    const { status, body } = await initiate(payment);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'SETTLED', settlement: { fee: String(quote.fees.total.usd), exchangeRate: '1' } });
    const event = await settledEvent(body.settlement.txHash);
    expect(event.fee).toBe(BigInt(Math.round(quote.fees.total.usd * 1e6)));
    expect(event.quoteId).toBe(quote.quoteId);
    expect((await storedRow(payment.tmsReference))?.quoteId).toBe(quote.quoteId);

    // After the quote expired, the same request still answers the stored result (a replay is not re-checked).
    server.clock.advance(feeParameters.quoteValiditySeconds * 1000);
    expect(await initiate(payment)).toEqual({ status: 200, body });
  });

  it('a valid quote for a EUR payment (its USD amount, with FX)', async () => {
    const creditor = await registeredCreditor();
    const quote = await issueQuote({ amountUsd: 1158.077591, hasFx: true });
    const { body } = await initiate(nativePayment(creditor, { amount: '1000', currency: 'EUR', quoteId: quote.quoteId }));
    expect(body).toMatchObject({ status: 'SETTLED', settlement: { fee: String(quote.fees.total.usd), exchangeRate: EUR_RATE } });
    expect((await settledEvent(body.settlement.txHash)).quoteId).toBe(quote.quoteId);
  });

  it.each([
    [
      'expired',
      async () => {
        const quote = await issueQuote({ amountUsd: 1250.5, hasFx: false });
        server.clock.advance(feeParameters.quoteValiditySeconds * 1000);
        return quote.quoteId;
      },
      'it has expired',
    ],
    [
      'forged',
      async () => {
        const { quoteId } = await issueQuote({ amountUsd: 1250.5, hasFx: false });
        return quoteId.slice(0, -1) + (quoteId.endsWith('0') ? '1' : '0');
      },
      'it was not issued for 1250.5 USD',
    ],
    ['issued for another amount', async () => (await issueQuote({ amountUsd: 1250.49, hasFx: false })).quoteId, 'it was not issued for 1250.5 USD'],
    ['issued with FX for a USD payment', async () => (await issueQuote({ amountUsd: 1250.5, hasFx: true })).quoteId, 'it was not issued for 1250.5 USD'],
  ])('%s: 400 PAY_ERR_QUOTE_INVALID, nothing stored or sent', async (_name, quoteIdOf, why) => {
    const creditor = await registeredCreditor();
    const payment = nativePayment(creditor, { quoteId: await quoteIdOf() });
    const { status, body } = await initiate(payment);
    expect({ status, body }).toEqual({ status: 400, body: { code: 'PAY_ERR_QUOTE_INVALID', error: expect.stringContaining(why) } });
    expect(await storedRow(payment.tmsReference)).toBeUndefined();
    expect(await balanceOf(creditor)).toBe(0n);
  });

  it('a quote already used by a payment: 409 PAY_ERR_QUOTE_USED for another, nothing stored or sent; the first replays (decision 0046)', async () => {
    const creditor = await registeredCreditor();
    const quote = await issueQuote({ amountUsd: 1250.5, hasFx: false });
    const first = nativePayment(creditor, { quoteId: quote.quoteId });
    const settled = await initiate(first);
    expect(settled.body).toMatchObject({ status: 'SETTLED', settlement: { fee: String(quote.fees.total.usd) } });
    const paidBefore = await balanceOf(creditor);
    const second = nativePayment(creditor, { quoteId: quote.quoteId });
    const { status, body } = await initiate(second);
    expect({ status, body }).toEqual({ status: 409, body: { code: 'PAY_ERR_QUOTE_USED', error: expect.stringContaining('already used by another payment') } });
    expect(await storedRow(second.tmsReference)).toBeUndefined();
    expect(await balanceOf(creditor)).toBe(paidBefore);
    expect(await initiate(first)).toEqual(settled);
  });

  it('a EUR quote for the USD amount at another rate is refused', async () => {
    const creditor = await registeredCreditor();
    const quote = await issueQuote({ amountUsd: 1000, hasFx: true });
    const { status, body } = await initiate(nativePayment(creditor, { amount: '1000', currency: 'EUR', quoteId: quote.quoteId }));
    expect({ status, code: body.code }).toEqual({ status: 400, code: 'PAY_ERR_QUOTE_INVALID' });
  });
});
