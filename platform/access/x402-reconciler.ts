import { and, asc, eq, lt } from 'drizzle-orm';
import { type Address, type Hash, type Hex, parseAbi } from 'viem';
import { x402Payments } from '../../drizzle/schema.js';
import type { RailChain } from '../chain/index.js';
import { chainReadAfterMs } from '../chain/reconcile-after.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db.js';
import type { Logger } from '../log.js';
import { boundedCall, withTimeout } from '../timeout.js';

/**
 * x402 claims a stopped process left unresolved (decision 0087). Every process on the database may
 * run it: each row is changed only while it is still in the state it was read in, so it is resolved
 * once, by whoever gets there first.
 * 1. CLAIMED longer than any request runs: its process died during the paid work, the client had no
 *    answer, and the authorization was never sent; the claim is released, so the client may present
 *    it again. (A process whose work outlived the bound finds its claim gone and does not settle it.)
 * 2. SETTLING longer than a send and its receipt take: the token says whether the authorization was
 *    used. Used: SETTLED, with the hash recorded or found in the token's AuthorizationUsed log. Not
 *    used, and the chain's time is at or past its validBefore: FAILED, it can never be mined and
 *    nobody was charged. Not used and still valid: left for the next run.
 */

/** How often each process looks for claims a stopped process left (as the payments recovery). */
export const X402_RECONCILE_INTERVAL_MS = 30_000;
/** Claims resolved per run at most: the rest wait for the next run. */
const RECONCILE_BATCH = 50;
/** How far back the AuthorizationUsed log of a claim whose hash was not recorded is looked for (the embedded /rpc's default range). */
const LOG_LOOKBACK_BLOCKS = 1_000n;
/**
 * A claim made before its validBefore was kept (migration 0028) is taken as valid until a day after
 * it was claimed. The x402 client signs for maxTimeoutSeconds (60 s); a day covers any client the
 * rail has served, and only the claims that existed at the migration have no validBefore.
 */
export const LEGACY_VALIDITY_SECONDS = 24n * 3600n;

export interface X402ReconcileDelays {
  /** A CLAIMED row older than this is released. */
  releaseClaimedAfterMs: number;
  /** A SETTLING row older than this is read from the chain. */
  readSettlingAfterMs: number;
}

/** Twice REQUEST_TIMEOUT_MS for a claim (a request cut at its timeout may run on for a while); the chain's read bound for a settlement. */
export function x402ReconcileDelaysFor(config: { server: { requestTimeoutMs: number }; chain: { timeoutMs: number; reconcileAfterMs: number } }): X402ReconcileDelays {
  return { releaseClaimedAfterMs: 2 * config.server.requestTimeoutMs, readSettlingAfterMs: chainReadAfterMs(config.chain) };
}

/** What the token says of an authorization, at one block. */
export interface AuthorizationOnChain {
  used: boolean;
  /** The block's timestamp (Unix seconds): no later block is earlier. */
  chainTimeSeconds: bigint;
}

/** The rail's token, read for the reconciler (tokenAuthorizations below; a fake in tests). */
export interface AuthorizationLookup {
  state(payer: Address, nonce: Hex): Promise<AuthorizationOnChain>;
  /** The transaction that used the authorization, from the token's AuthorizationUsed log; undefined when not found. */
  transactionOf(payer: Address, nonce: Hex): Promise<Hash | undefined>;
}

export type SettlingVerdict = 'settled' | 'failed' | 'wait';

/** What a SETTLING claim becomes (see above): EIP-3009 takes a transfer only in a block whose timestamp is before validBefore. */
export function settlingVerdict(onChain: AuthorizationOnChain, validBeforeSeconds: bigint): SettlingVerdict {
  if (onChain.used) return 'settled';
  return onChain.chainTimeSeconds >= validBeforeSeconds ? 'failed' : 'wait';
}

/** validBefore as kept on the row, or the legacy bound for rows claimed before it was kept. */
export function validBeforeOf(row: { validBefore: string | null; claimedAt: Date }): bigint {
  if (row.validBefore !== null) return BigInt(row.validBefore);
  return BigInt(Math.floor(row.claimedAt.getTime() / 1000)) + LEGACY_VALIDITY_SECONDS;
}

export interface X402ReconcileSummary {
  released: number;
  settled: number;
  failed: number;
  /** SETTLING, not used and still valid: read again at the next run. */
  waiting: number;
}

export interface X402ReconcilerOptions {
  db: Database;
  /** Made on first need: a run with no SETTLING claim to read never connects to the chain. */
  lookup: () => AuthorizationLookup;
  clock: Clock;
  delays: X402ReconcileDelays;
  databaseTimeoutMs: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Told each outcome (the x402_claims_reconciled_total counter). */
  count?: (outcome: 'released' | 'settled' | 'failed') => void;
}

type SettlingRow = Pick<typeof x402Payments.$inferSelect, 'payer' | 'nonce' | 'transaction' | 'validBefore' | 'claimedAt'>;

export function createX402Reconciler(options: X402ReconcilerOptions) {
  const { db, clock, delays, databaseTimeoutMs, logger } = options;
  const bounded = <T>(work: Promise<T>, what: string) => boundedCall(work, databaseTimeoutMs, what);
  const before = (ms: number) => new Date(clock.now().getTime() - ms);
  const row = (payer: string, nonce: string, state: 'CLAIMED' | 'SETTLING') => and(eq(x402Payments.payer, payer), eq(x402Payments.nonce, nonce), eq(x402Payments.state, state));

  /** Few at a time by nature (the requests in flight when a process died), so all at once. */
  async function releaseClaimed(summary: X402ReconcileSummary): Promise<void> {
    const released = await bounded(
      db
        .delete(x402Payments)
        .where(and(eq(x402Payments.state, 'CLAIMED'), lt(x402Payments.claimedAt, before(delays.releaseClaimedAfterMs))))
        .returning({ payer: x402Payments.payer, nonce: x402Payments.nonce }),
      'release stale x402 claims',
    );
    for (const claim of released) {
      logger.warn({ payer: claim.payer, nonce: claim.nonce }, 'x402 claim released: its process stopped during the paid work; the authorization may be presented again');
      options.count?.('released');
    }
    summary.released += released.length;
  }

  async function resolveSettling(lookup: AuthorizationLookup, claim: SettlingRow, summary: X402ReconcileSummary): Promise<void> {
    const payer = claim.payer as Address;
    const nonce = claim.nonce as Hex;
    const verdict = settlingVerdict(await lookup.state(payer, nonce), validBeforeOf(claim));
    if (verdict === 'wait') return void (summary.waiting += 1);
    const transaction = verdict === 'settled' ? (claim.transaction ?? (await lookup.transactionOf(payer, nonce)) ?? null) : claim.transaction;
    const state = verdict === 'settled' ? 'SETTLED' : 'FAILED';
    const changed = await bounded(
      db
        .update(x402Payments)
        .set({ state, transaction })
        .where(row(claim.payer, claim.nonce, 'SETTLING'))
        .returning({ nonce: x402Payments.nonce }),
      'resolve an x402 claim',
    );
    if (changed.length === 0) return;
    if (verdict === 'settled') summary.settled += 1;
    else summary.failed += 1;
    options.count?.(verdict);
    const detail = verdict === 'settled' ? 'the token used the authorization' : 'the token never used the authorization and it has expired: nobody was charged';
    logger.warn({ payer, nonce, state, transaction: transaction ?? undefined }, `x402 claim resolved from the chain after its process stopped: ${detail}`);
  }

  async function resolveAllSettling(summary: X402ReconcileSummary): Promise<void> {
    const candidates = await bounded(
      db
        .select({ payer: x402Payments.payer, nonce: x402Payments.nonce, transaction: x402Payments.transaction, validBefore: x402Payments.validBefore, claimedAt: x402Payments.claimedAt })
        .from(x402Payments)
        .where(and(eq(x402Payments.state, 'SETTLING'), lt(x402Payments.claimedAt, before(delays.readSettlingAfterMs))))
        .orderBy(asc(x402Payments.claimedAt))
        .limit(RECONCILE_BATCH),
      'read x402 claims left settling',
    );
    if (candidates.length === 0) return;
    const lookup = options.lookup();
    for (const claim of candidates) {
      try {
        await resolveSettling(lookup, claim, summary);
      } catch (error) {
        logger.error({ err: error, payer: claim.payer, nonce: claim.nonce }, 'x402 reconciliation failed for this claim; tried again at the next run');
      }
    }
  }

  return {
    /** One pass: stale CLAIMED rows released, stale SETTLING rows read from the chain. */
    async runOnce(): Promise<X402ReconcileSummary> {
      const summary: X402ReconcileSummary = { released: 0, settled: 0, failed: 0, waiting: 0 };
      await releaseClaimed(summary);
      await resolveAllSettling(summary);
      return summary;
    },
  };
}

export type X402Reconciler = ReturnType<typeof createX402Reconciler>;

const TOKEN_AUTHORIZATION_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
]);

/** The rail's token (the x402 payments' asset) through the rail's chain, each call within `timeoutMs`. */
export function tokenAuthorizations(chain: RailChain, timeoutMs: number): AuthorizationLookup {
  const connected = async () => {
    const connection = await withTimeout(chain.connect(), timeoutMs * 6, 'connect to the rail');
    const token = connection.payment?.token ?? connection.contracts.token;
    if (!token) throw new Error('the rail has no token (CONTRACT_TOKEN): x402 claims cannot be read');
    return { publicClient: connection.publicClient, token };
  };
  return {
    async state(payer, nonce) {
      const { publicClient, token } = await connected();
      // The block first, then the state at that block: a transfer mined later is in a block no earlier than it.
      const block = await withTimeout(publicClient.getBlock({ blockTag: 'latest' }), timeoutMs, 'read the latest block');
      const used = await withTimeout(
        publicClient.readContract({ address: token, abi: TOKEN_AUTHORIZATION_ABI, functionName: 'authorizationState', args: [payer, nonce], blockNumber: block.number }),
        timeoutMs,
        'read an authorization on the token',
      );
      return { used, chainTimeSeconds: block.timestamp };
    },
    async transactionOf(payer, nonce) {
      const { publicClient, token } = await connected();
      const latest = await withTimeout(publicClient.getBlockNumber(), timeoutMs, 'read the block number');
      const fromBlock = latest > LOG_LOOKBACK_BLOCKS ? latest - LOG_LOOKBACK_BLOCKS : 0n;
      const logs = await withTimeout(
        publicClient.getContractEvents({ address: token, abi: TOKEN_AUTHORIZATION_ABI, eventName: 'AuthorizationUsed', args: { authorizer: payer, nonce }, fromBlock, toBlock: latest }),
        timeoutMs,
        'read AuthorizationUsed logs',
      );
      return logs[0]?.transactionHash ?? undefined;
    },
  };
}
