import fc from 'fast-check';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementRouterAbi } from '../../../contracts/artifacts/SettlementRouter.js';
import { routerFeeArguments } from '../../../contracts/deploy.js';
import { graphql, startTestServer, type TestServer } from '../../../test/helpers.js';
import { feeParameters } from '../data/index.js';

type Verification = Record<string, unknown> & { offChain: Record<string, string>; onChain: Record<string, string> | null };

describe('GET /stability/verify-fees on the embedded rail', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['fees'], gateway: false });
  });
  afterAll(async () => {
    await server.close();
  });

  const verify = async (query: string) => {
    const response = await server.app.inject({ method: 'GET', url: `/stability/verify-fees?${query}` });
    return { status: response.statusCode, body: response.json<Verification>() };
  };

  it('compares the off-chain quote with the router previewFees: they agree to the base unit', async () => {
    const { status, body } = await verify('amountUsd=10000&hasFx=true&esgScore=75');
    expect(status).toBe(200);
    const contracts = (await server.platform!.chain.connect()).contracts;
    // 85 + 40 + 12.5 + 1 = 138.5 bps of 10,000 USD.
    const amounts = { core: '85000000', fx: '40000000', esg: '12500000', license: '1000000', total: '138500000', net: '9861500000' };
    expect(body).toEqual({
      schema: 'srg-fee-verification/1.0',
      timestamp: '2026-11-22T12:00:00.000Z',
      offChain: { ...amounts, totalBps: 138.5 },
      onChain: { ...amounts, router: contracts.router, chainId: 8453, blockNumber: expect.stringMatching(/^\d+$/) },
      onChainError: null,
      feesMatch: true,
      note: expect.stringMatching(/settlement may proceed/),
    });
  }, 30_000);

  it("advertises the embedded rail's deployed token in the manifest once the rail is up", async () => {
    const { contracts } = await server.platform!.chain.connect();
    const manifest = (await server.app.inject({ method: 'GET', url: '/stability/manifest' })).json<{ contracts: { token: string | null } }>();
    expect(manifest.contracts.token).toBe(contracts.token);
    expect(manifest.contracts.token).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('answers the same through GraphQL (feeVerification)', async () => {
    const rest = (await verify('amountUsd=2500&hasFx=true&esgScore=80')).body;
    const result = await graphql<{ feeVerification: Record<string, unknown> }>(
      server,
      '{ feeVerification(input: { amountUsd: 2500, hasFx: true, esgScore: 80 }) { schema offChain { core fx esg license total net totalBps } onChain { core fx esg license total net router chainId } onChainError feesMatch note } }',
      {},
      '/subgraphs/fees/graphql',
    );
    expect(result.errors).toBeUndefined();
    const { blockNumber: _blockNumber, ...onChain } = rest.onChain ?? {};
    expect(result.data?.feeVerification).toEqual({ schema: rest.schema, offChain: rest.offChain, onChain, onChainError: null, feesMatch: true, note: rest.note });
  });

  it('verifies an issued quote in the graph (Quote.verification), volume tier included, as GET /verify-fees does for its terms', async () => {
    const result = await graphql<{ feeQuote: { fees: { total: { usd: string } }; verification: Verification } }>(
      server,
      '{ feeQuote(input: { amountUsd: 250000, hasFx: true, esgScore: 62.5, monthlyVolumeUsd: 5000000 }) { fees { total { usd } } verification { offChain { total } onChain { total } onChainError feesMatch } } }',
      {},
      '/subgraphs/fees/graphql',
    );
    expect(result.errors).toBeUndefined();
    const { fees, verification } = result.data!.feeQuote;
    expect(verification).toMatchObject({ onChainError: null, feesMatch: true });
    expect(verification.onChain?.total).toBe(verification.offChain.total);
    expect(BigInt(verification.offChain.total!)).toBe(parseUnits(fees.total.usd, 6));
  });

  it('names the rail among the /health checks once it is up', async () => {
    await server.platform!.chain.connect();
    const health = (await server.app.inject({ method: 'GET', url: '/health' })).json<{ checks: Record<string, { status: string }> }>();
    expect(health.checks.rail).toEqual({ status: 'up' });
  });

  it('agrees for any terms (amount, FX, ESG score with 6 decimals), defaults included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2_000_000_000 }), fc.option(fc.boolean()), fc.option(fc.integer({ min: 0, max: 100_000_000 })), async (cents, hasFx, esgMicros) => {
        const query = [`amountUsd=${(cents / 100).toFixed(2)}`, hasFx === null ? '' : `hasFx=${hasFx}`, esgMicros === null ? '' : `esgScore=${(esgMicros / 1e6).toFixed(6)}`].filter(Boolean).join('&');
        const { body } = await verify(query);
        expect(body.feesMatch).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('reports a mismatch when the router parameters differ from the published schedule', async () => {
    const { embedded, contracts } = await server.platform!.chain.connect();
    const owner = embedded!.accounts[0]!;
    const wallet = embedded!.walletFor(owner);
    const [, fxBps, licenseBps, tiers] = routerFeeArguments(feeParameters);
    const set = (coreBps: bigint) =>
      wallet.writeContract({ address: contracts.router!, abi: settlementRouterAbi, functionName: 'setFeeParameters', args: [coreBps, fxBps, licenseBps, tiers], account: owner, chain: wallet.chain });
    await embedded!.publicClient.waitForTransactionReceipt({ hash: await set(90n) });
    try {
      const { body } = await verify('amountUsd=10000');
      expect(body.feesMatch).toBe(false);
      expect(body.onChain?.core).toBe('90000000');
      expect(body.offChain.core).toBe('85000000');
      expect(body.note).toMatch(/do not settle/);
    } finally {
      await embedded!.publicClient.waitForTransactionReceipt({ hash: await set(BigInt(feeParameters.coreBps)) });
    }
  });

  it("refuses a request without amountUsd with 400 in the quote services' shape", async () => {
    const response = await server.app.inject({ method: 'GET', url: '/stability/verify-fees?hasFx=true' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: expect.stringMatching(/amountUsd/), example: { amountUsd: 10000 } });
  });
});

describe('GET /stability/verify-fees when the chain cannot answer', () => {
  it.each<{ name: string; environment: Record<string, string>; error: RegExp }>([
    { name: 'an unreachable RPC', environment: { RPC_URL: 'http://127.0.0.1:9/', CONTRACT_ROUTER: '0x5FbDB2315678afecb367f032d93F642f64180aa3', RPC_TIMEOUT_MS: '2000' }, error: /did not answer/ },
    { name: 'no router on the configured chain', environment: { RPC_URL: 'http://127.0.0.1:9/' }, error: /not deployed/ },
  ])('$name: onChain and feesMatch are null, onChainError says why, the off-chain fees are given', async ({ environment, error }) => {
    const server = await startTestServer({ subgraphs: ['fees'], gateway: false, environment });
    try {
      const response = await server.app.inject({ method: 'GET', url: '/stability/verify-fees?amountUsd=100' });
      expect(response.statusCode).toBe(200);
      const body = response.json<Verification>();
      expect(body).toMatchObject({ onChain: null, feesMatch: null, onChainError: expect.stringMatching(error), note: expect.stringMatching(/not false/) });
      expect(body.offChain.total).toBe('1110000');
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1/);
      // The rail in use and not answering: /health names it.
      const health = await server.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json<{ down: string[] }>().down).toContain('rail');
    } finally {
      await server.close();
    }
  });
});
