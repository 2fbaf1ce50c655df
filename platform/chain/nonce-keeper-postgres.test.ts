import postgres from 'postgres';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, dropSchema, openDatabase } from '../db.js';
import type { NonceAccount, NonceKeeper, TurnEnd } from './nonce-keeper.js';
import { TurnNotTaken } from './nonce-keeper.js';
import { createPostgresNonceKeeper } from './nonce-keeper-postgres.js';

// The send turn shared through PostgreSQL (decision 0087). Each keeper has a pool of its own on one
// schema, as two processes would. PostgreSQL only: on PGlite the process's own queue is the turn.

const databaseUrl = process.env.DATABASE_URL;
const CHAIN_ID = 8453;
const accountA: NonceAccount = { chainId: CHAIN_ID, address: getAddress('0x00000000000000000000000000000000000000a1') };
const accountB: NonceAccount = { chainId: CHAIN_ID, address: getAddress('0x00000000000000000000000000000000000000b2') };

/** A turn that "reads the chain" as `fromChain` when nothing is kept, and keeps the nonce after the one it used. */
const sendingTurn =
  (fromChain: number, during: () => Promise<void> = async () => {}) =>
  async (kept: number | undefined): Promise<TurnEnd<number>> => {
    const nonce = kept ?? fromChain;
    await during();
    return { ok: true, sent: nonce, next: nonce + 1 };
  };

describe.runIf(databaseUrl)('the PostgreSQL nonce keeper (two pools on one schema, as two processes)', () => {
  const schemaName = `t_nonces_${process.pid}_${Date.now().toString(36)}`;
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let keepers: [NonceKeeper, NonceKeeper];
  const warn = vi.fn();

  beforeAll(async () => {
    first = await openDatabase({ databaseUrl: databaseUrl!, schemaName, poolSize: 3 });
    second = await openDatabase({ databaseUrl: databaseUrl!, schemaName, poolSize: 3 });
    keepers = [createPostgresNonceKeeper(first.db, { warn }), createPostgresNonceKeeper(second.db, { warn })];
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    if (databaseUrl) await dropSchema(databaseUrl, schemaName);
  });

  it('gives one turn at a time across both, each with the nonce the turn before kept: 20 turns at once use 20 consecutive nonces', async () => {
    let inside = 0;
    let mostInside = 0;
    const during = async () => {
      inside += 1;
      mostInside = Math.max(mostInside, inside);
      // A send's round trip: the other keeper's turns queue on the lock meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 5));
      inside -= 1;
    };
    const used = await Promise.all(Array.from({ length: 20 }, (_, index) => keepers[index % 2]!.inTurn(accountA, sendingTurn(40, during))));
    expect(mostInside).toBe(1);
    // The first turn read the chain (40); each later one took the kept nonce: 40..59, each once.
    expect([...used].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, index) => 40 + index));
  });

  it('keeps no nonce after a failed turn: the next turn, in the other process, reads the chain; the failure reaches its caller', async () => {
    const refused = new Error('the node refused it');
    await expect(keepers[0].inTurn(accountA, async () => ({ ok: false, error: refused, next: undefined }))).rejects.toBe(refused);
    const seen: Array<number | undefined> = [];
    await keepers[1].inTurn(accountA, async (kept) => {
      seen.push(kept);
      return { ok: true, sent: 0, next: 7 };
    });
    expect(seen).toEqual([undefined]);
  });

  it("does not hold one account's turn up behind another's", async () => {
    let release: (() => void) | undefined;
    const held = keepers[0].inTurn(
      accountA,
      sendingTurn(0, () => new Promise<void>((resolve) => (release = resolve))),
    );
    // A's turn is held open (its lock taken) until B's turn, in the other process, has ended.
    await vi.waitFor(() => expect(release).toBeDefined());
    await expect(keepers[1].inTurn(accountB, sendingTurn(3))).resolves.toBe(3);
    release?.();
    await held;
  });

  it('a process killed mid-turn releases the lock with its session; the next turn gets the nonce kept before it, and the dead turn sent nothing', async () => {
    await keepers[0].inTurn(accountB, async () => ({ ok: true, sent: 0, next: 30 }));
    const admin = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      let started = false;
      let finish = () => {};
      const dying = keepers[0].inTurn(accountB, async (kept) => {
        started = true;
        await new Promise<void>((resolve) => (finish = resolve));
        return { ok: true, sent: kept ?? -1, next: (kept ?? -1) + 1 };
      });
      await vi.waitFor(() => expect(started).toBe(true));
      // 1. The session holding B's lock dies (as with its process).
      const killed =
        await admin`select pg_terminate_backend(pid) as done from pg_locks where locktype = 'advisory' and classid = ${CHAIN_ID} and objid::int = hashtext(${accountB.address.toLowerCase()}) and granted`;
      expect(killed).toHaveLength(1);
      // 2. The other process's turn goes ahead with the nonce kept before the dead turn (30): the node would refuse it if the dead turn had sent, and the queue would read the chain.
      await expect(keepers[1].inTurn(accountB, sendingTurn(0))).resolves.toBe(30);
      // 3. The dead turn's own end is answered to its caller; its nonce is not recorded, and that is logged.
      finish();
      await expect(dying).resolves.toBe(30);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ account: accountB.address.toLowerCase() }), "send queue: the account's next nonce was not recorded");
    } finally {
      await admin.end({ timeout: 5 });
    }
  });

  it('a database that does not answer: the turn is not had, and nothing runs in it', async () => {
    const gone = await openDatabase({ databaseUrl: databaseUrl!, schemaName, poolSize: 1 });
    await gone.close();
    const turn = vi.fn(sendingTurn(0));
    await expect(createPostgresNonceKeeper(gone.db).inTurn(accountA, turn)).rejects.toBeInstanceOf(TurnNotTaken);
    expect(turn).not.toHaveBeenCalled();
  });
});
