import { maxUint256, parseEventLogs, parseUnits, type Abi, type Address, type ContractFunctionName, type Hash, type LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../../contracts/artifacts/SettlementRouter.js';
import type { ChainConnection, RailChain } from '../../platform/chain/index.js';
import { SendFailure, sendContractCall, sendQueueFor, type ContractCall, type SentTransaction } from '../../platform/chain/send-queue.js';
import { withTimeout } from '../../platform/timeout.js';
import { USDC_DECIMALS } from './domain/index.js';

/**
 * Settlement of a payment on the rail through the settlement router's settle() (contracts/src/
 * SettlementRouter.sol): the router pulls `amount` of the token from its caller, pays the net to
 * the payee and the fee to the fee recipient, and records the quoteId so a quote settles once.
 *
 * Who pays (decision 0025): the router moves the token from msg.sender, and the rail holds no
 * debtor's key. The rail's treasury account acts for the institution, which pre-funds it (the
 * debtor's wallet is recorded with the payment, not debited): on the embedded rail it is
 * development account #8 (funded with 1,000,000 rUSD at deployment; #0 deploys and settles x402,
 * #9 receives fees); on RPC_URL it is the RAIL_SETTLER_KEY account (`settlerKey`), whether or not
 * x402 payments are taken (with PAY_TO set and FACILITATOR_URL not, it is the x402 settler too). Its
 * transactions take their turn in the account's one send queue of the process
 * (platform/chain/send-queue.ts, decision 0040), shared with x402's settlements; the receipts are
 * waited for outside it, so settlements overlap on chain. The router's allowance is set once,
 * before the first settlement.
 */

export const EMBEDDED_TREASURY_ACCOUNT_INDEX = 8;

export interface SettlementOrder {
  payee: Address;
  /** USDC base units. */
  amount: bigint;
  hasFx: boolean;
  esgScore: number;
  monthlyVolumeUsd: number;
  quoteId: string;
}

export interface SettlementReceipt {
  txHash: Hash;
  /** Token base units, as the router's Settled event reports them. */
  fee: bigint;
  payer: Address;
}

export class RailError extends Error {
  override name = 'RailError';
  /** Sent, but whether it was mined is not known: the chain decides later (decision 0039), not this error. */
  readonly unconfirmed: boolean;
  constructor(
    message: string,
    readonly txHash?: Hash,
    options?: { cause?: unknown; unconfirmed?: boolean },
  ) {
    super(message, options);
    this.unconfirmed = options?.unconfirmed ?? false;
  }
}

export interface RailSettlement {
  /** `base-mainnet` on RPC_URL, `embedded-base` on the in-process EVM. */
  network(): string;
  settle(order: SettlementOrder): Promise<SettlementReceipt>;
}

/** The account payments settle from (see above): the embedded treasury, else the x402 settler, else RAIL_SETTLER_KEY's. */
export function railTreasuryOf(connection: ChainConnection, settlerKeyAccount: LocalAccount | undefined): LocalAccount | undefined {
  if (connection.embedded) return connection.embedded.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX];
  return connection.payment?.settler?.account ?? settlerKeyAccount;
}

export function createRailSettlement(options: { chain: RailChain; timeoutMs: number; /** RAIL_SETTLER_KEY: the treasury on RPC_URL. */ settlerKey?: string }): RailSettlement {
  const { chain, timeoutMs, settlerKey } = options;
  // On RPC_URL the x402 settler exists only with PAY_TO and without FACILITATOR_URL; a payment needs none of those.
  const keyAccount = settlerKey ? privateKeyToAccount(settlerKey as Hash) : undefined;
  /** The router's allowance, set once per (token, router, treasury); forgotten when setting it failed. */
  const approvals = new Map<string, Promise<void>>();

  const treasuryOf = (connection: ChainConnection) => railTreasuryOf(connection, keyAccount);

  /**
   * Sends in the treasury's turn; its receipt is waited for outside it. A send whose turn did not
   * come within timeoutMs is not sent. One the node may have taken without answering is returned:
   * its receipt decides.
   */
  async function send<const abi extends Abi, functionName extends ContractFunctionName<abi, 'nonpayable'>>(connection: ChainConnection, account: LocalAccount, call: ContractCall<abi, functionName>, what: string): Promise<SentTransaction> {
    try {
      return await sendContractCall(connection, account, call, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if (error instanceof SendFailure && error.maybeSent) return error.maybeSent;
      throw new RailError(`${what} was not sent: ${error instanceof SendFailure ? error.message : 'an unexpected error'}`, undefined, { cause: error });
    }
  }

  async function receiptOf(connection: ChainConnection, account: LocalAccount, sent: SentTransaction, what: string) {
    try {
      return await withTimeout(connection.publicClient.waitForTransactionReceipt({ hash: sent.hash }), timeoutMs * 6, `${what} receipt`);
    } catch (error) {
      // Never mined: it may have been dropped, and the nonces after it wait on it. The next send asks the chain.
      sendQueueFor(connection, account.address).resync();
      throw new RailError(`${what} was sent but not confirmed in time`, sent.hash, { cause: error, unconfirmed: true });
    }
  }

  async function approveRouter(connection: ChainConnection, account: LocalAccount, token: Address, router: Address): Promise<void> {
    const allowance = await withTimeout(connection.publicClient.readContract({ address: token, abi: railUSDAbi, functionName: 'allowance', args: [account.address, router] }), timeoutMs, 'read the router allowance');
    if (allowance >= maxUint256 / 2n) return;
    const sent = await send(connection, account, { address: token, abi: railUSDAbi, functionName: 'approve', args: [router, maxUint256] }, 'the router approval');
    const receipt = await receiptOf(connection, account, sent, 'the router approval');
    if (receipt.status !== 'success') throw new RailError('the router approval reverted', sent.hash);
  }

  function approved(connection: ChainConnection, account: LocalAccount, token: Address, router: Address): Promise<void> {
    const key = `${token}:${router}:${account.address}`;
    let approval = approvals.get(key);
    if (!approval) {
      approval = approveRouter(connection, account, token, router);
      approvals.set(key, approval);
      approval.catch(() => approvals.delete(key));
    }
    return approval;
  }

  async function settle(order: SettlementOrder): Promise<SettlementReceipt> {
    const connection = await withTimeout(chain.connect(), timeoutMs * 6, 'connect to the rail');
    const { token, router } = connection.contracts;
    const account = treasuryOf(connection);
    if (!token || !router) throw new RailError('the rail has no token or settlement router configured (CONTRACT_TOKEN, CONTRACT_ROUTER)');
    if (!account) throw new RailError('the rail has no settlement account (RAIL_SETTLER_KEY)');
    await approved(connection, account, token, router);
    const sent = await send(
      connection,
      account,
      {
        address: router,
        abi: settlementRouterAbi,
        functionName: 'settle',
        args: [
          token,
          order.payee,
          order.amount,
          order.hasFx,
          parseUnits(order.esgScore.toFixed(USDC_DECIMALS), USDC_DECIMALS),
          parseUnits(order.monthlyVolumeUsd.toFixed(USDC_DECIMALS), USDC_DECIMALS),
          order.quoteId,
        ],
      },
      'the settlement',
    );
    const receipt = await receiptOf(connection, account, sent, 'the settlement');
    if (receipt.status !== 'success') {
      // All the gas used: it ran out (the state changed between the estimate and the block).
      if (receipt.gasUsed >= sent.gas) throw new RailError(`the settlement transaction ran out of gas (limit ${sent.gas}, the node's estimate)`, sent.hash);
      throw new RailError('the settlement transaction reverted', sent.hash);
    }
    const [settled] = parseEventLogs({ abi: settlementRouterAbi, eventName: 'Settled', logs: receipt.logs });
    if (!settled) throw new RailError('the settlement transaction emitted no Settled event', sent.hash);
    return { txHash: sent.hash, fee: settled.args.fee, payer: settled.args.payer };
  }

  return {
    network: () => (chain.mode === 'rpc' ? 'base-mainnet' : 'embedded-base'),
    settle,
  };
}
