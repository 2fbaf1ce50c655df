import { parseUnits } from 'viem';
import type { RailChain } from '../../platform/chain/index.js';
import { withTimeout } from '../../platform/timeout.js';
import { settlementRouterAbi } from '../../contracts/artifacts/SettlementRouter.js';
import type { FeeBreakdown, QuoteTerms } from './domain/index.js';

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
