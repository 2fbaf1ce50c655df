import { and, eq, sql } from 'drizzle-orm';
import { chainNonces } from '../../drizzle/schema.js';
import type { Database } from '../db.js';
import type { Logger } from '../log.js';
import { type NonceAccount, type NonceKeeper, outcomeOf, type TurnEnd, TurnNotTaken } from './nonce-keeper.js';

/**
 * The send turn of an account shared by every process on one PostgreSQL database (decision 0087).
 * Why a database transaction around each send:
 * 1. Replicas settle from one RAIL_SETTLER_KEY: each asking the node for the pending nonce, two
 *    take the same one and the node refuses one transaction. A transaction-level advisory lock on
 *    (chainId, account) makes the turn one across processes; it is held across signing and
 *    eth_sendRawTransaction only (the receipt is waited for after the turn), and it is released by
 *    COMMIT, or with the session when the process dies mid-turn.
 * 2. The next nonce is kept in chain_nonces, written in the same transaction: a node behind a
 *    load balancer may answer a pending count that has not seen the last process's transaction.
 *    A failed or unknown send writes null, and the next turn reads the chain (blockTag pending).
 * 3. Bounded by the database's own bounds: the lock wait is one statement (statement_timeout), the
 *    send within it one RPC call (RPC_TIMEOUT_MS, under the session's
 *    idle_in_transaction_session_timeout of twice the statement timeout at the defaults). A database
 *    that does not answer means the turn is not had: nothing is sent (TurnNotTaken), never a send
 *    outside the lock.
 * A process killed between its send and its COMMIT leaves the previous nonce in the table: the next
 * turn sends with a nonce already taken, the node refuses it, and the queue reads the chain and
 * tries once more (send-queue.ts), as for any refused nonce.
 */
export function createPostgresNonceKeeper(db: Database, logger?: Pick<Logger, 'warn'>): NonceKeeper {
  return { inTurn: (account, turn) => inSharedTurn(db, logger, account, turn) };
}

async function inSharedTurn<T>(db: Database, logger: Pick<Logger, 'warn'> | undefined, account: NonceAccount, turn: (kept: number | undefined) => Promise<TurnEnd<T>>): Promise<T> {
  const address = account.address.toLowerCase();
  const row = and(eq(chainNonces.chainId, account.chainId), eq(chainNonces.account, address));
  // The turn once started runs to its end whatever becomes of the database: postgres.js gives up
  // the transaction as soon as its connection drops, while the send may already be on its way.
  let running: Promise<TurnEnd<T>> | undefined;
  let abandoned = false;
  try {
    return outcomeOf(
      await db.transaction(async (tx) => {
        // Two int4 keys: a key space of its own, apart from the one-key locks (migrations, x402 payers).
        await tx.execute(sql`select pg_advisory_xact_lock(${account.chainId}::int4, hashtext(${address}))`);
        const [kept] = await tx.select({ next: chainNonces.nextNonce }).from(chainNonces).where(row);
        running = turn(kept?.next ?? undefined);
        const end = await running;
        // The transaction died meanwhile (its caller is answered below): this callback is left
        // unsettled, because postgres.js (3.4.9) would write COMMIT or ROLLBACK to the closed socket
        // and throw outside any caller.
        if (abandoned) return new Promise<never>(() => {});
        const next = end.next ?? null;
        await tx
          .insert(chainNonces)
          .values({ chainId: account.chainId, account: address, nextNonce: next, updatedAt: sql`now()` })
          .onConflictDoUpdate({ target: [chainNonces.chainId, chainNonces.account], set: { nextNonce: next, updatedAt: sql`now()` } });
        return end;
      }),
    );
  } catch (error) {
    abandoned = true;
    if (!running) throw new TurnNotTaken("the account's turn to send could not be had (the database did not answer): nothing was sent", { cause: error });
    const end = await running;
    // Sent (or failed) in its turn, but the nonce not recorded, and the lock lost with the session: the next turn may
    // find the nonce taken, and the node's refusal makes it read the chain.
    logger?.warn({ err: error, chainId: account.chainId, account: address }, "send queue: the account's next nonce was not recorded");
    return outcomeOf(end);
  }
}
