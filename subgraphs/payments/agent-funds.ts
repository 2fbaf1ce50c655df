import { erc20Abi, getAddress, parseEventLogs, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient } from 'viem';
import { AppError } from '../../platform/errors.js';
import type { RequestContext } from '../../platform/request-context.js';
import { requireAgentOwner, type AgentAuthorityDeps } from './agent-authority.js';
import type { AgentFundsStore } from './agent-funds-store.js';
import type { DepositBody, FundingWalletBody } from './agent-inputs.js';
import { agentFundsOf, depositsIn, fundingWalletMessage, type AgentFunds, type TransferLog } from './domain/index.js';

/** The rail's chain as the funds see it: its client, token and treasury (the account settlements pay from). */
export interface FundsRail {
  publicClient: PublicClient;
  token: Address;
  treasury: Address;
  chainId: number;
}

export interface AgentFundsDeps extends AgentAuthorityDeps {
  store: AgentFundsStore;
  rail(): Promise<FundsRail>;
}

export interface AgentFundsView extends AgentFunds {
  agentId: string;
  /** The wallets whose transfers to the treasury are the agent's deposits (EIP-55). */
  fundingWallets: string[];
  /** The treasury to transfer to (EIP-55). */
  treasury: string;
}

export interface DepositAnswer {
  agentId: string;
  txHash: string;
  /** The transfers credited by this call (none when the transaction was credited before). */
  credited: Array<{ logIndex: number; fromWallet: string; amountUsd: string }>;
  funds: AgentFundsView;
}

const invalidDeposit = (message: string) => new AppError('PAY_ERR_DEPOSIT_INVALID', { message });

/** The Transfer logs of the receipt, decoded (logs of other events or contracts are skipped). */
function transfersOf(logs: Parameters<typeof parseEventLogs>[0]['logs']): TransferLog[] {
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs, strict: true }).map((log) => ({
    address: log.address,
    logIndex: log.logIndex,
    from: log.args.from,
    to: log.args.to,
    value: log.args.value,
  }));
}

/**
 * An agent's funds (decision 0049): the owner binds wallets to the agent (each proven by its own
 * signature), transfers the rail's token from them to the rail's treasury, and has each transfer
 * credited once after the rail read it on its own chain. Every call needs the owner's proof.
 */
export function createAgentFunds(deps: AgentFundsDeps) {
  async function view(agentId: string, rail: FundsRail): Promise<AgentFundsView> {
    const [wallets, deposited, spent] = await Promise.all([deps.store.fundingWallets(agentId), deps.store.depositedUsd(agentId), deps.store.spentUsd(agentId)]);
    return { agentId, fundingWallets: wallets.map((wallet) => getAddress(wallet.walletAddress)), treasury: getAddress(rail.treasury), ...agentFundsOf(deposited, spent) };
  }

  return {
    /** What the agent may still spend (for the settlement's early check; the claim checks again). */
    async fundsOf(agentId: string): Promise<AgentFunds> {
      const [deposited, spent] = await Promise.all([deps.store.depositedUsd(agentId), deps.store.spentUsd(agentId)]);
      return agentFundsOf(deposited, spent);
    },

    /** GET /agent/funds. */
    async funds(request: RequestContext, agentId: string | undefined): Promise<AgentFundsView> {
      const proven = await requireAgentOwner(deps, request, agentId);
      return view(proven, await deps.rail());
    },

    /**
     * POST /agent/funding-wallets: the wallet's EIP-191 signature of fundingWalletMessage proves it
     * is the owner's (ERC-1271 wallets answer through the chain); a wallet funds one agent.
     */
    async bindFundingWallet(request: RequestContext, agentId: string | undefined, body: FundingWalletBody): Promise<AgentFundsView> {
      const proven = await requireAgentOwner(deps, request, agentId);
      const rail = await deps.rail();
      const message = fundingWalletMessage(proven, body.walletAddress, rail.chainId);
      const signed = await rail.publicClient.verifyMessage({ address: body.walletAddress as Address, message, signature: body.signature as Hex }).catch(() => false);
      if (!signed) throw new AppError('PAY_ERR_FUNDING_WALLET_INVALID', { message: `The signature is not ${body.walletAddress}'s over the message "${message}" (EIP-191 personal_sign).` });
      const bound = await deps.store.bindWallet(body.walletAddress.toLowerCase(), proven, request.clock.now());
      if (bound.agentId !== proven) throw new AppError('PAY_ERR_FUNDING_WALLET_TAKEN');
      return view(proven, rail);
    },

    /**
     * POST /agent/deposits: the transaction's receipt is read on the rail's chain; each Transfer of
     * the rail's token from a wallet bound to this agent to the treasury is credited once. A
     * transaction credited before answers the funds with nothing more credited.
     */
    async creditDeposit(request: RequestContext, agentId: string | undefined, body: DepositBody): Promise<DepositAnswer> {
      const proven = await requireAgentOwner(deps, request, agentId);
      const rail = await deps.rail();
      const receipt = await rail.publicClient.getTransactionReceipt({ hash: body.txHash as Hex }).catch((error: unknown) => {
        if (error instanceof TransactionReceiptNotFoundError) throw invalidDeposit(`No mined transaction ${body.txHash} on the rail's chain.`);
        throw error;
      });
      if (receipt.status !== 'success') throw invalidDeposit(`The transaction ${body.txHash} reverted: it moved nothing.`);
      const fundingWallets = new Set((await deps.store.fundingWallets(proven)).map((wallet) => wallet.walletAddress));
      const deposits = depositsIn(transfersOf(receipt.logs), { token: rail.token, treasury: rail.treasury, fundingWallets });
      if (deposits.length === 0) throw invalidDeposit(`The transaction ${body.txHash} transfers no ${rail.token} to the treasury ${rail.treasury} from a wallet bound to ${proven}.`);
      const credited = await deps.store.creditDeposits(proven, body.txHash.toLowerCase(), receipt.blockNumber, deposits, request.clock.now());
      return {
        agentId: proven,
        txHash: body.txHash.toLowerCase(),
        credited: credited.map((row) => ({ logIndex: row.logIndex, fromWallet: getAddress(row.fromWallet), amountUsd: deposits.find((deposit) => deposit.logIndex === row.logIndex)!.amountUsd })),
        funds: await view(proven, rail),
      };
    },
  };
}

export type AgentFundsService = ReturnType<typeof createAgentFunds>;
