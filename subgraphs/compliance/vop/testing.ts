// Test support for the VoP, registry and LEI route tests and the compliance routes test (not a test
// file itself): the all-in-one server with the compliance subgraph, an admin key and an API key.

import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';

export const ADMIN_KEY = 'compliance-admin-key-0123456789abcdef0123';
export const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
export const VOP_FIELDS = ['attestation', 'leiStatus', 'message', 'proceedSafe', 'registeredLei', 'registeredName', 'requestId', 'resolvedBy', 'result', 'score'];
/** Valid ISO 17442 check digits (98450000NOTINSNAP0 + 17), but in no registry: made up for the test. */
export const UNKNOWN_VALID_LEI = '98450000NOTINSNAP017';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const freshWallet = (): string => getAddress(`0x${randomBytes(20).toString('hex')}`);

export interface VopTestServer {
  server: TestServer;
  baseUrl: string;
  rail: ChainConnection;
  apiKey: string;
}

/** The server with the compliance subgraph only, listening (for the x402 client), its chain connected, an API key issued. */
export async function startVopTestServer(): Promise<VopTestServer> {
  const server = await startTestServer({ subgraphs: ['compliance'], environment: { ADMIN_KEY } });
  const baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const rail = await server.platform!.chain.connect();
  const apiKey = (await server.platform!.access.keys.create('api', 'compliance desk', 1000)).key;
  return { server, baseUrl, rail, apiKey };
}
