import { type Address, erc20Abi, getAddress, type Hex, type Log, parseEventLogs, type PublicClient, TransactionReceiptNotFoundError } from 'viem';
import { requireAdminKey } from '../../../platform/access/shared-secret.js';
import { AppError } from '../../../platform/errors.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { Funder } from '../domain/index.js';
import { type AgentAuthorityDeps, requireAgentOwner } from './authority.js';
import { type AgentFunds, agentFundsOf, type Deposit, depositsIn, fundingWalletMessage, type TransferLog } from './domain/index.js';
import type { AgentFundsStore } from './funds-store.js';
import type { DepositBody, FundingWalletBody, IssuerDepositBody } from './inputs.js';

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
  /** AP2_TRUSTED_ISSUERS: each trusted issuer's funding wallets (lower-case), set by the operator (decision 0049 §9). */
  issuers: ReadonlyMap<string, { fundingWallets: readonly string[] }>;
  /** ADMIN_KEY: the operator reads and credits the issuers' funds; unset closes both. */
  adminKey: string | undefined;
}

export interface AgentFundsView extends AgentFunds {
  agentId: string;
  /** The wallets whose transfers to the treasury are the agent's deposits (EIP-55). */
  fundingWallets: string[];
  /** The treasury to transfer to (EIP-55). */
  treasury: string;
}

/** A trusted AP2 issuer's funds (decision 0049 §9), as the operator reads them. */
export interface IssuerFundsView extends AgentFunds {
  issuer: string;
  /** The wallets the operator configured for the issuer (EIP-55). */
  fundingWallets: string[];
  /** The treasury to transfer to (EIP-55). */
  treasury: string;
}

export interface IssuerDepositAnswer {
  issuer: string;
  txHash: string;
  credited: Array<{ logIndex: number; fromWallet: string; amountUsd: string }>;
  funds: IssuerFundsView;
}

export interface DepositAnswer {
  agentId: string;
  txHash: string;
  /** The transfers credited by this call (none when the transaction was credited before). */
  credited: Array<{ logIndex: number; fromWallet: string; amountUsd: string }>;
  funds: AgentFundsView;
}

/** The agent's funds are not settlements: they do not count against the agent key's per-minute limit (decision 0048 §7). */
const NOT_COUNTED = { countsAgainstLimit: false };

const invalidDeposit = (message: string) => new AppError('PAY_ERR_DEPOSIT_INVALID', { message });

/**
 * The Transfer logs of a receipt, decoded (logs of other events or contracts are skipped), each
 * indexed by its position in the receipt's logs (decision 0049 §2): a log's own logIndex is its
 * position in the block, which changes when a reorg mines the transaction in another block, so the
 * same transfer would be credited again under it.
 */
export function transfersOf(receiptLogs: readonly Log[]): TransferLog[] {
  const logs = receiptLogs.map((log, position) => ({ ...log, logIndex: position }));
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs, strict: true }).map((log) => ({
    address: log.address,
    logIndex: log.logIndex,
    from: log.args.from,
    to: log.args.to,
    value: log.args.value,
  }));
}

/** The receipt of a mined, successful transaction on the rail's chain, or PAY_ERR_DEPOSIT_INVALID. */
async function successfulReceipt(rail: FundsRail, txHash: string) {
  const receipt = await rail.publicClient.getTransactionReceipt({ hash: txHash as Hex }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) throw invalidDeposit(`No mined transaction ${txHash} on the rail's chain.`);
    throw error;
  });
  if (receipt.status !== 'success') throw invalidDeposit(`The transaction ${txHash} reverted: it moved nothing.`);
  return receipt;
}

/**
 * The one deposit reader (decision 0049 §2, §9): the transaction's receipt read on the rail's
 * chain, and each Transfer of the rail's token to the treasury from one of the funder's wallets
 * credited to it once (a transfer credited before, to this funder or another, is not again).
 */
async function creditDepositsOf(deps: AgentFundsDeps, rail: FundsRail, funder: Funder, wallets: ReadonlySet<string>, txHash: string, now: Date) {
  const receipt = await successfulReceipt(rail, txHash);
  const deposits = depositsIn(transfersOf(receipt.logs), { token: rail.token, treasury: rail.treasury, fundingWallets: wallets });
  const whose = funder.kind === 'agent' ? `bound to ${funder.agentId}` : `configured for the issuer ${funder.issuer}`;
  if (deposits.length === 0) throw invalidDeposit(`The transaction ${txHash} transfers no ${rail.token} to the treasury ${rail.treasury} from a wallet ${whose}.`);
  const credited = await deps.store.creditDeposits(funder, txHash.toLowerCase(), receipt.blockNumber, deposits, now);
  return credited.map((row) => ({ logIndex: row.logIndex, fromWallet: getAddress(row.fromWallet), amountUsd: deposits.find((deposit: Deposit) => deposit.logIndex === row.logIndex)!.amountUsd }));
}

/**
 * Settlement funds (decision 0049). An agent's: the owner binds wallets to the agent (each proven
 * by its own signature), transfers the rail's token from them to the rail's treasury, and has each
 * transfer credited once after the rail read it on its own chain; every call needs the owner's
 * proof. A trusted AP2 issuer's (§9): its wallets are the operator's configuration, and the
 * operator (admin key) credits its deposits and reads its funds.
 */
export function createAgentFunds(deps: AgentFundsDeps) {
  return {
    /** What the funder may still spend (for the settlement's early check; the claim checks again). */
    fundsOf: (funder: Funder) => fundsOf(deps, funder),
    /** GET /agent/funds. */
    funds: (request: RequestContext, agentId: string | undefined) => agentFunds(deps, request, agentId),
    bindFundingWallet: (request: RequestContext, agentId: string | undefined, body: FundingWalletBody) => bindFundingWallet(deps, request, agentId, body),
    creditDeposit: (request: RequestContext, agentId: string | undefined, body: DepositBody) => creditDeposit(deps, request, agentId, body),
    /** GET /agent/issuers/funds?issuer= (admin key): a trusted issuer's funds. */
    issuerFunds: (request: RequestContext, issuer: string) => issuerFunds(deps, request, issuer),
    creditIssuerDeposit: (request: RequestContext, body: IssuerDepositBody) => creditIssuerDeposit(deps, request, body),
  };
}

async function fundsOf(deps: AgentFundsDeps, funder: Funder): Promise<AgentFunds> {
  const [deposited, spent] = await Promise.all([deps.store.depositedUsd(funder), deps.store.spentUsd(funder)]);
  return agentFundsOf(deposited, spent);
}

async function view(deps: AgentFundsDeps, agentId: string, rail: FundsRail): Promise<AgentFundsView> {
  const [wallets, funds] = await Promise.all([deps.store.fundingWallets(agentId), fundsOf(deps, { kind: 'agent', agentId })]);
  return { agentId, fundingWallets: wallets.map((wallet) => getAddress(wallet.walletAddress)), treasury: getAddress(rail.treasury), ...funds };
}

/** The trusted issuer's configured wallets; an issuer not on AP2_TRUSTED_ISSUERS is 400. */
function issuerWallets(deps: AgentFundsDeps, issuer: string): readonly string[] {
  const trusted = deps.issuers.get(issuer);
  if (!trusted) throw new AppError('PAY_ERR_INVALID_REQUEST', { message: 'issuer is not a trusted AP2 issuer (AP2_TRUSTED_ISSUERS).' });
  return trusted.fundingWallets;
}

async function issuerView(deps: AgentFundsDeps, issuer: string, rail: FundsRail): Promise<IssuerFundsView> {
  const wallets = issuerWallets(deps, issuer);
  return { issuer, fundingWallets: wallets.map((wallet) => getAddress(wallet)), treasury: getAddress(rail.treasury), ...(await fundsOf(deps, { kind: 'issuer', issuer })) };
}

/** Whether a wallet is configured for a trusted issuer: it cannot also fund an agent. */
const fundsAnIssuer = (deps: AgentFundsDeps, walletAddress: string) => [...deps.issuers.values()].some((issuer) => issuer.fundingWallets.includes(walletAddress.toLowerCase()));

/** GET /agent/funds. */
async function agentFunds(deps: AgentFundsDeps, request: RequestContext, agentId: string | undefined): Promise<AgentFundsView> {
  const proven = await requireAgentOwner(deps, request, agentId, NOT_COUNTED);
  return view(deps, proven, await deps.rail());
}

/**
 * POST /agent/funding-wallets: the wallet's EIP-191 signature of fundingWalletMessage proves it
 * is the owner's (ERC-1271 wallets answer through the chain); a wallet funds one agent, and a
 * wallet the operator configured for a trusted issuer funds that issuer only.
 */
async function bindFundingWallet(deps: AgentFundsDeps, request: RequestContext, agentId: string | undefined, body: FundingWalletBody): Promise<AgentFundsView> {
  const proven = await requireAgentOwner(deps, request, agentId, NOT_COUNTED);
  const rail = await deps.rail();
  const message = fundingWalletMessage(proven, body.walletAddress, rail.chainId);
  const signed = await rail.publicClient.verifyMessage({ address: body.walletAddress as Address, message, signature: body.signature as Hex }).catch(() => false);
  if (!signed) throw new AppError('PAY_ERR_FUNDING_WALLET_INVALID', { message: `The signature is not ${body.walletAddress}'s over the message "${message}" (EIP-191 personal_sign).` });
  if (fundsAnIssuer(deps, body.walletAddress))
    throw new AppError('PAY_ERR_FUNDING_WALLET_TAKEN', { message: 'The wallet funds a trusted AP2 issuer (AP2_TRUSTED_ISSUERS): it cannot fund an agent too.' });
  const bound = await deps.store.bindWallet(body.walletAddress.toLowerCase(), proven, request.clock.now());
  if (bound.agentId !== proven) throw new AppError('PAY_ERR_FUNDING_WALLET_TAKEN');
  return view(deps, proven, rail);
}

/**
 * POST /agent/deposits: each Transfer of the rail's token from a wallet bound to this agent to
 * the treasury is credited once. A transaction credited before answers the funds with nothing
 * more credited.
 */
async function creditDeposit(deps: AgentFundsDeps, request: RequestContext, agentId: string | undefined, body: DepositBody): Promise<DepositAnswer> {
  const proven = await requireAgentOwner(deps, request, agentId, NOT_COUNTED);
  const rail = await deps.rail();
  const wallets = new Set((await deps.store.fundingWallets(proven)).map((wallet) => wallet.walletAddress));
  const credited = await creditDepositsOf(deps, rail, { kind: 'agent', agentId: proven }, wallets, body.txHash, request.clock.now());
  return { agentId: proven, txHash: body.txHash.toLowerCase(), credited, funds: await view(deps, proven, rail) };
}

/** GET /agent/issuers/funds?issuer= (admin key): a trusted issuer's funds. */
async function issuerFunds(deps: AgentFundsDeps, request: RequestContext, issuer: string): Promise<IssuerFundsView> {
  requireAdminKey(request, deps.adminKey);
  return issuerView(deps, issuer, await deps.rail());
}

/**
 * POST /agent/issuers/deposits (admin key): each Transfer of the rail's token to the treasury
 * from a wallet configured for the issuer is credited to it once.
 */
async function creditIssuerDeposit(deps: AgentFundsDeps, request: RequestContext, body: IssuerDepositBody): Promise<IssuerDepositAnswer> {
  requireAdminKey(request, deps.adminKey);
  const wallets = new Set(issuerWallets(deps, body.issuer));
  const rail = await deps.rail();
  const credited = await creditDepositsOf(deps, rail, { kind: 'issuer', issuer: body.issuer }, wallets, body.txHash, request.clock.now());
  return { issuer: body.issuer, txHash: body.txHash.toLowerCase(), credited, funds: await issuerView(deps, body.issuer, rail) };
}

export type AgentFundsService = ReturnType<typeof createAgentFunds>;
