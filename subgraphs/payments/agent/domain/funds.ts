import { Big } from 'big.js';

// Whose money a settlement moves (decision 0049): an agent's settlement its owner's, deposited to
// the rail's treasury from wallets the owner bound to the agent; a settlement under an AP2 mandate
// alone its trusted issuer's, deposited from the wallets the operator configured for the issuer
// (§9). Pure: the chain's logs and the sums are read by the caller and passed in.

/** The token's decimals (USDC and the embedded rail's rUSD): 1 unit of 10^-6 is one micro-dollar. */
const TOKEN_DECIMALS = 6;

/**
 * The text a wallet signs (EIP-191 personal_sign) to fund an agent: it names the agent, the wallet
 * and the chain, so a signature binds that wallet to that agent on that chain and nothing else.
 */
export function fundingWalletMessage(agentId: string, walletAddress: string, chainId: number): string {
  return `Settlement rail: wallet ${walletAddress} funds settlement agent ${agentId} on chain ${chainId}.`;
}

/** A Transfer log of a receipt, as the caller decoded it (ERC-20 Transfer(from, to, value)). */
export interface TransferLog {
  /** The emitting contract. */
  address: string;
  /** Its position in the transaction receipt's logs (stable when a reorg re-mines it in another block), not in the block. */
  logIndex: number;
  from: string;
  to: string;
  value: bigint;
}

export interface DepositRules {
  /** The rail's token. */
  token: string;
  /** The rail's treasury, which settlements pay from. */
  treasury: string;
  /** The funder's wallets (lower-case): bound to the agent, or configured for the issuer. */
  fundingWallets: ReadonlySet<string>;
}

export interface Deposit {
  logIndex: number;
  fromWallet: string;
  /** Decimal text, USD (1 token = 1 USD). */
  amountUsd: string;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The deposits a transaction holds for a funder: each Transfer of the rail's token to its treasury
 * from one of the funder's wallets, of a positive value. Any other log is ignored.
 */
export function depositsIn(logs: readonly TransferLog[], rules: DepositRules): Deposit[] {
  return logs
    .filter((log) => same(log.address, rules.token) && same(log.to, rules.treasury) && rules.fundingWallets.has(log.from.toLowerCase()) && log.value > 0n)
    .map((log) => ({ logIndex: log.logIndex, fromWallet: log.from.toLowerCase(), amountUsd: new Big(log.value.toString()).div(new Big(10).pow(TOKEN_DECIMALS)).toFixed() }));
}

export interface AgentFunds {
  /** Decimal text, USD: every deposit credited. */
  depositedUsd: string;
  /** Decimal text, USD: the SETTLED and PENDING settlements paid from these funds. */
  spentUsd: string;
  /** Decimal text, USD: deposited less spent, never below 0. */
  availableUsd: string;
}

export function agentFundsOf(depositedUsd: string, spentUsd: string): AgentFunds {
  const available = new Big(depositedUsd).minus(spentUsd);
  return { depositedUsd: new Big(depositedUsd).toFixed(), spentUsd: new Big(spentUsd).toFixed(), availableUsd: (available.lt(0) ? new Big(0) : available).toFixed() };
}

/** Whether the funds cover `amountUsd` more (inclusive). */
export function fundsCover(funds: AgentFunds, amountUsd: string): boolean {
  return new Big(amountUsd).lte(funds.availableUsd);
}
