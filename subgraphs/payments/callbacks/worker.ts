import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import type { Clock } from '../../../platform/clock.js';
import type { Config } from '../../../platform/config.js';
import type { Logger } from '../../../platform/log.js';
import { createHmacSigner, loadOrCreateSigningKey } from '../../../platform/signing.js';
import { type CallbackAttemptOutcome, type CallbackState, checkCallbackUrl } from './domain/index.js';
import type { CallbackStore, PaymentCallbackRow } from './store.js';

/** What the worker needs of fetch; the global fetch and undici's both fit. */
export type CallbackFetch = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal; redirect: 'manual' },
) => Promise<{ status: number; body?: { cancel(): Promise<void> } | null }>;

export interface CallbackWorkerOptions {
  store: CallbackStore;
  clock: Clock;
  /** The webhook signing key (WEBHOOK_SIGNING_KEY, or the key generated in DATA_DIR). */
  signingKey: string;
  /** Replaces the HTTP client (tests); the default refuses private targets when it connects as well. */
  fetch?: CallbackFetch;
  /** Longest an attempt may wait for the receiver's answer (CALLBACK_TIMEOUT_MS). */
  timeoutMs: number;
  logger: Logger;
  /** Unique per worker (per process): the lease holder's name. */
  workerId: string;
  /** Callbacks claimed per run, and so the most deliveries in flight at once; default 20. */
  batchSize?: number;
  /** How long a claimed row stays this worker's; default 2 x timeoutMs + 5 s (it must outlast an attempt). */
  leaseMs?: number;
  /**
   * Deliver to loopback, private, link-local and other non-public addresses. Off by default
   * (a callback URL is chosen by the caller: without this check it would reach the rail's own
   * network); tests and single-host set-ups turn it on.
   */
  allowPrivateTargets?: boolean;
}

export interface CallbackRunSummary {
  claimed: number;
  delivered: number;
  retrying: number;
  failed: number;
  /** Attempts made but not recorded (lease lost or the database failed): the row is sent again after its lease. */
  unrecorded: number;
}

export interface CallbackWorker {
  /** Claims the due callbacks and makes one attempt at each. Concurrent calls share one run. */
  runOnce(): Promise<CallbackRunSummary>;
  /**
   * Starts the loop: a run at once, then the next run at once after a run that claimed a full
   * batch (more may be due), else `intervalMs` after the previous one ended.
   */
  start(intervalMs: number): void;
  /**
   * A callback was just committed (by this process): run now, or right after the run under way
   * (whose claim may have missed it). Does nothing unless started.
   */
  wake(): void;
  /** Stops the loop, waits for a run under way, releases the HTTP client. */
  stop(): Promise<void>;
}

const PRIVATE_TARGET = 'ERR_CALLBACK_PRIVATE_TARGET';

/**
 * The webhook signing key: WEBHOOK_SIGNING_KEY, or else one generated once into DATA_DIR
 * (`webhook-signing.key`, mode 0600) like the quote signing key, which the operator issues to
 * receivers (spec §5). Replicas sharing a database must be given the same key.
 */
export function webhookSigningKeyOf(config: Config): string {
  return config.signing.webhookSigningKey ?? loadOrCreateSigningKey(config.database.dataDir, 'webhook-signing.key', { label: 'webhook signing key', variable: 'WEBHOOK_SIGNING_KEY' });
}

/**
 * Addresses a callback must not reach unless allowed (IANA special-purpose registries, non-global).
 * No rule for ::ffff:0:0/96: BlockList judges IPv4-mapped IPv6 addresses by the IPv4 rules, and
 * that rule would match every IPv4 address.
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is one a callback may not reach by default. IPv4-mapped IPv6 is judged as its IPv4 address. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return nonPublic.check(address, 'ipv4');
  if (family === 6) return nonPublic.check(address, 'ipv6');
  return true;
}

/** A resolver for sockets that fails when the name resolves to a non-public address (checked where it connects: no rebinding window). */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const blocked = addresses.find((entry) => isNonPublicAddress(entry.address));
    if (blocked || addresses.length === 0) {
      return callback(Object.assign(new Error('the callback host resolves to a non-public address'), { code: PRIVATE_TARGET }), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
}

/**
 * Delivers the payment callback outbox (spec §6).
 * 1. Each run claims due rows with a lease, POSTs each body with its signature, and records the
 *    outcome only while the lease holds; the schedule lives in domain/schedule.ts.
 * 2. Delivery is at least once: a crash between the POST and the record leaves the row leased;
 *    once the lease has run out, another worker sends the same attempt again. Receivers dedupe
 *    by X-Rail-PaymentId (X-Rail-Attempt tells the repeats apart).
 * 3. Runs never overlap: the loop schedules the next run after the previous one ended, and
 *    runOnce called during a run returns that run.
 * 4. The loop drains: after a run that claimed a full batch the next starts at once, so the
 *    outbox is delivered as fast as it fills; the interval applies only once a run found less.
 *    A run that failed waits the interval (a failing database is not hammered).
 * 5. At most `batchSize` deliveries are in flight per worker: a run sends all it claimed at once
 *    and the next run claims only after it ended. Claiming no more than can be sent at once keeps
 *    every claimed row's attempt inside its lease (a row queued behind slow receivers could
 *    outlive its lease and be sent twice), and bounds the sockets, the receivers' load (batchSize
 *    per worker) and the record transactions competing for the connection pool.
 * 6. wake() serves the process that committed a callback: its first attempt goes out right after
 *    the commit, not up to an interval later. Other processes find the row on their next periodic
 *    run (no LISTEN/NOTIFY: the interval bounds their delay, and any worker may take the row).
 */
export function createCallbackWorker(options: CallbackWorkerOptions): CallbackWorker {
  const { store, clock, timeoutMs, logger, workerId } = options;
  const allowPrivate = options.allowPrivateTargets ?? false;
  const ownAgent = options.fetch ? undefined : new Agent(allowPrivate ? {} : { connect: { lookup: publicOnlyLookup } });
  const worker: WorkerContext = {
    store,
    clock,
    logger,
    workerId,
    batchSize: options.batchSize ?? 20,
    leaseMs: options.leaseMs ?? timeoutMs * 2 + 5000,
    sender: {
      timeoutMs,
      allowPrivate,
      signer: createHmacSigner(options.signingKey),
      send: options.fetch ?? ((url, init) => undiciFetch(url, { ...init, dispatcher: ownAgent })),
    },
    loop: { current: undefined, timer: undefined, running: false, intervalMs: 0, wokenDuringRun: false },
  };
  return {
    runOnce: () => runOnce(worker),
    start: (everyMs) => start(worker, everyMs),
    wake: () => wake(worker),
    async stop() {
      await stop(worker);
      await ownAgent?.close();
    },
  };
}

/** How a callback is sent: the HTTP client, the signature, the time an attempt may take, the target rule. */
interface Sender {
  timeoutMs: number;
  allowPrivate: boolean;
  signer: ReturnType<typeof createHmacSigner>;
  send: CallbackFetch;
}

/** The loop's state: the run under way, the next run planned, and whether a wake came during a run. */
interface LoopState {
  current: Promise<CallbackRunSummary> | undefined;
  /** The loop's next run, while it waits for it (undefined while a run of the loop is under way). */
  timer: NodeJS.Timeout | undefined;
  running: boolean;
  intervalMs: number;
  /** wake() was called after the current run began: its claim may have missed the new row. */
  wokenDuringRun: boolean;
}

/** What a worker's functions are given. */
interface WorkerContext {
  store: CallbackStore;
  clock: Clock;
  logger: Logger;
  workerId: string;
  batchSize: number;
  leaseMs: number;
  sender: Sender;
  loop: LoopState;
}

/** Refuses a target before anything is sent: scheme, literal non-public IPs, names resolving to one. */
async function refusal(sender: Sender, rawUrl: string): Promise<string | undefined> {
  const checked = checkCallbackUrl(rawUrl);
  if (!checked.ok) return checked.reason;
  if (sender.allowPrivate) return undefined;
  const host = checked.url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isNonPublicAddress(host) ? 'non-public address' : undefined;
  const addresses = await dnsLookupAsync(host, { all: true });
  return addresses.length === 0 || addresses.some((entry) => isNonPublicAddress(entry.address)) ? 'host resolves to a non-public address' : undefined;
}

async function attempt(sender: Sender, row: PaymentCallbackRow): Promise<CallbackAttemptOutcome> {
  const { timeoutMs } = sender;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  // Cuts the name check and a fetch that ignores its signal alike at the timeout.
  const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
  try {
    const refused = await Promise.race([refusal(sender, row.url), aborted]);
    if (refused) return { kind: 'refused', reason: refused };
    const headers = {
      'content-type': 'application/json',
      'x-rail-signature': sender.signer.sign(row.body),
      'x-rail-paymentid': row.railPaymentId,
      'x-rail-attempt': String(row.attempt + 1),
    };
    const request = sender.send(row.url, { method: 'POST', headers, body: row.body, signal: controller.signal, redirect: 'manual' });
    const response = await Promise.race([request, aborted]);
    // The answer's body is not read: only its status counts.
    void response.body?.cancel().catch(() => undefined);
    return { kind: 'response', status: response.status };
  } catch (error) {
    if (timedOut) return { kind: 'timeout', timeoutMs };
    const code = errorCode(error);
    if (code === PRIVATE_TARGET) return { kind: 'refused', reason: 'host resolves to a non-public address' };
    return { kind: 'network-error', message: code ?? (error instanceof Error ? error.message : String(error)) };
  } finally {
    clearTimeout(timer);
  }
}

async function deliver(worker: WorkerContext, row: PaymentCallbackRow): Promise<CallbackState | 'UNRECORDED'> {
  const { logger, workerId } = worker;
  const outcome = await attempt(worker.sender, row);
  const where = { callbackId: row.id, railPaymentId: row.railPaymentId, attempt: row.attempt + 1, host: hostOf(row.url) };
  try {
    const result = await worker.store.recordAttempt(row.id, workerId, outcome, worker.clock.now());
    if (!result.recorded) {
      logger.warn({ ...where, workerId }, 'payment callback attempt not recorded: the lease was lost; the attempt will be repeated');
      return 'UNRECORDED';
    }
    const { step } = result;
    const line = { ...where, state: step.state, status: step.lastStatus, error: step.lastError, nextAttemptAt: step.nextAttemptAt?.toISOString() };
    if (step.state === 'FAILED') logger.warn(line, 'payment callback failed for good');
    else logger.info(line, step.state === 'DELIVERED' ? 'payment callback delivered' : 'payment callback attempt failed; retry scheduled');
    return step.state;
  } catch (error) {
    logger.error({ ...where, err: error }, 'payment callback attempt not recorded: the database failed; the attempt will be repeated after the lease');
    return 'UNRECORDED';
  }
}

async function run(worker: WorkerContext): Promise<CallbackRunSummary> {
  const summary: CallbackRunSummary = { claimed: 0, delivered: 0, retrying: 0, failed: 0, unrecorded: 0 };
  const rows = await worker.store.claimDue(worker.clock.now(), worker.workerId, worker.batchSize, worker.leaseMs);
  summary.claimed = rows.length;
  const states = await Promise.all(rows.map((row) => deliver(worker, row)));
  for (const state of states) {
    if (state === 'DELIVERED') summary.delivered += 1;
    else if (state === 'PENDING') summary.retrying += 1;
    else if (state === 'FAILED') summary.failed += 1;
    else summary.unrecorded += 1;
  }
  return summary;
}

function runOnce(worker: WorkerContext): Promise<CallbackRunSummary> {
  const { loop } = worker;
  if (!loop.current) {
    loop.wokenDuringRun = false; // this run's claim sees every row committed before now
    loop.current = run(worker).finally(() => {
      loop.current = undefined;
    });
  }
  return loop.current;
}

/** The loop's next run after `delayMs` (0: at once), replacing a later one already planned. */
function schedule(worker: WorkerContext, delayMs: number): void {
  clearTimeout(worker.loop.timer);
  worker.loop.timer = setTimeout(() => loopRun(worker), delayMs);
}

function loopRun(worker: WorkerContext): void {
  const { loop } = worker;
  loop.timer = undefined;
  // Never rejects: a failed run is logged and the loop goes on.
  void runOnce(worker)
    .then(
      (summary) => summary.claimed >= worker.batchSize,
      (error: unknown) => {
        worker.logger.error({ workerId: worker.workerId, err: error }, 'payment callback run failed');
        return false;
      },
    )
    .then((fullBatch) => {
      if (!loop.running) return;
      schedule(worker, fullBatch || loop.wokenDuringRun ? 0 : loop.intervalMs);
    });
}

function start(worker: WorkerContext, everyMs: number): void {
  const { loop } = worker;
  if (loop.running) return;
  loop.running = true;
  loop.intervalMs = everyMs;
  schedule(worker, 0);
}

function wake(worker: WorkerContext): void {
  const { loop } = worker;
  if (!loop.running) return;
  // A run under way (the loop's, or a runOnce joined by the loop) may have claimed before the
  // commit: the loop runs again right after it. While the loop waits, it runs now.
  if (loop.current || !loop.timer) loop.wokenDuringRun = true;
  if (loop.timer) schedule(worker, 0);
}

/** Stops the loop and waits for a run under way (the HTTP client is released by the worker's stop). */
async function stop(worker: WorkerContext): Promise<void> {
  const { loop } = worker;
  loop.running = false;
  clearTimeout(loop.timer);
  loop.timer = undefined;
  await loop.current?.catch(() => undefined);
}

function errorCode(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    const code = (cause as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The host only: a callback URL's path or query may carry the receiver's token. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(unparsable)';
  }
}
