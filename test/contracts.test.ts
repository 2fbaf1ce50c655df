import { Big } from 'big.js';
import fc from 'fast-check';
import { type Address, getAddress, keccak256, parseEventLogs, parseUnits, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../contracts/artifacts/SettlementRouter.js';
import { deployRailContracts, DEVELOPMENT_BALANCE, RAIL_TOKEN_NAME, RAIL_TOKEN_VERSION, type RailContracts, routerFeeArguments } from '../contracts/deploy.js';
import { type EmbeddedChain, startEmbeddedChain } from '../platform/chain/embedded-chain.js';
import { feeParameters } from '../subgraphs/fees/data/index.js';
import { computeFees } from '../subgraphs/fees/domain/index.js';
import { contractParameters } from '../subgraphs/fees/index.js';

const baseUnits = (usd: number) => parseUnits(new Big(usd).toFixed(6), 6);

let chain: EmbeddedChain;
let contracts: RailContracts;

beforeAll(async () => {
  chain = await startEmbeddedChain();
  contracts = await deployRailContracts(chain, contractParameters);
}, 30_000);
afterAll(async () => {
  await chain?.close();
});

const balanceOf = (address: Address) => chain.publicClient.readContract({ address: contracts.token, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });

describe('the embedded rail', () => {
  it('answers as Base (chainId 8453) with every development account funded in a 6-decimal token', async () => {
    expect(await chain.publicClient.getChainId()).toBe(8453);
    expect(await chain.publicClient.readContract({ address: contracts.token, abi: railUSDAbi, functionName: 'decimals' })).toBe(6);
    for (const account of chain.accounts) expect(await balanceOf(account.address)).toBe(DEVELOPMENT_BALANCE);
  });
});

describe('SettlementRouter.previewFees', () => {
  it('agrees with the off-chain fee model to the base unit, component by component, for any terms', async () => {
    const terms = fc.record({
      amountMicros: fc.bigInt({ min: 1n, max: 10_000_000_000_000n }),
      hasFx: fc.boolean(),
      esgMicros: fc.integer({ min: 0, max: 100_000_000 }),
      monthlyVolumeUsd: fc.oneof(fc.constantFrom(0, 999_999.999999, 1_000_000, 10_000_000, 100_000_000), fc.integer({ min: 0, max: 200_000_000 })),
    });
    await fc.assert(
      fc.asyncProperty(terms, async ({ amountMicros, hasFx, esgMicros, monthlyVolumeUsd }) => {
        const amountUsd = Number(new Big(amountMicros.toString()).div(1_000_000).toFixed(6));
        const esgScore = esgMicros / 1_000_000;
        const offChain = computeFees({ amountUsd, hasFx, esgScore, monthlyVolumeUsd }, feeParameters);
        const onChain = await chain.publicClient.readContract({
          address: contracts.router,
          abi: settlementRouterAbi,
          functionName: 'previewFees',
          args: [amountMicros, hasFx, BigInt(esgMicros), baseUnits(monthlyVolumeUsd)],
        });
        expect({ core: onChain.core, fx: onChain.fx, esg: onChain.esg, license: onChain.license, total: onChain.total, net: onChain.net }).toEqual({
          core: baseUnits(offChain.core.usd),
          fx: baseUnits(offChain.fx.usd),
          esg: baseUnits(offChain.esg.usd),
          license: baseUnits(offChain.license.usd),
          total: baseUnits(offChain.total.usd),
          net: baseUnits(offChain.settlement.netUsd),
        });
      }),
      { numRuns: 150 },
    );
  });

  it('takes its parameters from the owner only', async () => {
    const stranger = chain.walletFor(chain.accounts[3]!);
    await expect(
      stranger.writeContract({
        address: contracts.router,
        abi: settlementRouterAbi,
        functionName: 'setFeeParameters',
        args: routerFeeArguments(feeParameters),
        account: chain.accounts[3]!,
        chain: stranger.chain,
      }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/);
  });
});

describe('SettlementRouter.settle', () => {
  it('pays the net to the payee and the fee to the fee recipient, and settles a quoteId once', async () => {
    const payer = chain.accounts[1]!;
    const payee = chain.accounts[2]!.address;
    const wallet = chain.walletFor(payer);
    const amount = parseUnits('10000', 6);
    const quoteId = 'srq-1795374819595-64a21142e6cbb7520da049ec7c0123456789abcd';
    const approve = await wallet.writeContract({ address: contracts.token, abi: railUSDAbi, functionName: 'approve', args: [contracts.router, amount * 2n], account: payer, chain: wallet.chain });
    await chain.publicClient.waitForTransactionReceipt({ hash: approve });
    const [payeeBefore, feesBefore] = [await balanceOf(payee), await balanceOf(contracts.feeRecipient)];
    const args = [contracts.token, payee, amount, true, 75_000_000n, 0n, quoteId] as const;
    const hash = await wallet.writeContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'settle', args, account: payer, chain: wallet.chain });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    // 85 + 40 + 12.5 + 1 = 138.5 bps of 10,000 = 138.5 USD.
    expect((await balanceOf(payee)) - payeeBefore).toBe(parseUnits('9861.5', 6));
    expect((await balanceOf(contracts.feeRecipient)) - feesBefore).toBe(parseUnits('138.5', 6));
    expect(await chain.publicClient.readContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'settledQuotes', args: [keccak256(toHex(quoteId))] })).toBe(true);
    await expect(wallet.writeContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'settle', args, account: payer, chain: wallet.chain })).rejects.toThrow(
      /QuoteAlreadySettled/,
    );
  });
});

describe('SettlementRouter.settleBatch', () => {
  it('settles every order as settle() would, each with its own Settled fee, the fees in one transfer; one refused order refuses the whole batch', async () => {
    const payer = chain.accounts[3]!;
    const wallet = chain.walletFor(payer);
    const approve = await wallet.writeContract({
      address: contracts.token,
      abi: railUSDAbi,
      functionName: 'approve',
      args: [contracts.router, parseUnits('1000000', 6)],
      account: payer,
      chain: wallet.chain,
    });
    await chain.publicClient.waitForTransactionReceipt({ hash: approve });
    const quoteId = (label: string) => `srq-batch-${label}-${Date.now()}`;
    // Two orders of the settle() test's terms and one without FX at another score and volume tier.
    const orders = [
      { payee: '0x00000000000000000000000000000000000b0001', amount: parseUnits('10000', 6), hasFx: true, esgScore: 75_000_000n, monthlyVolume: 0n, quoteId: quoteId('a') },
      { payee: '0x00000000000000000000000000000000000b0002', amount: parseUnits('10000', 6), hasFx: true, esgScore: 75_000_000n, monthlyVolume: 0n, quoteId: quoteId('b') },
      { payee: '0x00000000000000000000000000000000000b0003', amount: parseUnits('250.5', 6), hasFx: false, esgScore: 12_345_678n, monthlyVolume: parseUnits('2000000', 6), quoteId: quoteId('c') },
    ] as const;
    const previews = await Promise.all(
      orders.map((order) =>
        chain.publicClient.readContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'previewFees', args: [order.amount, order.hasFx, order.esgScore, order.monthlyVolume] }),
      ),
    );
    const before = await Promise.all([...orders.map((order) => balanceOf(order.payee)), balanceOf(contracts.feeRecipient)]);
    const hash = await wallet.writeContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'settleBatch', args: [contracts.token, orders], account: payer, chain: wallet.chain });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const settled = parseEventLogs({ abi: settlementRouterAbi, eventName: 'Settled', logs: receipt.logs });
    expect(settled.map((event) => ({ quoteId: event.args.quoteId, payee: event.args.payee, amount: event.args.amount, fee: event.args.fee }))).toEqual(
      orders.map((order, index) => ({ quoteId: order.quoteId, payee: getAddress(order.payee), amount: order.amount, fee: previews[index]!.total })),
    );
    // 138.5 bps of 10,000 USD each, as settle() charges them (its test above).
    expect(previews[0]!.total).toBe(parseUnits('138.5', 6));
    const after = await Promise.all([...orders.map((order) => balanceOf(order.payee)), balanceOf(contracts.feeRecipient)]);
    expect(after.map((balance, index) => balance - before[index]!)).toEqual([...previews.map((preview) => preview.net), previews.reduce((sum, preview) => sum + preview.total, 0n)]);
    const feeTransfers = parseEventLogs({ abi: railUSDAbi, eventName: 'Transfer', logs: receipt.logs }).filter((event) => event.args.to === contracts.feeRecipient);
    expect(feeTransfers).toHaveLength(1);
    // A batch holding an order already settled is refused whole: nothing of it moves.
    const again = [{ ...orders[2], quoteId: quoteId('d') }, orders[0]] as const;
    await expect(
      wallet.writeContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'settleBatch', args: [contracts.token, again], account: payer, chain: wallet.chain }),
    ).rejects.toThrow(/QuoteAlreadySettled/);
    expect(await chain.publicClient.readContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'settledQuotes', args: [keccak256(toHex(again[0].quoteId))] })).toBe(false);
    await expect(
      wallet.writeContract({ address: contracts.router, abi: settlementRouterAbi, functionName: 'settleBatch', args: [contracts.token, []], account: payer, chain: wallet.chain }),
    ).rejects.toThrow(/EmptyBatch/);
  });
});

describe('RailUSD.transferWithAuthorization (EIP-3009)', () => {
  const payer = () => chain.accounts[4]!;
  const payee = () => chain.accounts[5]!.address;
  const submitter = () => chain.walletFor(chain.accounts[6]!);
  let nonces = 0;

  async function authorization(overrides: { value?: bigint; validBefore?: bigint; nonce?: `0x${string}` } = {}) {
    const now = BigInt((await chain.publicClient.getBlock()).timestamp);
    const message = {
      from: payer().address,
      to: payee(),
      value: overrides.value ?? parseUnits('2', 6),
      validAfter: 0n,
      validBefore: overrides.validBefore ?? now + 600n,
      nonce: overrides.nonce ?? keccak256(toHex(`authorization-${(nonces += 1)}`)),
    };
    const signature = await payer().signTypedData({
      domain: { name: RAIL_TOKEN_NAME, version: RAIL_TOKEN_VERSION, chainId: 8453, verifyingContract: contracts.token },
      types: {
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'TransferWithAuthorization',
      message,
    });
    return { message, signature };
  }

  const submit = (message: Awaited<ReturnType<typeof authorization>>['message'], signature: `0x${string}`) => {
    const wallet = submitter();
    return wallet.writeContract({
      address: contracts.token,
      abi: railUSDAbi,
      functionName: 'transferWithAuthorization',
      args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature],
      account: chain.accounts[6]!,
      chain: wallet.chain,
    });
  };

  it('moves the signed amount once; a replay, a changed amount and an expired authorization are refused', async () => {
    const before = await balanceOf(payee());
    const { message, signature } = await authorization();
    await chain.publicClient.waitForTransactionReceipt({ hash: await submit(message, signature) });
    expect((await balanceOf(payee())) - before).toBe(parseUnits('2', 6));
    expect(await chain.publicClient.readContract({ address: contracts.token, abi: railUSDAbi, functionName: 'authorizationState', args: [message.from, message.nonce] })).toBe(true);

    await expect(submit(message, signature)).rejects.toThrow(/AuthorizationAlreadyUsed/);
    const fresh = await authorization();
    await expect(submit({ ...fresh.message, value: parseUnits('200', 6) }, fresh.signature)).rejects.toThrow(/InvalidSignature/);
    const expired = await authorization({ validBefore: 1n });
    await expect(submit(expired.message, expired.signature)).rejects.toThrow(/AuthorizationExpired/);
    expect((await balanceOf(payee())) - before).toBe(parseUnits('2', 6));
  });
});
