import { randomBytes } from 'node:crypto';
import { SDJwtInstance } from '@sd-jwt/core';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { eq } from 'drizzle-orm';
import { type Address, getAddress, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { payments } from '../../drizzle/schema.js';
import type { ChainConnection } from '../../platform/chain/index.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../../platform/db.js';
import { bindFundingWallet, fundAgent, fundWallet, ownerWallet, registerTestAgent, transferToTreasury, treasuryOf } from '../../subgraphs/payments/agent/testing.js';
import { ACTIVE_LEI_ENTRY } from '../fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from '../helpers.js';

// Issue 21 "What to build" 2, the AP2 path (decision 0049 §9): a settlement under an AP2 mandate
// alone (no X-Agent-Id) is paid from its trusted issuer's deposits, never the rail's: credited by
// the operator from the wallets AP2_TRUSTED_ISSUERS names for the issuer, checked before anything
// is sent and again at the claim, under concurrency too. Run on PGlite, and on PostgreSQL when
// DATABASE_URL is set.

const ADMIN_KEY = 'issuer-funds-test-admin-key-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const databaseUrl = process.env.DATABASE_URL;
const drivers = ['pglite', ...(databaseUrl ? ['postgres'] : [])];

type Jwk = Record<string, unknown>;
type KeyPair = { publicKey: Jwk; privateKey: Jwk };
const publicOf = (jwk: Jwk) => ({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y });

/** A trusted issuer of this server: its signing key and its one funding wallet (the operator's configuration). */
interface TestIssuer {
  iss: string;
  key: KeyPair;
  wallet: ReturnType<typeof privateKeyToAccount>;
}

async function testIssuer(iss: string): Promise<TestIssuer> {
  return { iss, key: (await ES256.generateKeyPair()) as KeyPair, wallet: privateKeyToAccount(generatePrivateKey()) };
}

describe.each(drivers)("a mandate alone is paid from its issuer's funds on %s", (driver) => {
  const schemaName = `t_ap2f_${process.pid}_${Date.now().toString(36)}`;
  let handle: DatabaseHandle | undefined;
  let server: TestServer;
  let rail: ChainConnection;
  let recipient: Address;
  let bank: TestIssuer;
  let unfunded: TestIssuer;
  let small: TestIssuer;

  const call = async (method: 'GET' | 'POST', url: string, options: { payload?: unknown; headers?: Record<string, string> } = {}) => {
    const { status, body } = await injectJson(server, method, url, options);
    return { status, body };
  };
  const balanceOf = (address: Address) => rail.publicClient.readContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
  const nowSeconds = () => Math.floor(server.clock.now().getTime() / 1000);
  const fundsOf = async (issuer: TestIssuer) => (await call('GET', `/agent/issuers/funds?issuer=${encodeURIComponent(issuer.iss)}`, { headers: ADMIN })).body;
  const creditDeposit = (issuer: string, txHash: Hash) => call('POST', '/agent/issuers/deposits', { headers: ADMIN, payload: { issuer, txHash } });

  /** The issuer's mandate paying `usd` (whole dollars) to the recipient, valid for the next hour. */
  async function mandateOf(issuer: TestIssuer, usd: number): Promise<string> {
    const instance = new SDJwtInstance({ signer: await ES256.getSigner(issuer.key.privateKey), signAlg: 'ES256', hasher: digest, hashAlg: 'sha-256', saltGenerator: generateSalt });
    const claims = {
      iss: issuer.iss,
      iat: nowSeconds() - 60,
      exp: nowSeconds() + 3600,
      vct: 'mandate.payment.1',
      payee: { id: recipient, name: ACTIVE_LEI_ENTRY.legalName },
      payment_amount: { amount: usd * 100, currency: 'USD' },
    };
    return instance.issue(claims, { _sd: ['payee', 'payment_amount'] } as never, { header: { typ: 'dc+sd-jwt' } });
  }
  /** The admin's view of a payment in the graph: whose funds paid it. */
  async function fundedBy(railPaymentId: string) {
    const response = await server.app.inject({
      method: 'POST',
      url: '/subgraphs/payments/graphql',
      headers: ADMIN,
      payload: { query: 'query($id: ID!) { payment(railPaymentId: $id) { fundingIssuer settlementAgent { id } } }', variables: { id: railPaymentId } },
    });
    return response.json() as { data?: { payment: { fundingIssuer: string | null; settlementAgent: { id: string } | null } | null }; errors?: unknown };
  }
  const settle = async (usd: number, mandate: string, headers: Record<string, string> = {}) =>
    call('POST', '/agent/settle', { headers, payload: { amount: usd, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient, mandate } });

  /** The operator's part: `usd` transferred from the issuer's configured wallet to the treasury and credited. */
  async function fundIssuer(issuer: TestIssuer, usd: string): Promise<Hash> {
    await fundWallet(rail, issuer.wallet, usd);
    const txHash = await transferToTreasury(rail, issuer.wallet, usd);
    expect((await creditDeposit(issuer.iss, txHash)).status).toBe(200);
    return txHash;
  }

  beforeAll(async () => {
    [bank, unfunded, small] = await Promise.all([testIssuer('https://bank.example'), testIssuer('https://unfunded.example'), testIssuer('https://small.example')]);
    const trusted = Object.fromEntries([bank, unfunded, small].map((issuer) => [issuer.iss, { jwk: publicOf(issuer.key.publicKey), fundingWallets: [issuer.wallet.address] }]));
    if (driver === 'postgres') handle = await openDatabase({ databaseUrl, schemaName, poolSize: 8 });
    server = await startTestServer({
      subgraphs: ['compliance', 'fees', 'payments'],
      ...(handle ? { database: handle } : {}),
      environment: { ADMIN_KEY, AP2_TRUSTED_ISSUERS: JSON.stringify(trusted) },
    });
    rail = await server.platform!.chain.connect();
    recipient = getAddress(`0x${randomBytes(20).toString('hex')}`);
    expect((await call('POST', '/compliance/register', { payload: { walletAddress: recipient, lei: ACTIVE_LEI_ENTRY.lei }, headers: ADMIN })).status).toBe(201);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await handle?.close();
    if (handle && databaseUrl) await dropSchema(databaseUrl, schemaName);
  });

  it("credits the issuer's deposit once (operator), then settles its mandate from it: the issuer's funds drop by the amount, the treasury pays the creditor", async () => {
    const txHash = await fundIssuer(bank, '500');
    const again = await creditDeposit(bank.iss, txHash);
    expect(again).toMatchObject({
      status: 200,
      body: {
        issuer: bank.iss,
        txHash: txHash.toLowerCase(),
        credited: [],
        funds: { issuer: bank.iss, depositedUsd: '500', spentUsd: '0', availableUsd: '500', fundingWallets: [bank.wallet.address], treasury: treasuryOf(rail) },
      },
    });
    const [treasuryBefore, recipientBefore] = await Promise.all([balanceOf(treasuryOf(rail)), balanceOf(recipient)]);

    const { status, body } = await settle(120, await mandateOf(bank, 120));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'SETTLED',
      held: false,
      holdId: null,
      violations: [],
      agent: null,
      mandate: { type: 'mandate.payment.1', issuer: bank.iss, paymentAmount: { amount: 12000, currency: 'USD' } },
    });
    expect(body.result).toMatchObject({ tmsReference: `AP2-${body.mandate.reference}`, status: 'SETTLED', settlement: { amount: '120', currency: 'USD', asset: 'USDC' } });
    // The treasury paid 120 (the deposit it holds for the issuer); the creditor got 120 less the fee.
    expect(treasuryBefore - (await balanceOf(treasuryOf(rail)))).toBe(120_000_000n);
    expect((await balanceOf(recipient)) - recipientBefore).toBe(120_000_000n - BigInt(Math.round(Number(body.result.settlement.fee) * 1e6)));
    expect(await fundsOf(bank)).toMatchObject({ depositedUsd: '500', spentUsd: '120', availableUsd: '380' });
    // Whose funds paid is on the payment: the issuer, no agent.
    const [row] = await server
      .platform!.database.db.select({ agentId: payments.agentId, fundingIssuer: payments.fundingIssuer, agentAmountUsd: payments.agentAmountUsd, request: payments.request })
      .from(payments)
      .where(eq(payments.railPaymentId, body.railPaymentId));
    expect(row).toMatchObject({ agentId: null, fundingIssuer: bank.iss, request: { debtor: { name: `AP2 issuer ${bank.iss} (its funds)`, walletAddress: treasuryOf(rail) } } });
    expect(Number(row!.agentAmountUsd)).toBe(120);
    expect(await fundedBy(body.railPaymentId)).toEqual({ data: { payment: { fundingIssuer: bank.iss, settlementAgent: null } } });
  });

  it('answers a retry under one Idempotency-Key once; without a key the mandate is REPLAYED', async () => {
    const mandate = await mandateOf(bank, 5);
    const headers = { 'idempotency-key': `ap2-${randomBytes(8).toString('hex')}` };
    const first = await settle(5, mandate, headers);
    expect(first.body).toMatchObject({ status: 'SETTLED', mandate: { issuer: bank.iss } });
    expect(await settle(5, mandate, headers)).toEqual({ status: 200, body: first.body });
    expect(await settle(5, mandate)).toEqual({ status: 400, body: { error: expect.any(String), code: 'PAY_ERR_MANDATE_INVALID', reason: 'REPLAYED' } });
    expect(await fundsOf(bank)).toMatchObject({ spentUsd: '125', availableUsd: '375' });
  });

  it("refuses an unfunded issuer's mandate with 409 before anything is sent or recorded: once funded, the same mandate settles", async () => {
    const [treasuryBefore, recipientBefore] = await Promise.all([balanceOf(treasuryOf(rail)), balanceOf(recipient)]);
    const mandate = await mandateOf(unfunded, 40);
    expect(await settle(40, mandate)).toEqual({ status: 409, body: { error: expect.stringContaining('USD 0 available'), code: 'PAY_ERR_INSUFFICIENT_FUNDS' } });
    expect(await balanceOf(treasuryOf(rail))).toBe(treasuryBefore);
    expect(await balanceOf(recipient)).toBe(recipientBefore);
    expect(await fundsOf(unfunded)).toMatchObject({ depositedUsd: '0', spentUsd: '0', availableUsd: '0' });
    await fundIssuer(unfunded, '40');
    expect((await settle(40, mandate)).body).toMatchObject({ status: 'SETTLED', mandate: { issuer: unfunded.iss } });
    expect(await fundsOf(unfunded)).toMatchObject({ spentUsd: '40', availableUsd: '0' });
  });

  it('settles concurrent mandates of one issuer only as far as its deposits go: no double spend', async () => {
    await fundIssuer(small, '100');
    const treasuryBefore = await balanceOf(treasuryOf(rail));
    const mandates = await Promise.all(Array.from({ length: 5 }, () => mandateOf(small, 30)));
    const answers = await Promise.all(mandates.map((mandate) => settle(30, mandate)));
    const settled = answers.filter((answer) => answer.status === 200 && answer.body.status === 'SETTLED');
    const refused = answers.filter((answer) => answer.status === 409);
    // 3 x 30 = 90 fits in 100; a fourth would make 120.
    expect(settled).toHaveLength(3);
    expect(refused).toHaveLength(2);
    for (const answer of refused) expect(answer.body.code).toBe('PAY_ERR_INSUFFICIENT_FUNDS');
    expect(treasuryBefore - (await balanceOf(treasuryOf(rail)))).toBe(90_000_000n);
    expect(await fundsOf(small)).toMatchObject({ depositedUsd: '100', spentUsd: '90', availableUsd: '10' });
  });

  it("refuses a deposit from a wallet not configured for the issuer, another issuer's deposit, and an issuer not trusted; an agent cannot bind an issuer's wallet", async () => {
    const stranger = await ownerWallet(rail, '10');
    const strangerTx = await transferToTreasury(rail, stranger, '10');
    const refused = await creditDeposit(bank.iss, strangerTx);
    expect(refused).toEqual({ status: 400, body: { error: expect.stringContaining(`configured for the issuer ${bank.iss}`), code: 'PAY_ERR_DEPOSIT_INVALID' } });
    await fundWallet(rail, small.wallet, '10');
    const smallTx = await transferToTreasury(rail, small.wallet, '10');
    expect((await creditDeposit(bank.iss, smallTx)).body.code).toBe('PAY_ERR_DEPOSIT_INVALID');
    expect(await creditDeposit('https://untrusted.example', smallTx)).toEqual({ status: 400, body: { error: expect.stringContaining('not a trusted AP2 issuer'), code: 'PAY_ERR_INVALID_REQUEST' } });
    expect(await fundsOf(bank)).toMatchObject({ depositedUsd: '500' });
    const agent = await registerTestAgent(server, { name: 'Wallet grabber' });
    const taken = await bindFundingWallet(server, rail, agent, bank.wallet);
    expect(taken).toMatchObject({ status: 409, body: { code: 'PAY_ERR_FUNDING_WALLET_TAKEN' } });
  });

  it("refuses a stranger an issuer's funds: no key, an institution's key, an agent's key", async () => {
    const institution = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'desk', 1000)).key}` };
    const agent = await registerTestAgent(server, { name: 'Curious bot' });
    const url = `/agent/issuers/funds?issuer=${encodeURIComponent(bank.iss)}`;
    for (const headers of [{}, institution, agent.headers, { authorization: 'Bearer not-the-admin-key-0123456789abcdef0123' }]) {
      expect(await call('GET', url, { headers })).toEqual({ status: 401, body: { error: expect.any(String), code: 'GEN_ERR_UNAUTHORIZED' } });
      const credit = await call('POST', '/agent/issuers/deposits', { headers, payload: { issuer: bank.iss, txHash: `0x${'ab'.repeat(32)}` } });
      expect([credit.status, credit.body.code]).toEqual([401, 'GEN_ERR_UNAUTHORIZED']);
    }
  });

  it("with X-Agent-Id and body.mandate, the agent owner's funds pay, not the issuer's", async () => {
    const agent = await registerTestAgent(server, { name: 'Bank customer bot' });
    expect((await call('POST', '/compliance/agent/mandate', { headers: agent.headers, payload: { agentId: agent.agentId, maxNotionalUsd: 1000, dailyCapUsd: 1000 } })).status).toBe(201);
    await fundAgent(server, rail, agent, '50');
    const issuerBefore = await fundsOf(bank);
    const { body } = await settle(20, await mandateOf(bank, 20), agent.headers);
    expect(body).toMatchObject({ status: 'SETTLED', agent: { agentId: agent.agentId }, mandate: { issuer: bank.iss } });
    expect(await fundsOf(bank)).toEqual(issuerBefore);
    expect(await fundedBy(body.railPaymentId)).toEqual({ data: { payment: { fundingIssuer: null, settlementAgent: { id: agent.agentId } } } });
    expect((await call('GET', '/agent/funds', { headers: agent.headers })).body).toMatchObject({ spentUsd: '20', availableUsd: '30' });
  });
});
