import { randomBytes } from 'node:crypto';
import { getAddress, type Address } from 'viem';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';
import { EMBEDDED_TREASURY_ACCOUNT_INDEX } from '../rail/settlement.js';

/**
 * Test-only: the all-in-one server (compliance, fees and payments in one process) with an admin
 * key, the embedded rail and an institution bearer key, and the calls the integration tests make.
 */

export interface IntegrationHarness {
  server: TestServer;
  rail: ChainConnection;
  /** Authorization header of an institution bearer key (1,000 per minute). */
  bearer: Record<string, string>;
  admin: Record<string, string>;
  call(method: 'GET' | 'POST', url: string, options?: { payload?: unknown; headers?: Record<string, string>; raw?: string }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  balanceOf(address: Address): Promise<bigint>;
  treasury(): Address;
  close(): Promise<void>;
}

export const freshWallet = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

/** `gateway`: every subgraph and the gateway's /graphql (the default is compliance, fees and payments without it). */
export async function startIntegrationHarness(adminKey: string, options: { gateway?: boolean } = {}): Promise<IntegrationHarness> {
  const server = await startTestServer({ ...(options.gateway ? {} : { subgraphs: ['compliance', 'fees', 'payments'] }), environment: { ADMIN_KEY: adminKey } });
  const rail = await server.platform!.chain.connect();
  const bearer = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'treasury desk', 1000)).key}` };
  return {
    server,
    rail,
    bearer,
    admin: { authorization: `Bearer ${adminKey}` },
    async call(method, url, options = {}) {
      const response = await server.app.inject({
        method,
        url,
        headers: { ...(options.raw !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        ...(options.raw !== undefined ? { payload: options.raw } : options.payload !== undefined ? { payload: options.payload as object } : {}),
      });
      return { status: response.statusCode, body: response.json(), headers: response.headers };
    },
    balanceOf: (address) => rail.publicClient.readContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] }),
    treasury: () => rail.embedded!.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX]!.address,
    close: () => server.close(),
  };
}
