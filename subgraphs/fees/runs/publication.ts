import type { Abi, ContractFunctionName, Hash, LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { basketPegAbi } from '../../../contracts/artifacts/BasketPeg.js';
import { railEsgOracleAbi } from '../../../contracts/artifacts/RailEsgOracle.js';
import { stabilityPIDAbi } from '../../../contracts/artifacts/StabilityPID.js';
import type { ChainConnection, RailChain } from '../../../platform/chain/index.js';
import { type ContractCall, sendContractCall, sendQueueFor } from '../../../platform/chain/send-queue.js';
import type { Health } from '../../../platform/health.js';
import type { Logger } from '../../../platform/log.js';
import { withTimeout } from '../../../platform/timeout.js';
import { basketInMillionths, toCentiBps, toMillionths } from './domain/index.js';

/** What is published of an ESG run: its scores and the year of its newest input. */
export interface PublishedEsgRun {
  scores: { environmental: number; social: number; governance: number; average: number };
  asOf: string;
}

/** What is published of a stability run: its score, and the basket with its deviation (null: not measured). */
export interface PublishedStabilityRun {
  stabilityScore: number;
  peg: { basketWeights: Record<string, number>; deviationBps: number | null };
}

/** The part /health names while publications fail (for a while: platform/health's failure memory). */
export const PUBLICATION_HEALTH_PART = 'oracle publication (chain)';

/**
 * Each successful oracle run's figures, written to the rail's oracle contracts (decision 0057):
 * the ESG run's scores to RailEsgOracle, the stability run's score to StabilityPID and its basket
 * to BasketPeg. Why apart from the run, and never failing it:
 * 1. the run's record (oracle_runs) is what every endpoint serves; the chain is a copy for
 *    on-chain readers, so a chain that is down must not turn a good run FAILED or delay the next;
 * 2. a publication starts after the run is recorded SUCCESS and is not awaited by the scheduler;
 *    its failure is logged and shown on /health, and the next run publishes its own figures
 *    (a run id only grows on chain, so a late transaction never replaces a newer run's values);
 * 3. it is sent through the oracle account's send queue (platform/chain/send-queue.ts), so it
 *    takes its nonce in turn with anything else that account sends (on the embedded rail,
 *    account 0 also settles x402 payments).
 */
export interface OraclePublisher {
  esg(runId: Date, output: PublishedEsgRun): void;
  stability(runId: Date, output: PublishedStabilityRun): void;
  /** Resolves once every publication started so far has ended (confirmed or given up). */
  idle(): Promise<void>;
}

export interface OraclePublisherOptions {
  chain: RailChain;
  /** RAIL_SETTLER_KEY: the oracle account on RPC_URL (it must be the contracts' oracle). */
  settlerKey?: string;
  timeoutMs: number;
  logger: Logger;
  health?: Pick<Health, 'reportOutcome'>;
}

/** The embedded rail's oracle account: account 0, which deployed the contracts and named itself their oracle (contracts/deploy.ts). */
const EMBEDDED_ORACLE_ACCOUNT_INDEX = 0;

/** The account the oracle runs publish from: the embedded oracle account, else RAIL_SETTLER_KEY's; undefined without one. */
export function oracleAccountOf(connection: ChainConnection, settlerKey: string | undefined): LocalAccount | undefined {
  if (connection.embedded) return connection.embedded.accounts[EMBEDDED_ORACLE_ACCOUNT_INDEX];
  return settlerKey ? privateKeyToAccount(settlerKey as Hash) : undefined;
}

/** A run id on chain: the start of the run's interval in Unix seconds (the oracle_runs slot). */
const runIdOf = (slot: Date) => BigInt(Math.floor(slot.getTime() / 1000));

export function createOraclePublisher(options: OraclePublisherOptions): OraclePublisher {
  const { chain, timeoutMs, logger } = options;
  const pending = new Set<Promise<void>>();

  /** Sends one call from the oracle account and waits for its receipt; throws what went wrong. */
  async function send<const abi extends Abi, functionName extends ContractFunctionName<abi, 'nonpayable'>>(
    connection: ChainConnection,
    account: LocalAccount,
    call: ContractCall<abi, functionName>,
  ): Promise<void> {
    const sent = await sendContractCall(connection, account, call, { signal: AbortSignal.timeout(timeoutMs) });
    try {
      const receipt = await withTimeout(connection.publicClient.waitForTransactionReceipt({ hash: sent.hash }), timeoutMs * 6, `${call.functionName} receipt`);
      if (receipt.status !== 'success') throw new Error(`${call.functionName} ${sent.hash} reverted on chain`);
    } catch (error) {
      // Never mined: it may have been dropped, and the account's later nonces wait on it.
      sendQueueFor(connection, account.address).resync();
      throw error;
    }
  }

  /** Runs `publication` with the connection and the oracle account, unless the chain has no contract for it or no oracle account. */
  function start(what: string, runId: Date, publication: (connection: ChainConnection, account: LocalAccount) => Promise<boolean>): void {
    const work = (async () => {
      try {
        const connection = await chain.connect();
        const account = oracleAccountOf(connection, options.settlerKey);
        if (!account) return void logger.debug({ what }, 'no oracle account (RAIL_SETTLER_KEY unset): the run is not published on chain');
        const published = await publication(connection, account);
        if (published) logger.info({ what, runId: runId.toISOString() }, 'oracle run published on chain');
        options.health?.reportOutcome(PUBLICATION_HEALTH_PART, true);
      } catch (error) {
        options.health?.reportOutcome(PUBLICATION_HEALTH_PART, false, error);
        logger.warn({ err: error, what, runId: runId.toISOString() }, 'could not publish the oracle run on chain; the run stands, the next run publishes its own');
      }
    })();
    pending.add(work);
    void work.finally(() => pending.delete(work));
  }

  return {
    esg(slot, output) {
      start('esg scores', slot, async (connection, account) => {
        const address = connection.contracts.esgOracle;
        if (!address) return false;
        const { environmental, social, governance, average } = output.scores;
        const args = [runIdOf(slot), output.asOf, toMillionths(environmental), toMillionths(social), toMillionths(governance), toMillionths(average)] as const;
        await send(connection, account, { address, abi: railEsgOracleAbi, functionName: 'publishScores', args });
        return true;
      });
    },
    stability(slot, output) {
      start('stability controller and basket peg', slot, async (connection, account) => {
        const { stabilityPID, basketPeg } = connection.contracts;
        const runId = runIdOf(slot);
        const basket = basketInMillionths(output.peg.basketWeights);
        const deviation = output.peg.deviationBps;
        // Both in the account's queue, one after the other: the two transactions are independent.
        const sends = [
          stabilityPID ? send(connection, account, { address: stabilityPID, abi: stabilityPIDAbi, functionName: 'update', args: [runId, BigInt(toMillionths(output.stabilityScore))] }) : undefined,
          basketPeg && basket
            ? send(connection, account, {
                address: basketPeg,
                abi: basketPegAbi,
                functionName: 'publishBasket',
                args: [runId, basket.assets, basket.weights, deviation !== null, deviation === null ? 0 : toCentiBps(deviation)],
              })
            : undefined,
        ].filter((sending) => sending !== undefined);
        const failed = (await Promise.allSettled(sends)).find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
        return sends.length > 0;
      });
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
