import { createWalletClient, custom, maxUint256, parseEventLogs, parseUnits, type Account, type Address, type Chain, type Hash, type Transport, type WalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../../contracts/artifacts/SettlementRouter.js';
import type { ChainConnection, RailChain } from '../../platform/chain/index.js';
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
 * x402 payments are taken (PAY_TO, FACILITATOR_URL). Its transactions are sent one
 * at a time per process (one account's nonces must follow each other); the router's allowance is
 * set once, at the first settlement.
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
  constructor(
    message: string,
    readonly txHash?: Hash,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface RailSettlement {
  /** `base-mainnet` on RPC_URL, `embedded-base` on the in-process EVM. */
  network(): string;
  settle(order: SettlementOrder): Promise<SettlementReceipt>;
}

type Settler = WalletClient<Transport, Chain, Account>;

/**
 * On RPC_URL the x402 settler exists only with PAY_TO and without FACILITATOR_URL; a payment needs
 * none of those, so the treasury is made from RAIL_SETTLER_KEY itself, on the connection's client.
 */
function rpcTreasury(connection: ChainConnection, settlerKey: string | undefined): Settler | undefined {
  if (connection.payment?.settler) return connection.payment.settler;
  if (!settlerKey) return undefined;
  return createWalletClient({ account: privateKeyToAccount(settlerKey as Hash), chain: connection.publicClient.chain ?? base, transport: custom(connection.publicClient) });
}

export function createRailSettlement(options: { chain: RailChain; timeoutMs: number; /** RAIL_SETTLER_KEY: the treasury on RPC_URL. */ settlerKey?: string }): RailSettlement {
  const { chain, timeoutMs, settlerKey } = options;
  let queue: Promise<unknown> = Promise.resolve();
  let approvedFor: string | undefined;
  const treasuries = new WeakMap<ChainConnection, Settler>();

  function treasuryOf(connection: ChainConnection): Settler | undefined {
    if (connection.embedded) {
      const account = connection.embedded.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX];
      return account ? connection.embedded.walletFor(account) : undefined;
    }
    const known = treasuries.get(connection) ?? rpcTreasury(connection, settlerKey);
    if (known) treasuries.set(connection, known);
    return known;
  }

  async function settleNow(order: SettlementOrder): Promise<SettlementReceipt> {
    const connection = await withTimeout(chain.connect(), timeoutMs * 6, 'connect to the rail');
    const { token, router } = connection.contracts;
    const settler = treasuryOf(connection);
    if (!token || !router) throw new RailError('the rail has no token or settlement router configured (CONTRACT_TOKEN, CONTRACT_ROUTER)');
    if (!settler) throw new RailError('the rail has no settlement account (RAIL_SETTLER_KEY)');
    const account = settler.account;
    const { publicClient } = connection;
    const approval = `${token}:${router}:${account.address}`;
    if (approvedFor !== approval) {
      const allowance = await withTimeout(publicClient.readContract({ address: token, abi: railUSDAbi, functionName: 'allowance', args: [account.address, router] }), timeoutMs, 'read the router allowance');
      if (allowance < maxUint256 / 2n) {
        const hash = await withTimeout(settler.writeContract({ address: token, abi: railUSDAbi, functionName: 'approve', args: [router, maxUint256], account, chain: settler.chain }), timeoutMs, 'approve the router');
        await withTimeout(publicClient.waitForTransactionReceipt({ hash }), timeoutMs, 'the approval receipt');
      }
      approvedFor = approval;
    }
    const hash = await withTimeout(
      settler.writeContract({
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
        account,
        chain: settler.chain,
      }),
      timeoutMs,
      'send the settlement',
    );
    let receipt: Awaited<ReturnType<typeof publicClient.waitForTransactionReceipt>>;
    try {
      receipt = await withTimeout(publicClient.waitForTransactionReceipt({ hash }), timeoutMs * 6, 'the settlement receipt');
    } catch (error) {
      throw new RailError('the settlement was sent but not confirmed in time', hash, { cause: error });
    }
    if (receipt.status !== 'success') throw new RailError('the settlement transaction reverted', hash);
    const [settled] = parseEventLogs({ abi: settlementRouterAbi, eventName: 'Settled', logs: receipt.logs });
    if (!settled) throw new RailError('the settlement transaction emitted no Settled event', hash);
    return { txHash: hash, fee: settled.args.fee, payer: settled.args.payer };
  }

  return {
    network: () => (chain.mode === 'rpc' ? 'base-mainnet' : 'embedded-base'),
    settle(order) {
      const run = queue.then(() => settleNow(order));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
