import { eq, sql } from 'drizzle-orm';
import { agentDeposits, agentFundingWallets, payments } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { Funder } from '../domain/index.js';
import { spendingOf } from '../integration/claim.js';
import type { Deposit } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;

export type FundingWalletRow = typeof agentFundingWallets.$inferSelect;
export type DepositRow = typeof agentDeposits.$inferSelect;

/** The deposits' column naming the funder, and its value. */
const depositsOf = (funder: Funder) => (funder.kind === 'agent' ? eq(agentDeposits.agentId, funder.agentId) : eq(agentDeposits.issuer, funder.issuer));
/**
 * The settlement funds (decision 0049): agents' funding wallets, deposits credited once per
 * Transfer log to one funder, an agent or a trusted AP2 issuer (their primary key decides, on any
 * replica), and what the funder's settlements spent. Every call bounded in time.
 */
export function createAgentFundsStore(db: Database, options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, timeoutMs, operation);

  return {
    /** Binds the wallet (lower-case) to the agent; the row as it stands: another agent's when the wallet was taken. */
    async bindWallet(walletAddress: string, agentId: string, now: Date): Promise<FundingWalletRow> {
      const work = db.transaction(async (tx) => {
        const [inserted] = await tx.insert(agentFundingWallets).values({ walletAddress, agentId, boundAt: now }).onConflictDoNothing().returning();
        if (inserted) return inserted;
        const [existing] = await tx.select().from(agentFundingWallets).where(eq(agentFundingWallets.walletAddress, walletAddress));
        return existing!;
      });
      return bounded(work, 'insert into agent_funding_wallets');
    },

    async fundingWallets(agentId: string): Promise<FundingWalletRow[]> {
      return bounded(db.select().from(agentFundingWallets).where(eq(agentFundingWallets.agentId, agentId)).orderBy(agentFundingWallets.boundAt).execute(), 'select from agent_funding_wallets');
    },

    /** Credits the deposits of one transaction to the funder; answers those credited now (one credited before, to anyone, is left out). */
    async creditDeposits(funder: Funder, txHash: string, blockNumber: bigint, deposits: readonly Deposit[], now: Date): Promise<DepositRow[]> {
      if (deposits.length === 0) return [];
      const whose = funder.kind === 'agent' ? { agentId: funder.agentId, issuer: null } : { agentId: null, issuer: funder.issuer };
      const rows = deposits.map((deposit) => ({ txHash, logIndex: deposit.logIndex, ...whose, fromWallet: deposit.fromWallet, amountUsd: deposit.amountUsd, blockNumber, creditedAt: now }));
      return bounded(db.insert(agentDeposits).values(rows).onConflictDoNothing().returning().execute(), 'insert into agent_deposits');
    },

    /** Decimal text: every deposit credited to the funder. */
    async depositedUsd(funder: Funder): Promise<string> {
      const [row] = await bounded(
        db
          .select({ total: sql<string>`coalesce(sum(${agentDeposits.amountUsd}), 0)::text` })
          .from(agentDeposits)
          .where(depositsOf(funder))
          .execute(),
        'sum of agent_deposits',
      );
      return row?.total ?? '0';
    },

    /** Decimal text: the funder's SETTLED and PENDING settlements (what the claim counts, integration/claim.ts). */
    async spentUsd(funder: Funder): Promise<string> {
      const [row] = await bounded(
        db
          .select({ total: sql<string>`coalesce(sum(${payments.agentAmountUsd}), 0)::text` })
          .from(payments)
          .where(spendingOf(funder))
          .execute(),
        'sum of the settlements paid from the funds',
      );
      return row?.total ?? '0';
    },
  };
}

export type AgentFundsStore = ReturnType<typeof createAgentFundsStore>;
