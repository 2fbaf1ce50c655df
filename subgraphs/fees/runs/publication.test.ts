import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basketPegAbi } from '../../../contracts/artifacts/BasketPeg.js';
import { railEsgOracleAbi } from '../../../contracts/artifacts/RailEsgOracle.js';
import { stabilityPIDAbi } from '../../../contracts/artifacts/StabilityPID.js';
import { createConfiguredRailChain } from '../../../gateway/platform-services.js';
import type { ChainConnection, RailChain } from '../../../platform/chain/index.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { createLogger } from '../../../platform/log.js';
import { openTestPglite, startTestServer, TEST_NOW, testConfig } from '../../../test/helpers.js';
import { createOraclePublisher, PUBLICATION_HEALTH_PART } from './publication.js';

// Each recorded oracle run lands on the rail's oracle contracts (decision 0057), and a chain that
// is down fails no run.

/** TEST_NOW's 300 s interval starts at TEST_NOW itself (12:00:00): the run id is its Unix seconds. */
const RUN_ID = BigInt(Date.parse(TEST_NOW) / 1000);

/** A TCP port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('an oracle run on the embedded rail', () => {
  let database: DatabaseHandle;
  let chain: RailChain;
  let connection: ChainConnection;
  const answers: Record<string, Record<string, any>> = {};

  beforeAll(async () => {
    database = await openTestPglite();
    chain = createConfiguredRailChain(testConfig());
    connection = await chain.connect();
    // The first runs happen in start(); closing the server waits for their publications.
    const server = await startTestServer({ database, chain, subgraphs: ['fees'], environment: { ORACLE_SCHEDULER: 'true' } });
    for (const path of ['/esg/esg-score', '/stability/esg-score', '/stability/api/status', '/stability/manifest', '/esg/manifest']) {
      answers[path] = (await server.app.inject({ method: 'GET', url: path })).json();
    }
    await server.close();
  }, 120_000);
  afterAll(async () => {
    await chain?.close();
    await database?.close();
  });

  it("puts the ESG run's scores on RailEsgOracle: the answer's scores in millionths, its asOf, the run id of its interval", async () => {
    const { scores, asOf } = answers['/esg/esg-score']!;
    const onChain = await connection.publicClient.readContract({ address: connection.contracts.esgOracle!, abi: railEsgOracleAbi, functionName: 'latest' });
    expect(onChain).toMatchObject({
      runId: RUN_ID,
      asOf,
      environmental: Math.round(scores.environmental * 1e6),
      social: Math.round(scores.social * 1e6),
      governance: Math.round(scores.governance * 1e6),
      average: Math.round(scores.average * 1e6),
    });
  });

  it("feeds the stability run's score to StabilityPID and its basket to BasketPeg (unmeasured on the snapshot: no live prices)", async () => {
    const { data } = answers['/stability/api/status']!;
    const state = await connection.publicClient.readContract({ address: connection.contracts.stabilityPID!, abi: stabilityPIDAbi, functionName: 'state' });
    const score = BigInt(Math.round(data.stabilityScore * 1e6));
    // The first run: output = 1.0 x (90 - score), within [0, 100].
    const shortfall = 90_000_000n - score;
    expect(state).toMatchObject({ runId: RUN_ID, measurement: score, error: shortfall, integral: 0n, output: shortfall < 0n ? 0n : shortfall });
    const basket = await connection.publicClient.readContract({ address: connection.contracts.basketPeg!, abi: basketPegAbi, functionName: 'basket' });
    expect(basket).toMatchObject({
      runId: RUN_ID,
      measured: false,
      deviationCentiBps: 0,
      assets: Object.keys(data.peg.basketWeights)
        .filter((asset) => data.peg.basketWeights[asset] > 0)
        .sort(),
    });
    expect(basket.weights.reduce((sum, weight) => sum + weight, 0)).toBe(1_000_000);
  });

  it("answers the ESG oracle's esg-score under {stability_url} too, the same body", () => {
    expect(answers['/stability/esg-score']).toEqual(answers['/esg/esg-score']);
    expect(Object.keys(answers['/stability/esg-score']!.scores).sort()).toEqual(['average', 'environmental', 'governance', 'social']);
    expect(answers['/stability/esg-score']!.fee).toMatchObject({ formula: '(100 - esgScore) / 200' });
  });

  it('names every contract in the manifests: none is null', () => {
    const { contracts } = connection;
    expect(answers['/stability/manifest']!.contracts).toEqual({
      token: contracts.token,
      esgOracle: contracts.esgOracle,
      redistribution: contracts.redistribution,
      stabilityPID: contracts.stabilityPID,
      basketPeg: contracts.basketPeg,
    });
    for (const address of Object.values(answers['/stability/manifest']!.contracts)) expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(answers['/esg/manifest']!.contracts).toEqual({ esgOracle: contracts.esgOracle });
  });
});

describe('a chain that is down', () => {
  const oracleAddress = '0x00000000000000000000000000000000000e5600';
  const settlerKey = `0x${'11'.repeat(32)}`;

  it('fails no oracle run: the runs are recorded SUCCESS and served', async () => {
    const database = await openTestPglite();
    const port = await closedPort();
    const server = await startTestServer({
      database,
      subgraphs: ['fees'],
      environment: { ORACLE_SCHEDULER: 'true', RPC_URL: `http://127.0.0.1:${port}`, RPC_TIMEOUT_MS: '500', RAIL_SETTLER_KEY: settlerKey, CONTRACT_ESG_ORACLE: oracleAddress },
    });
    try {
      const esg = await server.app.inject({ method: 'GET', url: '/esg/health' });
      expect(esg.json()).toMatchObject({ status: 'healthy', esgOracle: 'SUCCESS' });
      const score = await server.app.inject({ method: 'GET', url: '/esg/esg-score' });
      expect(score.statusCode).toBe(200);
      expect(score.json().scores.average).toEqual(expect.any(Number));
      expect((await server.app.inject({ method: 'GET', url: '/stability/health' })).json()).toMatchObject({ oracle: 'SUCCESS' });
    } finally {
      await server.close();
      await database.close();
    }
  }, 60_000);

  it('a publication that cannot reach the chain ends, logged and reported to /health, without throwing', async () => {
    const port = await closedPort();
    const config = testConfig({ RPC_URL: `http://127.0.0.1:${port}`, RPC_TIMEOUT_MS: '500', CONTRACT_ESG_ORACLE: oracleAddress });
    const chain = createConfiguredRailChain(config);
    const outcomes: Array<{ part: string; ok: boolean }> = [];
    const publisher = createOraclePublisher({
      chain,
      settlerKey,
      timeoutMs: 500,
      logger: createLogger({ logLevel: 'silent' }),
      health: { reportOutcome: (part, ok) => void outcomes.push({ part, ok }) },
    });
    publisher.esg(new Date(TEST_NOW), { scores: { environmental: 60, social: 70, governance: 80, average: 70 }, asOf: '2024' });
    await publisher.idle();
    expect(outcomes).toEqual([{ part: PUBLICATION_HEALTH_PART, ok: false }]);
    await chain.close();
  });
});
