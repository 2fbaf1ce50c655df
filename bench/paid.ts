import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type HDAccount, mnemonicToAccount } from 'viem/accounts';
import { createPaymentHeader } from 'x402/client';
import type { PaymentRequirements } from 'x402/types';
import { DEVELOPMENT_ACCOUNT_COUNT, DEVELOPMENT_MNEMONIC } from '../platform/chain/embedded-chain.js';
import { bench, CONNECTIONS, type Figures, type Load, measureEach, progress, progressFigures, send } from './load.js';
import { collectLines, type Server, serverEnvironment, SIGNING_KEY, spawnTracked, startRail, startTarget, stopProcess, stopServers, tempFolder } from './processes.js';
import type { BareRoute } from './targets.js';

/**
 * Section 5: access control on the paid route GET /reports/report/climate, on an all-in-one rail
 * (embedded chain and PGlite, NODE_ENV=production) whose DATA_DIR holds a bench API key:
 *   - the 402 path: no payment, no key; every answer must be 402;
 *   - the verified paid path: each request carries its own pre-signed x402 payment, verified,
 *     claimed in the database and settled on the embedded chain; the report comes from the cache;
 *     a few payments one at a time first, then CONNECTIONS connections;
 *   - the API-key path: X-API-Key, counted against its per-minute limit (never reached);
 *   - the baseline: bare Fastify serving, at the same path, the report JSON of one paid answer.
 */

export const CLIMATE_PATH = '/reports/report/climate';
/** The bench key's per-minute limit: far above what the run can send, so never hit. */
const KEY_LIMIT_PER_MINUTE = 100_000_000;
/** Payments signed for the measured paid run, at most; each is used once. */
export const MAX_PAYMENTS = 1_500;
/** Payments of the paid warm-up at CONNECTIONS: four per connection. */
const WARMUP_PAYMENTS = 4 * CONNECTIONS;
/** Payments sent one at a time, before the concurrent run: the latency of one paid call alone. */
export const SEQUENTIAL_PAYMENTS = 100;
/** x402's verify refuses an authorization closer than this to its validBefore. */
const VERIFY_MARGIN_SECONDS = 6;
/** Share of a payment's validity the measured run may take, at the warm-up's rate. */
const VALIDITY_SHARE = 0.5;
const KEY_TIMEOUT_MS = 120_000;
const PAID_LOAD: Load = { path: CLIMATE_PATH, expectStatus: 200 };

/** One measured run of the verified paid path: `payments` requests, each with its own payment. */
export interface PaidRun {
  connections: number;
  payments: number;
  figures: Figures;
  /** The first answer that was not 200 (status and the start of its body), if any. */
  unexpected?: string;
}

export interface AccessFigures {
  /** Bytes of the report JSON, as served by the rail and by the baseline. */
  reportBytes: number;
  /** The 402 path. */
  unpaid: Figures;
  /** The verified paid path on one connection, one payment at a time, no warm-up (the cache-filling request aside). */
  paidSequential: PaidRun;
  /** The verified paid path at CONNECTIONS, after a warm-up of its own. */
  paid: PaidRun;
  payers: number;
  /** A payment's validity (the requirements' maxTimeoutSeconds). */
  validitySeconds: number;
  apiKey: Figures;
  baseline: Figures;
}

/** `npm run keys -- create` on the rail's DATA_DIR, before the rail holds it; the key printed once. */
export async function createBenchKey(environment: Record<string, string>): Promise<string> {
  const args = ['--import', 'tsx', 'platform/access/keys-cli.ts', 'create', '--kind', 'api', '--label', 'bench', '--limit', String(KEY_LIMIT_PER_MINUTE)];
  const child = spawnTracked(process.execPath, args, environment);
  const lines = collectLines(child);
  const timer = setTimeout(() => void stopProcess(child.pid!), KEY_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  const key = lines.map((line) => /^key \(shown once[^)]*\): (\S+)$/.exec(line)?.[1]).find(Boolean);
  if (code !== 0 || !key) throw new Error(`keys create exited with ${code}:\n  ${lines.join('\n  ')}`);
  return key;
}

/**
 * The payers: the rail's funded accounts but the first (it settles) and the last (it is paid). The
 * rail's accounts are secret by default (decision 0052): the bench's rail is made from the public
 * development mnemonic (EMBEDDED_CHAIN_MNEMONIC) so that this process can sign as them.
 */
function payers(): HDAccount[] {
  return Array.from({ length: DEVELOPMENT_ACCOUNT_COUNT - 2 }, (_, index) => mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex: index + 1 }));
}

/** `count` X-PAYMENT headers, each a fresh EIP-3009 authorization, spread over the payers. */
async function signPayments(accounts: readonly HDAccount[], requirements: PaymentRequirements, count: number): Promise<Array<Record<string, string>>> {
  const headers: Array<Record<string, string>> = [];
  for (let index = 0; index < count; index += 1) {
    headers.push({ 'x-payment': await createPaymentHeader(accounts[index % accounts.length] as never, 1, requirements) });
  }
  return headers;
}

/** The requirements of one 402 answer (accepts[0]). */
async function readRequirements(rail: Server): Promise<PaymentRequirements> {
  const { status, text } = await send(rail.port, { path: CLIMATE_PATH });
  if (status !== 402) throw new Error(`GET ${CLIMATE_PATH} without payment answered ${status}, not 402: ${text.slice(0, 300)}`);
  const requirements = (JSON.parse(text) as { accepts?: PaymentRequirements[] }).accepts?.[0];
  if (!requirements) throw new Error(`the 402 of ${CLIMATE_PATH} names no requirements: ${text.slice(0, 300)}`);
  return requirements;
}

/** One paid request (200 and X-PAYMENT-RESPONSE required): it fills the report cache; its JSON is the baseline's. */
async function buyOnce(rail: Server, header: Record<string, string>): Promise<string> {
  const { status, text, headers } = await send(rail.port, { path: CLIMATE_PATH, headers: header });
  if (status !== 200 || !headers.get('x-payment-response'))
    throw new Error(`a paid GET ${CLIMATE_PATH} answered ${status} (X-PAYMENT-RESPONSE ${headers.get('x-payment-response') ?? 'absent'}): ${text.slice(0, 300)}`);
  return text;
}

async function checkKey(rail: Server, load: Load): Promise<void> {
  const { status, text, headers } = await send(rail.port, load);
  if (status !== 200 || headers.get('x-ratelimit-limit') !== String(KEY_LIMIT_PER_MINUTE)) {
    throw new Error(`GET ${CLIMATE_PATH} with the bench key answered ${status} (X-RateLimit-Limit ${headers.get('x-ratelimit-limit') ?? 'absent'}): ${text.slice(0, 300)}`);
  }
}

/** Bare Fastify serving the captured report at the same path. */
async function startBaseline(report: string): Promise<Server> {
  const file = join(tempFolder('bare-report'), 'routes.json');
  const routes: BareRoute[] = [{ method: 'GET', path: CLIMATE_PATH, body: report }];
  writeFileSync(file, JSON.stringify(routes));
  return startTarget('bare-fastify', [file]);
}

/** One measured run of `payments` paid requests on `connections`, each payment signed just before. */
async function paidRun(rail: Server, requirements: PaymentRequirements, accounts: readonly HDAccount[], connections: number, payments: number): Promise<PaidRun> {
  const { unexpected, ...figures } = await measureEach(rail.port, PAID_LOAD, await signPayments(accounts, requirements, payments), connections);
  progressFigures(`rail GET ${CLIMATE_PATH}, X-PAYMENT, ${connections} connection${connections === 1 ? '' : 's'} (${payments} payments)`, figures);
  if (unexpected) progress('  first answer not 200', unexpected.slice(0, 120));
  return { connections, payments, figures, ...(unexpected === undefined ? {} : { unexpected }) };
}

/**
 * The paid path at CONNECTIONS: a warm-up batch, then a measured batch signed just before it is
 * sent, sized to MAX_PAYMENTS or to what the warm-up's rate sends in VALIDITY_SHARE of a payment's
 * validity, whichever is fewer (a payment signed now is refused once its validBefore is near).
 */
async function benchPaid(rail: Server, requirements: PaymentRequirements, accounts: readonly HDAccount[]): Promise<PaidRun> {
  const warm = await measureEach(rail.port, PAID_LOAD, await signPayments(accounts, requirements, WARMUP_PAYMENTS));
  const window = (requirements.maxTimeoutSeconds - VERIFY_MARGIN_SECONDS) * VALIDITY_SHARE;
  const payments = Math.max(WARMUP_PAYMENTS, Math.min(MAX_PAYMENTS, Math.floor(warm.requestsPerSecond * window)));
  return paidRun(rail, requirements, accounts, CONNECTIONS, payments);
}

export async function benchAccess(): Promise<AccessFigures> {
  const dataDir = join(tempFolder('access-rail'), 'data');
  const environment = { DATA_DIR: dataDir, QUOTE_SIGNING_KEY: SIGNING_KEY, NODE_ENV: 'production', EMBEDDED_CHAIN_MNEMONIC: DEVELOPMENT_MNEMONIC };
  const key = await createBenchKey(serverEnvironment(environment));
  const rail = await startRail('access rail', [], environment);
  let baseline: Server | undefined;
  try {
    const requirements = await readRequirements(rail);
    const accounts = payers();
    const report = await buyOnce(rail, (await signPayments(accounts, requirements, 1))[0]!);
    const keyLoad: Load = { path: CLIMATE_PATH, headers: { 'x-api-key': key }, expectStatus: 200 };
    await checkKey(rail, keyLoad);
    baseline = await startBaseline(report);
    progress('report cached by one paid request', `${Buffer.byteLength(report)} bytes; payments valid ${requirements.maxTimeoutSeconds} s`);

    const unpaid = await bench(`rail GET ${CLIMATE_PATH}, no payment (402)`, rail.port, { path: CLIMATE_PATH, expectStatus: 402 });
    const paidSequential = await paidRun(rail, requirements, accounts, 1, SEQUENTIAL_PAYMENTS);
    const paid = await benchPaid(rail, requirements, accounts);
    const apiKey = await bench(`rail GET ${CLIMATE_PATH}, X-API-Key`, rail.port, keyLoad);
    const bare = await bench(`bare Fastify GET ${CLIMATE_PATH} (the captured report)`, baseline.port, { path: CLIMATE_PATH, expectStatus: 200 });
    return {
      reportBytes: Buffer.byteLength(report),
      unpaid,
      paidSequential,
      paid,
      payers: accounts.length,
      validitySeconds: requirements.maxTimeoutSeconds,
      apiKey,
      baseline: bare,
    };
  } finally {
    await stopServers([rail, baseline]);
  }
}
