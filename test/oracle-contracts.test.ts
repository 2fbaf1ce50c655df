import { type Abi, type ContractFunctionArgs, type ContractFunctionName, type Hash, type HDAccount, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basketPegAbi } from '../contracts/artifacts/BasketPeg.js';
import { feeRedistributionAbi } from '../contracts/artifacts/FeeRedistribution.js';
import { railEsgOracleAbi } from '../contracts/artifacts/RailEsgOracle.js';
import { railUSDAbi } from '../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../contracts/artifacts/SettlementRouter.js';
import { stabilityPIDAbi } from '../contracts/artifacts/StabilityPID.js';
import { deployRailContracts, type RailContracts, stabilityPidArguments } from '../contracts/deploy.js';
import { type EmbeddedChain, startEmbeddedChain } from '../platform/chain/embedded-chain.js';
import { contractParameters } from '../subgraphs/fees/index.js';

// The contracts of decision 0057 on the embedded chain, through viem as the router is tested:
// who may write, what is written is read back, and the events say it.

let chain: EmbeddedChain;
let contracts: RailContracts;
let owner: HDAccount;
let stranger: HDAccount;

beforeAll(async () => {
  chain = await startEmbeddedChain();
  contracts = await deployRailContracts(chain, contractParameters);
  owner = chain.accounts[0]!;
  stranger = chain.accounts[5]!;
}, 30_000);
afterAll(async () => {
  await chain?.close();
});

/** Sends a call from `account` and answers its receipt's logs; a refused call rejects with the contract's error. */
async function write<const abi extends Abi, functionName extends ContractFunctionName<abi, 'nonpayable'>>(
  account: HDAccount,
  call: { address: `0x${string}`; abi: abi; functionName: functionName; args: ContractFunctionArgs<abi, 'nonpayable', functionName> },
) {
  const wallet = chain.walletFor(account);
  // viem's generics do not follow an ABI through a generic function (as in platform/chain/send-queue.ts).
  const hash: Hash = await wallet.writeContract({ ...(call as unknown as Parameters<typeof wallet.writeContract>[0]), account, chain: wallet.chain });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt.logs;
}

describe('RailEsgOracle', () => {
  const publish = (account: HDAccount, runId: bigint, scores: readonly [number, number, number, number], asOf = '2024') =>
    write(account, { address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'publishScores', args: [runId, asOf, ...scores] });

  it('takes scores from the oracle account only; anyone reads them back, with their run id and as-of; ScoresPublished says so', async () => {
    expect(await chain.publicClient.readContract({ address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'oracle' })).toBe(owner.address);
    await expect(chain.publicClient.readContract({ address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'latest' })).rejects.toThrow(/NoScores/);
    await expect(publish(stranger, 1_000n, [1, 2, 3, 2])).rejects.toThrow(/NotOracle/);

    // 61.2, 70.5, 66.9, average 66.2 points in millionths.
    const logs = await publish(owner, 1_800_000_000n, [61_200_000, 70_500_000, 66_900_000, 66_200_000]);
    const [event] = parseEventLogs({ abi: railEsgOracleAbi, eventName: 'ScoresPublished', logs });
    expect(event!.args).toEqual({ runId: 1_800_000_000n, environmental: 61_200_000, social: 70_500_000, governance: 66_900_000, average: 66_200_000, asOf: '2024' });
    const latest = await chain.publicClient.readContract({ address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'latest', account: stranger });
    expect(latest).toMatchObject({ runId: 1_800_000_000n, environmental: 61_200_000, social: 70_500_000, governance: 66_900_000, average: 66_200_000, asOf: '2024' });
    expect(latest.publishedAt).toBeGreaterThan(0n);
    expect(await chain.publicClient.readContract({ address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'scoresOf', args: [1_800_000_000n] })).toEqual(latest);
  });

  it('refuses a run not newer than the latest (a late transaction never replaces newer scores) and a score above 100', async () => {
    await publish(owner, 1_800_000_300n, [60_000_000, 70_000_000, 80_000_000, 70_000_000]);
    await expect(publish(owner, 1_800_000_300n, [1, 1, 1, 1])).rejects.toThrow(/StaleRun/);
    await expect(publish(owner, 1_800_000_000n, [1, 1, 1, 1])).rejects.toThrow(/StaleRun/);
    await expect(publish(owner, 1_800_000_600n, [100_000_001, 1, 1, 1])).rejects.toThrow(/ScoreOutOfRange/);
    expect(await chain.publicClient.readContract({ address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'latest' })).toMatchObject({ runId: 1_800_000_300n, average: 70_000_000 });
  });

  it('only the owner names the oracle account; the account named writes, the former one no longer', async () => {
    await expect(write(stranger, { address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'setOracle', args: [stranger.address] })).rejects.toThrow(/OwnableUnauthorizedAccount/);
    const successor = chain.accounts[6]!;
    await write(owner, { address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'setOracle', args: [successor.address] });
    await expect(publish(owner, 1_800_000_900n, [1, 1, 1, 1])).rejects.toThrow(/NotOracle/);
    await publish(successor, 1_800_000_900n, [50_000_000, 50_000_000, 50_000_000, 50_000_000]);
    await write(owner, { address: contracts.esgOracle, abi: railEsgOracleAbi, functionName: 'setOracle', args: [owner.address] });
  });
});

describe('StabilityPID', () => {
  const update = (account: HDAccount, runId: bigint, score: bigint) => write(account, { address: contracts.stabilityPID, abi: stabilityPIDAbi, functionName: 'update', args: [runId, score] });
  const state = () => chain.publicClient.readContract({ address: contracts.stabilityPID, abi: stabilityPIDAbi, functionName: 'state' });

  it('is deployed with the parameters of stability-pid-parameters.json and the stable band (90) as setpoint', async () => {
    const parameters = await chain.publicClient.readContract({ address: contracts.stabilityPID, abi: stabilityPIDAbi, functionName: 'parameters' });
    expect(parameters).toEqual(stabilityPidArguments(contractParameters.stability));
    // kp 1.0; ki 1 point per point-day = 1e18 / 86,400 = 11,574,074,074,074 (truncated); setpoint 90 points.
    expect(parameters).toMatchObject({ kp: 10n ** 18n, ki: 11_574_074_074_074n, kd: 0n, setpoint: 90_000_000n, outputMin: 0n, outputMax: 100_000_000n });
  });

  it('updates its state from the oracle account only, computing P, I and D as documented; the owner alone sets its parameters', async () => {
    await expect(update(stranger, 1n, 50_000_000n)).rejects.toThrow(/NotOracle/);
    await expect(
      write(stranger, { address: contracts.stabilityPID, abi: stabilityPIDAbi, functionName: 'setParameters', args: [{ ...stabilityPidArguments(contractParameters.stability), kp: 0n }] }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/);

    // 1. First run, score 72.4: error 90 - 72.4 = 17.6 points; no interval before it, so no I or D: output = 1.0 x 17.6.
    const first = await update(owner, 1_800_000_000n, 72_400_000n);
    expect(parseEventLogs({ abi: stabilityPIDAbi, eventName: 'Updated', logs: first })[0]!.args).toEqual({
      runId: 1_800_000_000n,
      measurement: 72_400_000n,
      error: 17_600_000n,
      integral: 0n,
      output: 17_600_000n,
    });

    // 2. 300 s later, score 80: error 10 points; integral 10,000,000 x 300 = 3,000,000,000;
    //    output = (1e18 x 10,000,000 + 11,574,074,074,074 x 3,000,000,000) / 1e18 = 10,000,000 + 34,722.2 -> 10,034,722;
    //    derivative (10,000,000 - 17,600,000) / 300 = -25,333.3 -> -25,333 (kd is 0, so it moves nothing).
    await update(owner, 1_800_000_300n, 80_000_000n);
    expect(await state()).toEqual({ runId: 1_800_000_300n, measurement: 80_000_000n, error: 10_000_000n, integral: 3_000_000_000n, derivative: -25_333n, output: 10_034_722n });

    // 3. 300 s later, score 95, above the setpoint: error -5 points; integral 3e9 - 5,000,000 x 300 = 1.5e9;
    //    raw = -5,000,000 + 17,361.1 = -4,982,638 (truncated toward 0), clamped to outputMin 0.
    await update(owner, 1_800_000_600n, 95_000_000n);
    expect(await state()).toMatchObject({ error: -5_000_000n, integral: 1_500_000_000n, output: 0n });

    await expect(update(owner, 1_800_000_600n, 95_000_000n)).rejects.toThrow(/StaleRun/);
    await expect(update(owner, 1_800_000_900n, 100_000_001n)).rejects.toThrow(/ScoreOutOfRange/);
  });
});

describe('BasketPeg', () => {
  const publish = (account: HDAccount, runId: bigint, weights: readonly number[], measured: boolean, deviationCentiBps: number, assets = ['DAI', 'USDC', 'USDT']) =>
    write(account, { address: contracts.basketPeg, abi: basketPegAbi, functionName: 'publishBasket', args: [runId, assets, weights, measured, deviationCentiBps] });
  const pegAlert = () => chain.publicClient.readContract({ address: contracts.basketPeg, abi: basketPegAbi, functionName: 'pegAlert' });

  it('holds the reference value (1 USD), the 50 bps threshold and the 60 s cycle; the owner alone changes them', async () => {
    const values = await Promise.all(
      (['referenceValue', 'deviationThresholdBps', 'verificationCycleSeconds'] as const).map((functionName) =>
        chain.publicClient.readContract({ address: contracts.basketPeg, abi: basketPegAbi, functionName }),
      ),
    );
    expect(values).toEqual([1_000_000n, 50n, 60n]);
    await expect(write(stranger, { address: contracts.basketPeg, abi: basketPegAbi, functionName: 'setPegParameters', args: [2_000_000n, 1n, 1n] })).rejects.toThrow(/OwnableUnauthorizedAccount/);
  });

  it('takes the basket from the oracle account only, weights summing to one; pegAlert at 50 bps or more, never when unmeasured', async () => {
    await expect(publish(stranger, 1n, [50_000, 600_000, 350_000], true, 0)).rejects.toThrow(/NotOracle/);
    await expect(publish(owner, 1_800_000_000n, [50_000, 600_000, 349_999], true, 0)).rejects.toThrow(/WeightsNotWhole/);
    await expect(publish(owner, 1_800_000_000n, [500_000, 500_000], true, 0)).rejects.toThrow(/WeightsMismatch/);

    // 12.34 bps: below the threshold.
    const logs = await publish(owner, 1_800_000_000n, [50_000, 600_000, 350_000], true, 1_234);
    expect(parseEventLogs({ abi: basketPegAbi, eventName: 'BasketPublished', logs })[0]!.args).toEqual({
      runId: 1_800_000_000n,
      measured: true,
      deviationCentiBps: 1_234,
      assets: ['DAI', 'USDC', 'USDT'],
      weights: [50_000, 600_000, 350_000],
    });
    expect(await chain.publicClient.readContract({ address: contracts.basketPeg, abi: basketPegAbi, functionName: 'basket' })).toMatchObject({
      runId: 1_800_000_000n,
      measured: true,
      deviationCentiBps: 1_234,
      assets: ['DAI', 'USDC', 'USDT'],
      weights: [50_000, 600_000, 350_000],
    });
    expect(await pegAlert()).toBe(false);
    // 50.00 bps: at the threshold, the alert is on (settlement held).
    await publish(owner, 1_800_000_300n, [50_000, 600_000, 350_000], true, 5_000);
    expect(await pegAlert()).toBe(true);
    // Not measured (no live prices): the deviation is unknown, kept as 0, and raises no alert.
    await publish(owner, 1_800_000_600n, [50_000, 600_000, 350_000], false, 9_999);
    expect(await chain.publicClient.readContract({ address: contracts.basketPeg, abi: basketPegAbi, functionName: 'basket' })).toMatchObject({ measured: false, deviationCentiBps: 0 });
    expect(await pegAlert()).toBe(false);
  });
});

describe('FeeRedistribution', () => {
  const balanceOf = (address: `0x${string}`) => chain.publicClient.readContract({ address: contracts.token, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
  const distribute = (account: HDAccount) => write(account, { address: contracts.redistribution, abi: feeRedistributionAbi, functionName: 'distribute', args: [contracts.token] });

  it("receives the router's fees and pays them all to the operator, its one recipient at deployment; anyone may distribute", async () => {
    expect(await chain.publicClient.readContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'feeRecipient' })).toBe(contracts.redistribution);
    expect(await chain.publicClient.readContract({ address: contracts.redistribution, abi: feeRedistributionAbi, functionName: 'recipients' })).toEqual([
      { account: contracts.operator, shareBps: 10_000n },
    ]);
    const payer = chain.accounts[1]!;
    const amount = 10_000_000_000n;
    await write(payer, { address: contracts.token, abi: railUSDAbi, functionName: 'approve', args: [contracts.router, amount] });
    await write(payer, {
      address: contracts.router,
      abi: settlementRouterAbi,
      functionName: 'settle',
      args: [contracts.token, chain.accounts[2]!.address, amount, true, 75_000_000n, 0n, `srq-redistribution-${Date.now()}`],
    });
    // 138.5 bps of 10,000 USD = 138.5 USD, held by the redistribution contract.
    expect(await balanceOf(contracts.redistribution)).toBe(138_500_000n);
    const before = await balanceOf(contracts.operator);
    const logs = await distribute(stranger);
    expect(parseEventLogs({ abi: feeRedistributionAbi, eventName: 'Distributed', logs })[0]!.args).toEqual({ token: contracts.token, amount: 138_500_000n });
    expect((await balanceOf(contracts.operator)) - before).toBe(138_500_000n);
    expect(await balanceOf(contracts.redistribution)).toBe(0n);
    await expect(distribute(stranger)).rejects.toThrow(/NothingToDistribute/);
  });

  it('splits by share, rounding down, the last recipient taking the remainder; the owner alone sets whole shares', async () => {
    const [a, b, c] = [chain.accounts[2]!.address, chain.accounts[3]!.address, chain.accounts[4]!.address];
    const split = [
      { account: a, shareBps: 5_000n },
      { account: b, shareBps: 3_000n },
      { account: c, shareBps: 2_000n },
    ] as const;
    await expect(write(stranger, { address: contracts.redistribution, abi: feeRedistributionAbi, functionName: 'setRecipients', args: [split] })).rejects.toThrow(/OwnableUnauthorizedAccount/);
    await expect(write(owner, { address: contracts.redistribution, abi: feeRedistributionAbi, functionName: 'setRecipients', args: [[{ account: a, shareBps: 9_999n }]] })).rejects.toThrow(
      /SharesNotWhole/,
    );
    await write(owner, { address: contracts.redistribution, abi: feeRedistributionAbi, functionName: 'setRecipients', args: [split] });
    await write(chain.accounts[1]!, { address: contracts.token, abi: railUSDAbi, functionName: 'transfer', args: [contracts.redistribution, 1_000_001n] });
    const before = await Promise.all([a, b, c].map(balanceOf));
    const logs = await distribute(stranger);
    // 1,000,001 x 50 % = 500,000 (500,000.5 rounded down); x 30 % = 300,000; the last: 1,000,001 - 800,000 = 200,001.
    const paid = parseEventLogs({ abi: feeRedistributionAbi, eventName: 'Paid', logs }).map((event) => [event.args.recipient, event.args.amount]);
    expect(paid).toEqual([
      [a, 500_000n],
      [b, 300_000n],
      [c, 200_001n],
    ]);
    const after = await Promise.all([a, b, c].map(balanceOf));
    expect(after.map((balance, index) => balance - before[index]!)).toEqual([500_000n, 300_000n, 200_001n]);
    await write(owner, { address: contracts.redistribution, abi: feeRedistributionAbi, functionName: 'setRecipients', args: [[{ account: contracts.operator, shareBps: 10_000n }]] });
  });
});
