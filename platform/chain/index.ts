import { join } from 'node:path';
import { type Address, type Chain, createPublicClient, createWalletClient, http, type LocalAccount, parseAbi, type PublicClient, type Transport, type WalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getEip712Domain } from 'viem/actions';
import { base } from 'viem/chains';
import type { Config } from '../config.js';
import { claimDataDir } from '../data-dir.js';
import { type ChainJournal, openChainJournal } from './chain-journal.js';
import { loadOrCreateChainMnemonic } from './chain-mnemonic.js';
import { decodeDeployment, encodeDeployment } from './deployment-record.js';
import { type EmbeddedChain, startEmbeddedChain } from './embedded-chain.js';
import type { NonceKeeper } from './nonce-keeper.js';

const TOKEN_DOMAIN_ABI = parseAbi(['function name() view returns (string)', 'function version() view returns (string)']);

/** The token's EIP-712 domain: EIP-5267's eip712Domain() where the token has it, else name() and version() (USDC). */
async function readTokenDomain(publicClient: PublicClient, token: Address): Promise<{ name: string; version: string }> {
  try {
    const { domain } = await getEip712Domain(publicClient, { address: token });
    if (domain.name !== undefined && domain.version !== undefined) return { name: domain.name, version: domain.version };
  } catch {
    // No eip712Domain(): read the two fields USDC exposes.
  }
  const [name, version] = await Promise.all([
    publicClient.readContract({ address: token, abi: TOKEN_DOMAIN_ABI, functionName: 'name' }),
    publicClient.readContract({ address: token, abi: TOKEN_DOMAIN_ABI, functionName: 'version' }),
  ]);
  return { name, version };
}

export interface RailContractAddresses {
  token: Address | null;
  router: Address | null;
  /** The oracle-fed and fee contracts of decision 0057 (CONTRACT_* on RPC_URL; deployed on the embedded rail). */
  esgOracle: Address | null;
  redistribution: Address | null;
  stabilityPID: Address | null;
  basketPeg: Address | null;
}

/** What an x402 payment on this rail is made in, and to whom. */
export interface PaymentRail {
  token: Address;
  payTo: Address;
  /** The token's EIP-712 domain, which the payer signs under. */
  tokenDomain: { name: string; version: string };
  /**
   * The account that submits transferWithAuthorization (the facilitator's role); undefined when
   * FACILITATOR_URL settles. A local signer: its transactions are signed here and sent through
   * the account's send queue (send-queue.ts).
   */
  settler: WalletClient<Transport, Chain, LocalAccount> | undefined;
}

export interface ChainConnection {
  mode: 'embedded' | 'rpc';
  publicClient: PublicClient;
  contracts: RailContractAddresses;
  /** The embedded chain itself (its funded accounts, its provider); undefined on RPC_URL. */
  embedded: EmbeddedChain | undefined;
  /** Undefined where payments cannot be taken: on RPC_URL without CONTRACT_TOKEN, PAY_TO and a settler (RAIL_SETTLER_KEY or FACILITATOR_URL). */
  payment: PaymentRail | undefined;
  /** Why payments are unavailable although configured (the token's EIP-712 domain could not be read); the next connect() retries. */
  paymentError?: unknown;
  /** Who holds the send turn of the rail's accounts and keeps their nonces (decision 0087); unset: this process alone, in memory. */
  nonces?: NonceKeeper;
}

/**
 * Deploys the rail's contracts on a fresh embedded chain (contracts/deploy.ts, given by the
 * caller). Called once per chain: what it returns is kept in the chain's journal and given back
 * on a restored chain (decision 0052), so it must hold only JSON values, bigints and wallets of
 * the chain's development accounts.
 */
export type DeployContracts = (chain: EmbeddedChain) => Promise<RailContractAddresses & { payment: PaymentRail }>;

/** The embedded chain's folder inside DATA_DIR: the journal and the accounts' mnemonic, claimed by one process at a time. */
export const EMBEDDED_CHAIN_FOLDER = 'chain';
const JOURNAL_FILE = 'journal.jsonl';

/** The journal in `folder`; one cut during the deployment (no deployment line) is emptied: nothing names its blocks. */
async function openRailJournal(folder: string): Promise<ChainJournal> {
  const path = join(folder, JOURNAL_FILE);
  const journal = await openChainJournal(path);
  if (journal.contents.genesis === undefined || journal.contents.deployment !== undefined) return journal;
  await journal.reset();
  await journal.close();
  return openChainJournal(path);
}

/** The path of the embedded rail's JSON-RPC route (gateway/rpc-route.ts). */
const EMBEDDED_RPC_PATH = /\/rpc\/?$/;

/**
 * X-Internal-Key on the requests to RPC_URL when it is another rail process's /rpc: that route
 * sends for the rail's own accounts only with it (decision 0051). A node provider's URL (no /rpc
 * path) is never sent the key.
 */
function internalKeyFor(url: string, internalKey: string | undefined): { fetchOptions?: { headers: Record<string, string> } } {
  if (!internalKey || !EMBEDDED_RPC_PATH.test(new URL(url).pathname)) return {};
  return { fetchOptions: { headers: { 'x-internal-key': internalKey } } };
}

export interface RailChain {
  mode: 'embedded' | 'rpc';
  /** Connects once (embedded: starts the EVM and deploys the contracts); later calls share it. */
  connect(): Promise<ChainConnection>;
  /** The connection once made, else undefined (never starts one). */
  current(): ChainConnection | undefined;
  close(): Promise<void>;
}

/**
 * The rail's chain: Base through RPC_URL with the contract addresses of the configuration, or by
 * default the embedded in-process EVM with the contracts deployed at its start. The connection is
 * made on first use, so a process that never touches the chain never starts one.
 */
export function createRailChain(config: Config, deploy: DeployContracts, options: { nonces?: NonceKeeper } = {}): RailChain {
  const state: ChainState = { config, deploy, nonces: options.nonces, connection: undefined, connected: undefined, release: undefined };
  return {
    mode: config.chain.rpcUrl ? 'rpc' : 'embedded',
    connect: () => connect(state),
    current: () => state.connected,
    close: () => close(state),
  };
}

/** One rail chain's configuration and where its connection stands. */
interface ChainState {
  readonly config: Config;
  readonly deploy: DeployContracts;
  readonly nonces: NonceKeeper | undefined;
  connection: Promise<ChainConnection> | undefined;
  connected: ChainConnection | undefined;
  /** Gives the embedded chain's folder back (its claim in DATA_DIR). */
  release: (() => Promise<void>) | undefined;
}

function connect(state: ChainState): Promise<ChainConnection> {
  const { rpcUrl } = state.config.chain;
  const connection = (state.connection ??= (rpcUrl ? connectRpc(state.config, rpcUrl) : connectEmbedded(state)).then((made) => (state.nonces ? { ...made, nonces: state.nonces } : made)));
  connection.then(
    (made) => {
      state.connected = made;
      if (made.paymentError !== undefined) state.connection = undefined;
    },
    // A failed start may be retried by the next caller.
    () => {
      state.connection = undefined;
    },
  );
  return connection;
}

async function close(state: ChainState): Promise<void> {
  const open = await state.connection?.catch(() => undefined);
  await open?.embedded?.close();
  await state.release?.();
  state.release = undefined;
}

/**
 * The embedded chain kept in DATA_DIR/chain (decision 0052): replayed from its journal when it
 * holds a deployed chain, else fresh, deployed, and the deployment's result journaled. Its
 * accounts come from the secret mnemonic kept there (or EMBEDDED_CHAIN_MNEMONIC), written before
 * the journal's genesis.
 */
async function connectEmbedded(state: ChainState): Promise<ChainConnection> {
  const claim = await claimDataDir(join(state.config.database.dataDir, EMBEDDED_CHAIN_FOLDER));
  let embedded: EmbeddedChain | undefined;
  try {
    const journal = await openRailJournal(claim.path);
    const kept = journal.contents.deployment;
    embedded = await startOnJournal(state.config, journal, claim.path);
    const deployed = kept === undefined ? await deployAndRecord(state.deploy, embedded, journal) : (decodeDeployment(kept, embedded) as Awaited<ReturnType<DeployContracts>>);
    const { payment, ...contracts } = deployed;
    state.release = claim.release;
    return { mode: 'embedded', publicClient: embedded.publicClient, contracts, embedded, payment };
  } catch (error) {
    await embedded?.close();
    await claim.release();
    throw error;
  }
}

async function startOnJournal(config: Config, journal: ChainJournal, folder: string): Promise<EmbeddedChain> {
  try {
    const mnemonic = loadOrCreateChainMnemonic({ folder, configured: config.chain.embeddedMnemonic, journalHasChain: journal.contents.genesis !== undefined });
    return await startEmbeddedChain({ journal, mnemonic });
  } catch (error) {
    await journal.close();
    throw error;
  }
}

async function deployAndRecord(deploy: DeployContracts, embedded: EmbeddedChain, journal: ChainJournal) {
  const deployed = await deploy(embedded);
  await journal.append([{ deployment: encodeDeployment(deployed) }]);
  return deployed;
}

async function connectRpc(config: Config, url: string): Promise<ChainConnection> {
  const transport = http(url, { timeout: config.chain.timeoutMs, retryCount: 0, ...internalKeyFor(url, config.access.internalKey) });
  const publicClient = createPublicClient({ chain: base, transport }) as PublicClient;
  const { token, router, esgOracle, redistribution, stabilityPID, basketPeg } = config.contracts;
  const contracts = {
    token: token ?? null,
    router: router ?? null,
    esgOracle: esgOracle ?? null,
    redistribution: redistribution ?? null,
    stabilityPID: stabilityPID ?? null,
    basketPeg: basketPeg ?? null,
  };
  // A token that cannot be read takes payments away, not the chain: verify-fees and the rest still work.
  const payment = await rpcPaymentRail(config, publicClient, transport).then(
    (rail) => ({ rail, error: undefined }),
    (error: unknown) => ({ rail: undefined, error }),
  );
  return { mode: 'rpc', publicClient, contracts, embedded: undefined, payment: payment.rail, ...(payment.error ? { paymentError: payment.error } : {}) };
}

/**
 * Payments on Base need the token, the payee, and someone to settle: our own account
 * (RAIL_SETTLER_KEY) or an external facilitator (FACILITATOR_URL). The token's EIP-712 domain is
 * read from the token itself, so payers sign what it checks.
 */
async function rpcPaymentRail(config: Config, publicClient: PublicClient, transport: Transport): Promise<PaymentRail | undefined> {
  const { settlerKey, payTo, facilitatorUrl } = config.access;
  const token = config.contracts.token;
  if (!token || !payTo || (!settlerKey && !facilitatorUrl)) return undefined;
  const tokenDomain = await readTokenDomain(publicClient, token);
  const settler = settlerKey && !facilitatorUrl ? createWalletClient({ account: privateKeyToAccount(settlerKey as `0x${string}`), chain: base as Chain, transport }) : undefined;
  return { token, payTo, tokenDomain, settler };
}
