import { getAddress, parseUnits, type Address } from 'viem';
import type { EmbeddedChain } from '../platform/chain/embedded-chain.js';
import type { FeeParameters } from '../subgraphs/fees/domain/index.js';
import { railUSDAbi, railUSDBytecode } from './artifacts/RailUSD.js';
import { settlementRouterAbi, settlementRouterBytecode } from './artifacts/SettlementRouter.js';

export const RAIL_TOKEN_NAME = 'Settlement Rail USD';
export const RAIL_TOKEN_VERSION = '1';
export const TOKEN_DECIMALS = 6;
/** What each development account is given at deployment: 1,000,000 rUSD. */
export const DEVELOPMENT_BALANCE = parseUnits('1000000', TOKEN_DECIMALS);

export interface RailContracts {
  token: Address;
  router: Address;
  feeRecipient: Address;
}

/** The router's fee parameters from the off-chain model's own parameters (one source for both). */
export function routerFeeArguments(parameters: FeeParameters) {
  return [
    BigInt(parameters.coreBps),
    BigInt(parameters.fxBps),
    BigInt(parameters.licenseBps),
    parameters.volumeTiers.map((tier) => ({
      minMonthlyVolume: parseUnits(String(tier.minMonthlyVolumeUsd), TOKEN_DECIMALS),
      coreDiscountPct: BigInt(tier.coreDiscountPct),
    })),
  ] as const;
}

async function deploy(chain: EmbeddedChain, request: Parameters<ReturnType<EmbeddedChain['walletFor']>['deployContract']>[0]): Promise<Address> {
  const hash = await chain.walletFor(chain.accounts[0]!).deployContract(request);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('deployment produced no contract address');
  return getAddress(receipt.contractAddress);
}

/**
 * Deploys the token and the router on the embedded chain, sets the router's fee parameters and
 * funds every development account. Account 0 owns both contracts; the last account receives fees.
 */
export async function deployRailContracts(chain: EmbeddedChain, parameters: FeeParameters): Promise<RailContracts> {
  const owner = chain.accounts[0]!;
  const feeRecipient = chain.accounts[chain.accounts.length - 1]!.address;
  const wallet = chain.walletFor(owner);
  const token = await deploy(chain, { abi: railUSDAbi, bytecode: railUSDBytecode, args: [RAIL_TOKEN_NAME, RAIL_TOKEN_VERSION, owner.address], account: owner, chain: wallet.chain });
  const router = await deploy(chain, { abi: settlementRouterAbi, bytecode: settlementRouterBytecode, args: [owner.address, feeRecipient], account: owner, chain: wallet.chain });
  // One after another: the owner's nonces must follow each other.
  const settings = await wallet.writeContract({ address: router, abi: settlementRouterAbi, functionName: 'setFeeParameters', args: routerFeeArguments(parameters), account: owner, chain: wallet.chain });
  await chain.publicClient.waitForTransactionReceipt({ hash: settings });
  for (const account of chain.accounts) {
    const hash = await wallet.writeContract({ address: token, abi: railUSDAbi, functionName: 'mint', args: [account.address, DEVELOPMENT_BALANCE], account: owner, chain: wallet.chain });
    await chain.publicClient.waitForTransactionReceipt({ hash });
  }
  return { token, router, feeRecipient };
}

/** The embedded rail as the platform uses it: the contracts, and x402 payments made to the fee recipient, settled by account 0. */
export async function deployEmbeddedRail(chain: EmbeddedChain, parameters: FeeParameters) {
  const contracts = await deployRailContracts(chain, parameters);
  return {
    token: contracts.token,
    router: contracts.router,
    payment: {
      token: contracts.token,
      payTo: contracts.feeRecipient,
      tokenDomain: { name: RAIL_TOKEN_NAME, version: RAIL_TOKEN_VERSION },
      settler: chain.walletFor(chain.accounts[0]!),
    },
  };
}
