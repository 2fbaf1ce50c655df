import type { Address } from 'viem';

/**
 * Who holds an account's turn to send, and where its next nonce is kept between turns (decisions
 * 0040, 0087). A process's send queue (send-queue.ts) lets one send of the account at a time
 * through to its keeper; the keeper decides how far that turn reaches:
 * - `localNonceKeeper` (the default: PGlite, no database, the chain process): the process is the
 *   only sender, its queue is the whole turn and the nonce is kept in memory;
 * - the PostgreSQL keeper (nonce-keeper-postgres.ts): every process on the database shares the
 *   turn under a lock, and the nonce is kept in a table.
 */
export interface NonceKeeper {
  /**
   * Runs `turn` as the account's only sender among everyone sharing this keeper, handing it the
   * nonce kept from the last turn (undefined: read it from the chain), and keeps the `next` the
   * turn ends with. Rejects with TurnNotTaken, without running `turn`, when the turn could not be
   * had; otherwise answers what the turn sent, or throws what it failed with.
   */
  inTurn<T>(account: NonceAccount, turn: (kept: number | undefined) => Promise<TurnEnd<T>>): Promise<T>;
}

export interface NonceAccount {
  chainId: number;
  address: Address;
}

/** How a turn ended: what it sent or why it failed, and the account's next nonce (undefined: unknown, read the chain next time). */
export type TurnEnd<T> = { next: number | undefined } & ({ ok: true; sent: T } | { ok: false; error: unknown });

/** The turn was not had (the database holding the shared turn did not answer in time): nothing was sent. */
export class TurnNotTaken extends Error {
  override name = 'TurnNotTaken';
}

const accountKey = (account: NonceAccount) => `${account.chainId}:${account.address.toLowerCase()}`;

/** The turn's outcome as its caller sees it. */
export function outcomeOf<T>(end: TurnEnd<T>): T {
  if (end.ok) return end.sent;
  throw end.error;
}

/** One process alone sends from its accounts: its send queue is the turn, the nonce kept in memory. */
export function localNonceKeeper(): NonceKeeper {
  const kept = new Map<string, number>();
  return {
    async inTurn(account, turn) {
      const key = accountKey(account);
      const end = await turn(kept.get(key));
      if (end.next === undefined) kept.delete(key);
      else kept.set(key, end.next);
      return outcomeOf(end);
    },
  };
}
