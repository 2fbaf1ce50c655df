import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { count, inArray, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { getAddress } from 'viem';
import { paymentCallbacks } from '../drizzle/schema.js';
import { createApiKeys } from '../platform/access/api-keys.js';
import { systemClock } from '../platform/clock.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../platform/db.js';
import { randomIds } from '../platform/ids.js';
import { createHmacSigner } from '../platform/signing.js';
import { leiRecords } from '../subgraphs/compliance/data/index.js';
import { CONNECTIONS, type Figures, progress, progressFigures, send } from './load.js';
import { type Server, startRail, stopServers } from './processes.js';

/**
 * Section 7: payments (issue 10), end to end on PostgreSQL, against one all-in-one rail
 * (`gateway/main.ts`, NODE_ENV=production, the embedded chain in process) whose DATABASE_SCHEMA is
 * a fresh schema of the DATABASE_URL server, dropped at the end:
 *   - fresh native payments on POST /integration/payments/initiate, each with its own tmsReference
 *     (bodies built before the run), to a creditor wallet the admin registered under an active LEI
 *     of the GLEIF snapshot: VoP, AML screening, the fee, the settlement on chain and the stored
 *     result, per request; a warm-up batch first, then FRESH_PAYMENTS on CONNECTIONS;
 *   - replays: the fresh payments' exact bodies posted again in rotation, REPLAYS in all (the stored
 *     result, nothing sent);
 *   - the callback outbox: CALLBACK_PAYMENTS payments with a callbackUrl on a Fastify receiver in this
 *     process (CALLBACK_ALLOW_PRIVATE_TARGETS=true), waited for until every outbox row is DELIVERED
 *     or CALLBACK_WAIT_MS has passed; each delivery's X-Rail-Signature checked.
 * Every run is bounded: a fixed number of requests, each cut after REQUEST_TIMEOUT_SECONDS, the
 * whole run stopped after RUN_TIMEOUT_MS.
 */

export const FRESH_TARGET_PER_SECOND = 200;
export const REPLAY_TARGET_PER_SECOND = 5_000;
export const FRESH_PAYMENTS = 1_000;
export const FRESH_WARMUP = 100;
export const REPLAYS = 10_000;
export const REPLAY_WARMUP = 1_000;
export const CALLBACK_PAYMENTS = 200;
export const CALLBACK_WAIT_MS = 120_000;
/** The database when DATABASE_URL is unset (the tests' server). */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const REQUEST_TIMEOUT_SECONDS = 30;
const RUN_TIMEOUT_MS = 180_000;
const POLL_MS = 100;
/** Per payment: small, so the treasury's 1,000,000 rUSD pays every run many times over. */
const AMOUNT = '10.00';
const INITIATE = '/integration/payments/initiate';
/** An active LEI of the shipped GLEIF snapshot (the one the route tests register). */
const CREDITOR_LEI = '2138001KPMR6PD83HC08';
const KEY_LIMIT_PER_MINUTE = 100_000_000;

/** One bounded run of pre-built requests. */
export interface PaymentRun {
  requests: number;
  /** Answers received (fewer than requests only when the run hit its bound). */
  answered: number;
  connections: number;
  figures: Figures;
  /** Answers whose PaymentResult status is SETTLED. */
  settled: number;
  /** The first answer other than 200, status and the start of its body. */
  unexpected?: string;
  /** The run was stopped at RUN_TIMEOUT_MS. */
  cut: boolean;
  /** CPU time of the rail's process per answer (user + system, /proc), ms; undefined where /proc is not readable. PostgreSQL's own CPU is not in it. */
  railCpuMsPerAnswer?: number;
  /** Blocks the embedded chain mined during the run (one per transaction: it mines each as it comes); undefined when /rpc did not answer. */
  transactions?: number;
}

export interface CallbackFigures {
  payments: number;
  /** Outbox rows by state when the wait ended. */
  delivered: number;
  failed: number;
  pending: number;
  /** From the start of the initiations to every row DELIVERED (or to the end of the wait). */
  seconds: number;
  /** delivered / seconds. */
  deliveriesPerSecond: number;
  /** At the receiver: the first delivery to the last, and the deliveries in between per second. */
  receiverSeconds: number;
  receiverPerSecond: number;
  received: number;
  validSignatures: number;
  /** Deliveries of a payment already received. */
  duplicates: number;
  waitedOut: boolean;
  initiation: PaymentRun;
}

export interface PaymentsFigures {
  database: string;
  fresh: PaymentRun;
  replays: PaymentRun;
  callbacks: CallbackFigures;
}

/** The section's figures, or why it could not run (the full report prints that instead). */
export type PaymentsOutcome = { figures: PaymentsFigures } | { problem: string };

let clockTicks: number | undefined;

/** User + system CPU time of a process so far (/proc/<pid>/stat), ms; undefined where unreadable. */
function processCpuMs(pid: number): number | undefined {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

const freshWallet = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const today = () => new Date().toISOString().slice(0, 10);
const seconds = (from: number, to: number) => Math.max(0.001, (to - from) / 1000);

/** `count` native payment bodies, each with its own tmsReference and debtor wallet. */
function paymentBodies(creditor: { name: string; lei: string; walletAddress: string }, label: string, total: number, callbackUrl?: string): string[] {
  const run = randomBytes(4).toString('hex');
  return Array.from({ length: total }, (_, index) =>
    JSON.stringify({
      tmsReference: `BENCH-${label}-${run}-${index}`,
      amount: AMOUNT,
      currency: 'USD',
      settlementAsset: 'USDC',
      creditor: { ...creditor, accountRef: 'BENCH-ACC' },
      debtor: { name: 'Bench Treasury Ltd', walletAddress: freshWallet() },
      remittanceInfo: `bench ${label} ${index}`,
      requestedExecutionDate: today(),
      ...(callbackUrl ? { callbackUrl } : {}),
    }),
  );
}

/** The embedded chain's block number, through the rail's /rpc; undefined when it does not answer one. */
async function blockNumber(rail: Server): Promise<number | undefined> {
  const { status, text } = await send(rail.port, { path: '/rpc', method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) });
  const result = status === 200 ? (JSON.parse(text) as { result?: unknown }).result : undefined;
  return typeof result === 'string' ? Number(BigInt(result)) : undefined;
}

/** postEach, and the transactions the chain mined meanwhile. */
async function postEachCountingTransactions(rail: Server, headers: Record<string, string>, bodies: readonly string[]): Promise<PaymentRun> {
  const before = await blockNumber(rail);
  const run = await postEach(rail, headers, bodies);
  const after = await blockNumber(rail);
  return before === undefined || after === undefined ? run : { ...run, transactions: after - before };
}

/**
 * Exactly one POST of each body (autocannon `amount`, the body set per request), every answer
 * expected 200. Req/s: the answers over the time from the start to the last answer.
 */
function postEach(rail: Server, headers: Record<string, string>, bodies: readonly string[], connections = CONNECTIONS): Promise<PaymentRun> {
  let next = 0;
  let settled = 0;
  let unexpected: string | undefined;
  let lastAnswer = 0;
  let cut = false;
  const started = performance.now();
  const cpuBefore = processCpuMs(rail.pid);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${rail.port}${INITIATE}`,
        method: 'POST',
        connections,
        amount: bodies.length,
        timeout: REQUEST_TIMEOUT_SECONDS,
        headers: { 'content-type': 'application/json', ...headers },
        requests: [
          {
            setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }),
            onResponse: (status, body) => {
              lastAnswer = performance.now();
              if (status !== 200) {
                if (unexpected === undefined) unexpected = `${status} ${body.slice(0, 200)}`;
                return;
              }
              if (body.includes('"status":"SETTLED"')) settled += 1;
            },
          },
        ],
      },
      (error, result) => {
        clearTimeout(bound);
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const answered = result.requests.total;
        const non200 = Object.entries(result.statusCodeStats ?? {})
          .filter(([status]) => Number(status) !== 200)
          .reduce((sum, [, stats]) => sum + (stats.count ?? 0), 0);
        const figures: Figures = {
          requestsPerSecond: lastAnswer > started ? (answered * 1000) / (lastAnswer - started) : 0,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + non200,
        };
        const cpuAfter = processCpuMs(rail.pid);
        const cpu = cpuBefore === undefined || cpuAfter === undefined || answered === 0 ? {} : { railCpuMsPerAnswer: (cpuAfter - cpuBefore) / answered };
        resolve({ requests: bodies.length, answered, connections, figures, settled, cut, ...cpu, ...(unexpected === undefined ? {} : { unexpected }) });
      },
    );
    const bound = setTimeout(() => {
      cut = true;
      instance.stop();
    }, RUN_TIMEOUT_MS);
  });
}

/** Settled payments per settlement transaction of a run, as text (one decimal); undefined when the blocks could not be counted. */
export function paymentsPerTransaction(run: PaymentRun): string | undefined {
  return run.transactions ? (run.settled / run.transactions).toFixed(1) : undefined;
}

function progressRun(label: string, run: PaymentRun): void {
  progressFigures(`${label} (${run.answered}/${run.requests}${run.cut ? ', CUT at the bound' : ''})`, run.figures);
  if (run.settled !== run.answered) progress('  SETTLED', `${run.settled} of ${run.answered}`);
  if (run.railCpuMsPerAnswer !== undefined) progress('  rail CPU per answer (PostgreSQL not included)', `${run.railCpuMsPerAnswer.toFixed(2)} ms`);
  const perTransaction = paymentsPerTransaction(run);
  if (perTransaction) progress('  settlement transactions (blocks mined)', `${run.transactions}: ${perTransaction} payments a transaction`);
  if (run.unexpected) progress('  first answer not 200', run.unexpected.slice(0, 120));
}

/** Receives callbacks: the raw body's signature checked, each payment id counted. */
interface Receiver {
  app: FastifyInstance;
  url: string;
  received: number;
  validSignatures: number;
  duplicates: number;
  first: number;
  last: number;
}

async function startReceiver(signingKey: string): Promise<Receiver> {
  const signer = createHmacSigner(signingKey);
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const seen = new Set<string>();
  const receiver: Receiver = { app, url: '', received: 0, validSignatures: 0, duplicates: 0, first: 0, last: 0 };
  app.post('/callback', async (request, reply) => {
    const now = performance.now();
    if (receiver.received === 0) receiver.first = now;
    receiver.last = now;
    receiver.received += 1;
    const body = typeof request.body === 'string' ? request.body : '';
    const signature = request.headers['x-rail-signature'];
    if (typeof signature === 'string' && signer.verify(body, signature)) receiver.validSignatures += 1;
    const id = String(request.headers['x-rail-paymentid'] ?? '');
    if (seen.has(id)) receiver.duplicates += 1;
    seen.add(id);
    return reply.code(204).send();
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  receiver.url = `${address}/callback`;
  return receiver;
}

/** Outbox rows of these payments by state. */
async function outboxStates(database: DatabaseHandle, railPaymentIds: readonly string[]): Promise<Record<string, number>> {
  const rows = await database.db
    .select({ state: paymentCallbacks.state, rows: count() })
    .from(paymentCallbacks)
    .where(inArray(paymentCallbacks.railPaymentId, [...railPaymentIds]))
    .groupBy(paymentCallbacks.state);
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.rows)]));
}

/** The railPaymentIds of these tmsReferences (GET /integration/payments?tmsReference=). */
async function railPaymentIds(port: number, headers: Record<string, string>, bodies: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const body of bodies) {
    const reference = (JSON.parse(body) as { tmsReference: string }).tmsReference;
    const { status, text } = await send(port, { path: `/integration/payments?tmsReference=${encodeURIComponent(reference)}`, headers });
    if (status === 200) ids.push(String((JSON.parse(text) as { railPaymentId: string }).railPaymentId));
  }
  return ids;
}

async function benchCallbacks(
  rail: Server,
  database: DatabaseHandle,
  bearer: Record<string, string>,
  creditor: { name: string; lei: string; walletAddress: string },
  signingKey: string,
): Promise<CallbackFigures> {
  const receiver = await startReceiver(signingKey);
  try {
    const bodies = paymentBodies(creditor, 'callback', CALLBACK_PAYMENTS, receiver.url);
    const started = performance.now();
    const initiation = await postEach(rail, bearer, bodies);
    progressRun(`rail POST ${INITIATE}, callbackUrl on a local receiver`, initiation);
    // Only rows of this run's payments count; found once initiated (the outbox is keyed by railPaymentId).
    const ids = await railPaymentIds(rail.port, bearer, bodies);
    // The wait starts once every payment is answered, so a slow initiation does not shorten it.
    const deadline = performance.now() + CALLBACK_WAIT_MS;
    let states = await outboxStates(database, ids);
    while ((states.DELIVERED ?? 0) + (states.FAILED ?? 0) < ids.length && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      states = await outboxStates(database, ids);
    }
    const ended = performance.now();
    const delivered = states.DELIVERED ?? 0;
    const figures: CallbackFigures = {
      payments: CALLBACK_PAYMENTS,
      delivered,
      failed: states.FAILED ?? 0,
      pending: states.PENDING ?? 0,
      seconds: seconds(started, ended),
      deliveriesPerSecond: delivered / seconds(started, ended),
      receiverSeconds: receiver.received > 1 ? seconds(receiver.first, receiver.last) : 0,
      receiverPerSecond: receiver.received > 1 ? (receiver.received - 1) / seconds(receiver.first, receiver.last) : 0,
      received: receiver.received,
      validSignatures: receiver.validSignatures,
      duplicates: receiver.duplicates,
      waitedOut: delivered + (states.FAILED ?? 0) < ids.length,
      initiation,
    };
    progress(
      `callback outbox: ${ids.length} rows, DELIVERED/FAILED/PENDING`,
      `${figures.delivered}/${figures.failed}/${figures.pending} after ${figures.seconds.toFixed(1)} s: ${figures.deliveriesPerSecond.toFixed(1)} deliveries/s${figures.waitedOut ? ' (WAIT BOUND REACHED)' : ''}`,
    );
    progress(
      'receiver: received, valid signatures, duplicates, first-to-last rate',
      `${figures.received}, ${figures.validSignatures}, ${figures.duplicates}, ${figures.receiverPerSecond.toFixed(1)}/s over ${figures.receiverSeconds.toFixed(1)} s`,
    );
    return figures;
  } finally {
    await receiver.app.close();
  }
}

async function registerCreditor(rail: Server, adminKey: string): Promise<{ name: string; lei: string; walletAddress: string }> {
  const record = leiRecords().records.find((entry) => entry.lei === CREDITOR_LEI);
  if (!record) throw new Error(`the shipped GLEIF snapshot has no ${CREDITOR_LEI}`);
  const walletAddress = freshWallet();
  const { status, text } = await send(rail.port, {
    path: '/compliance/register',
    method: 'POST',
    body: JSON.stringify({ walletAddress, lei: record.lei }),
    headers: { authorization: `Bearer ${adminKey}` },
  });
  if (status !== 201 && status !== 200) throw new Error(`POST /compliance/register answered ${status}: ${text.slice(0, 300)}`);
  return { name: record.legalName, lei: record.lei, walletAddress };
}

/** One payment that must settle; its body, for the replays. */
async function settleOne(rail: Server, bearer: Record<string, string>, body: string): Promise<void> {
  const { status, text } = await send(rail.port, { path: INITIATE, method: 'POST', body, headers: bearer });
  if (status !== 200 || !text.includes('"status":"SETTLED"')) throw new Error(`a payment to the registered creditor answered ${status}, not SETTLED: ${text.slice(0, 300)}`);
}

async function serverVersion(database: DatabaseHandle): Promise<string> {
  const answer: unknown = await database.db.execute(sql`show server_version`);
  const rows = (Array.isArray(answer) ? answer : ((answer as { rows?: unknown[] }).rows ?? [])) as Array<{ server_version?: string }>;
  return `PostgreSQL ${rows[0]?.server_version ?? '(version unknown)'}`;
}

async function runPayments(databaseUrl: string, schemaName: string): Promise<PaymentsFigures> {
  const adminKey = randomBytes(24).toString('hex');
  const webhookKey = randomBytes(32).toString('hex');
  // Migrated here first, so the key exists before the rail starts; the rail's own migration then has nothing to do.
  const database = await openDatabase({ databaseUrl, schemaName, poolSize: 2 });
  let rail: Server | undefined;
  try {
    const { key } = await createApiKeys({ db: database.db, clock: systemClock, ids: randomIds }).create('bearer', 'bench treasury desk', KEY_LIMIT_PER_MINUTE);
    const bearer = { authorization: `Bearer ${key}` };
    rail = await startRail('payments rail', [], {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schemaName,
      ADMIN_KEY: adminKey,
      WEBHOOK_SIGNING_KEY: webhookKey,
      CALLBACK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    const creditor = await registerCreditor(rail, adminKey);
    const [replayBody] = paymentBodies(creditor, 'replay', 1);
    await settleOne(rail, bearer, replayBody!);
    progress(`creditor registered under ${creditor.lei}; one payment settled`, `${await serverVersion(database)}, schema ${schemaName}`);

    progressRun('warm-up: fresh payments', await postEach(rail, bearer, paymentBodies(creditor, 'warmup', FRESH_WARMUP)));
    const freshBodies = paymentBodies(creditor, 'fresh', FRESH_PAYMENTS);
    const fresh = await postEachCountingTransactions(rail, bearer, freshBodies);
    progressRun(`rail POST ${INITIATE}, a fresh payment each, ${CONNECTIONS} connections`, fresh);

    await postEach(
      rail,
      bearer,
      Array.from({ length: REPLAY_WARMUP }, () => replayBody!),
    );
    const replays = await postEach(
      rail,
      bearer,
      Array.from({ length: REPLAYS }, (_, index) => freshBodies[index % freshBodies.length]!),
    );
    progressRun(`rail POST ${INITIATE}, the fresh payments replayed in rotation, ${CONNECTIONS} connections`, replays);

    const callbacks = await benchCallbacks(rail, database, bearer, creditor, webhookKey);
    return { database: await serverVersion(database), fresh, replays, callbacks };
  } finally {
    await stopServers([rail]);
    await database.close();
  }
}

/** Section 7; a schema of its own on DATABASE_URL (or DEFAULT_DATABASE_URL), dropped afterwards. */
export async function benchPayments(): Promise<PaymentsOutcome> {
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const schemaName = `bench_payments_${process.pid}_${Date.now().toString(36)}`;
  try {
    return { figures: await runPayments(databaseUrl, schemaName) };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    progress('payments could not be measured', problem.slice(0, 200));
    return { problem };
  } finally {
    await dropSchema(databaseUrl, schemaName).catch((error: unknown) => progress(`could not drop schema ${schemaName}`, error instanceof Error ? error.message : String(error)));
  }
}
