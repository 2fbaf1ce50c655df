import { parseUnits } from 'viem';
import { settlementRouterAbi } from '../../../contracts/artifacts/SettlementRouter.js';
import type { RailChain } from '../../../platform/chain/index.js';
import { withTimeout } from '../../../platform/timeout.js';
import { computeFees, type FeeBreakdown, type FeeParameters, type QuoteTerms } from '../domain/index.js';

export const FEE_VERIFICATION_SCHEMA = 'srg-fee-verification/1.0';
const USD_DECIMALS = 6;
const SCORE_DECIMALS = 6;

/** One side of the comparison, in USDC base units (6 decimals) as strings: what the chain moves. */
export interface FeeAmounts {
  core: string;
  fx: string;
  esg: string;
  license: string;
  total: string;
  net: string;
}

export interface OnChainFees extends FeeAmounts {
  router: string;
  chainId: number;
  blockNumber: string;
}

export interface FeeVerification {
  schema: string;
  timestamp: string;
  offChain: FeeAmounts & { totalBps: number };
  onChain: OnChainFees | null;
  onChainError: string | null;
  feesMatch: boolean | null;
  note: string;
}

const units = (usd: number) => parseUnits(usd.toFixed(USD_DECIMALS), USD_DECIMALS).toString();

export function offChainAmounts(fees: FeeBreakdown): FeeAmounts & { totalBps: number } {
  return {
    core: units(fees.core.usd),
    fx: units(fees.fx.usd),
    esg: units(fees.esg.usd),
    license: units(fees.license.usd),
    total: units(fees.total.usd),
    net: units(fees.settlement.netUsd),
    totalBps: fees.total.bps,
  };
}

const AMOUNT_KEYS = ['core', 'fx', 'esg', 'license', 'total', 'net'] as const;

/** The router's previewFees for the same terms; throws when the chain cannot be asked. */
export async function readOnChainFees(chain: RailChain, terms: QuoteTerms, timeoutMs: number): Promise<OnChainFees | 'not-deployed'> {
  // The embedded chain starts in-process on first use; an RPC connection (which reads the
  // token's domain when payments are configured) is bounded like the preview.
  const connection = await (chain.mode === 'rpc' ? withTimeout(chain.connect(), timeoutMs, 'connect to the rail') : chain.connect());
  const router = connection.contracts.router;
  if (!router) return 'not-deployed';
  // The chain id and block are read from the node that answered, beside the preview.
  const [preview, blockNumber, chainId] = await withTimeout(
    Promise.all([
      connection.publicClient.readContract({
        address: router,
        abi: settlementRouterAbi,
        functionName: 'previewFees',
        args: [
          parseUnits(terms.amountUsd.toFixed(USD_DECIMALS), USD_DECIMALS),
          terms.hasFx,
          parseUnits(terms.esgScore.toFixed(SCORE_DECIMALS), SCORE_DECIMALS),
          parseUnits(terms.monthlyVolumeUsd.toFixed(USD_DECIMALS), USD_DECIMALS),
        ],
      }),
      connection.publicClient.getBlockNumber(),
      connection.publicClient.getChainId(),
    ]),
    timeoutMs,
    'previewFees',
  );
  return {
    core: preview.core.toString(),
    fx: preview.fx.toString(),
    esg: preview.esg.toString(),
    license: preview.license.toString(),
    total: preview.total.toString(),
    net: preview.net.toString(),
    router,
    chainId,
    blockNumber: blockNumber.toString(),
  };
}

export function feesAgree(offChain: FeeAmounts, onChain: FeeAmounts): boolean {
  return AMOUNT_KEYS.every((key) => offChain[key] === onChain[key]);
}

const ROUTER_NOT_DEPLOYED = 'The settlement router is not deployed on this rail (set CONTRACT_ROUTER with RPC_URL, or run the embedded chain).';
const RPC_UNREACHABLE = 'The rail did not answer previewFees in time; the on-chain fees are unknown.';
const NOTE_MATCH = 'The router computes the same fees to the base unit: settlement may proceed.';
const NOTE_MISMATCH = 'The router computes different fees: do not settle against this quote; the router parameters differ from the published fee schedule.';
const NOTE_UNVERIFIED = 'The fees could not be checked on chain; feesMatch is null, not false. Retry before settling.';

export interface FeeVerificationContext {
  /** The rail the router is read from; undefined: no chain at all. */
  chain: RailChain | undefined;
  /** Longest wait for the chain's answer. */
  timeoutMs: number;
  parameters: FeeParameters;
  now: Date;
}

/** The off-chain fees of these terms against the settlement router's previewFees (decision 0009). */
export async function verifyFeesOnChain(terms: QuoteTerms, context: FeeVerificationContext): Promise<FeeVerification> {
  const offChain = offChainAmounts(computeFees(terms, context.parameters));
  const base = { schema: FEE_VERIFICATION_SCHEMA, timestamp: context.now.toISOString(), offChain };
  const unverified = (onChainError: string): FeeVerification => ({ ...base, onChain: null, onChainError, feesMatch: null, note: NOTE_UNVERIFIED });
  if (!context.chain) return unverified(ROUTER_NOT_DEPLOYED);
  let onChain: Awaited<ReturnType<typeof readOnChainFees>>;
  try {
    onChain = await readOnChainFees(context.chain, terms, context.timeoutMs);
  } catch {
    return unverified(RPC_UNREACHABLE);
  }
  if (onChain === 'not-deployed') return unverified(ROUTER_NOT_DEPLOYED);
  const feesMatch = feesAgree(offChain, onChain);
  return { ...base, onChain, onChainError: null, feesMatch, note: feesMatch ? NOTE_MATCH : NOTE_MISMATCH };
}
