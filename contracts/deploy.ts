import { type Address, getAddress, parseUnits } from 'viem';
import type { EmbeddedChain } from '../platform/chain/embedded-chain.js';
import { TOKEN_DECIMALS } from '../platform/chain/token.js';
import { basketPegAbi, basketPegBytecode } from './artifacts/BasketPeg.js';
import { feeRedistributionAbi, feeRedistributionBytecode } from './artifacts/FeeRedistribution.js';
import { railEsgOracleAbi, railEsgOracleBytecode } from './artifacts/RailEsgOracle.js';
import { railUSDAbi, railUSDBytecode } from './artifacts/RailUSD.js';
import { settlementRouterAbi, settlementRouterBytecode } from './artifacts/SettlementRouter.js';
import { stabilityPIDAbi, stabilityPIDBytecode } from './artifacts/StabilityPID.js';
import type { ContractParameters, OracleContractParameters, RouterFeeParameters } from './parameters.js';
import pidParameters from './stability-pid-parameters.json' with { type: 'json' };

export const RAIL_TOKEN_NAME = 'Settlement Rail USD';
export const RAIL_TOKEN_VERSION = '1';
/** What each development account is given at deployment: 1,000,000 rUSD. */
export const DEVELOPMENT_BALANCE = parseUnits('1000000', TOKEN_DECIMALS);

export interface RailContracts {
  token: Address;
  router: Address;
  /** The router's fee recipient: the FeeRedistribution contract, which splits the fees it holds. */
  feeRecipient: Address;
  /** The operator's account: FeeRedistribution's one recipient at deployment, and the payee of x402 payments. */
  operator: Address;
  esgOracle: Address;
  redistribution: Address;
  stabilityPID: Address;
  basketPeg: Address;
  /** The account allowed to write the oracle-fed contracts (the oracle runs publish from it). */
  oracle: Address;
}

/** Oracle scores and weights on chain are in millionths (of a point, of the basket). */
export const ORACLE_VALUE_SCALE = 1_000_000;
const WAD = 10n ** 18n;
const SECONDS_PER_DAY = 86_400n;
const millionths = (value: number) => BigInt(Math.round(value * ORACLE_VALUE_SCALE));

/** StabilityPID's parameters (its units) from stability-pid-parameters.json and the stable band. */
export function stabilityPidArguments(stability: OracleContractParameters) {
  return {
    kp: BigInt(pidParameters.kp) * WAD,
    ki: (BigInt(pidParameters.kiPerPointDay) * WAD) / SECONDS_PER_DAY,
    kd: BigInt(pidParameters.kd) * WAD,
    setpoint: millionths(stability.bands.stable),
    outputMin: millionths(pidParameters.outputMinPoints),
    outputMax: millionths(pidParameters.outputMaxPoints),
    integralLimit: millionths(pidParameters.integralLimitPointDays) * SECONDS_PER_DAY,
  } as const;
}

/** BasketPeg's constructor arguments after the owner and oracle: the basket is pegged to 1 USD; threshold and cycle from the stability parameters. */
function basketPegArguments(stability: OracleContractParameters) {
  return [millionths(1), BigInt(stability.peg.deviationThresholdBps), BigInt(stability.peg.verificationCycleSeconds)] as const;
}

/** The router's fee parameters from the off-chain model's own parameters (one source for both). */
export function routerFeeArguments(parameters: RouterFeeParameters) {
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
 * Deploys the rail's contracts on the embedded chain (decisions 0008, 0057): the token and the
 * router with its fee parameters, every development account funded; the fee redistribution
 * (the router's fee recipient, splitting to the operator, the last account); the ESG oracle, the
 * stability PID controller and the basket peg reference, written by the oracle account. Account 0
 * owns every contract and is the oracle account.
 */
export async function deployRailContracts(chain: EmbeddedChain, parameters: ContractParameters): Promise<RailContracts> {
  const { fees, stability } = parameters;
  const owner = chain.accounts[0]!;
  const oracle = owner.address;
  const operator = chain.accounts[chain.accounts.length - 1]!.address;
  const wallet = chain.walletFor(owner);
  const common = { account: owner, chain: wallet.chain } as const;
  // One after another: the owner's nonces must follow each other.
  const send = async (hash: Promise<`0x${string}`>) => {
    await chain.publicClient.waitForTransactionReceipt({ hash: await hash });
  };
  const token = await deploy(chain, { abi: railUSDAbi, bytecode: railUSDBytecode, args: [RAIL_TOKEN_NAME, RAIL_TOKEN_VERSION, owner.address], ...common });
  const redistribution = await deploy(chain, { abi: feeRedistributionAbi, bytecode: feeRedistributionBytecode, args: [owner.address, [{ account: operator, shareBps: 10_000n }]], ...common });
  const router = await deploy(chain, { abi: settlementRouterAbi, bytecode: settlementRouterBytecode, args: [owner.address, redistribution], ...common });
  await send(wallet.writeContract({ address: router, abi: settlementRouterAbi, functionName: 'setFeeParameters', args: routerFeeArguments(fees), ...common }));
  for (const account of chain.accounts) {
    await send(wallet.writeContract({ address: token, abi: railUSDAbi, functionName: 'mint', args: [account.address, DEVELOPMENT_BALANCE], ...common }));
  }
  const esgOracle = await deploy(chain, { abi: railEsgOracleAbi, bytecode: railEsgOracleBytecode, args: [owner.address, oracle], ...common });
  const stabilityPID = await deploy(chain, { abi: stabilityPIDAbi, bytecode: stabilityPIDBytecode, args: [owner.address, oracle, stabilityPidArguments(stability)], ...common });
  const basketPeg = await deploy(chain, { abi: basketPegAbi, bytecode: basketPegBytecode, args: [owner.address, oracle, ...basketPegArguments(stability)], ...common });
  return { token, router, feeRecipient: redistribution, operator, esgOracle, redistribution, stabilityPID, basketPeg, oracle };
}

/** The embedded rail as the platform uses it: the contracts, and x402 payments made to the operator, settled by account 0. */
export async function deployEmbeddedRail(chain: EmbeddedChain, parameters: ContractParameters) {
  const contracts = await deployRailContracts(chain, parameters);
  return {
    token: contracts.token,
    router: contracts.router,
    esgOracle: contracts.esgOracle,
    redistribution: contracts.redistribution,
    stabilityPID: contracts.stabilityPID,
    basketPeg: contracts.basketPeg,
    payment: {
      token: contracts.token,
      payTo: contracts.operator,
      tokenDomain: { name: RAIL_TOKEN_NAME, version: RAIL_TOKEN_VERSION },
      settler: chain.walletFor(chain.accounts[0]!),
    },
  };
}
