import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { createConfiguredRailChain } from '../../gateway/platform-services.js';
import { testConfig } from '../../test/helpers.js';
import { EMBEDDED_CHAIN_FOLDER } from './index.js';

const journalIn = (dataDir: string) => join(dataDir, EMBEDDED_CHAIN_FOLDER, 'journal.jsonl');
const railIn = (dataDir: string) => createConfiguredRailChain(testConfig({ DATA_DIR: dataDir }));

describe('the embedded chain kept in DATA_DIR (decision 0052)', () => {
  it('a chain started again on the same folder holds every transaction, in the same block, with the same contracts, and goes on from there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'srg-journal-'));
    // 1. A fresh chain: deployed, then a transfer.
    const first = railIn(dataDir);
    const before = await first.connect();
    const payer = before.embedded!.accounts[3]!;
    const payee = before.embedded!.accounts[4]!.address;
    const hash = await before.embedded!.walletFor(payer).writeContract({ address: before.contracts.token!, abi: railUSDAbi, functionName: 'transfer', args: [payee, parseUnits('2', 6)] });
    const receipt = await before.publicClient.getTransactionReceipt({ hash });
    const latest = await before.publicClient.getBlock();
    await first.close();
    // The chain stays down a while: its clock must not come back that far behind.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    // 2. Started again: the same chain, the contracts not deployed a second time.
    const second = railIn(dataDir);
    const after = await second.connect();
    expect(after.contracts).toEqual(before.contracts);
    expect(after.payment?.payTo).toBe(before.payment?.payTo);
    const again = await after.publicClient.getTransactionReceipt({ hash });
    expect({ blockNumber: again.blockNumber, blockHash: again.blockHash, status: again.status }).toEqual({ blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, status: 'success' });
    expect((await after.publicClient.getBlock()).hash).toBe(latest.hash);

    // 3. It goes on: the restored x402 settler sends, the block's clock is the wall clock's.
    const settler = after.payment!.settler!;
    const sentAt = Math.floor(Date.now() / 1000);
    const next = await settler.writeContract({ address: after.contracts.token!, abi: railUSDAbi, functionName: 'transfer', args: [payee, 1n] });
    const mined = await after.publicClient.getTransactionReceipt({ hash: next });
    expect(mined.blockNumber).toBe(latest.number + 1n);
    const { timestamp } = await after.publicClient.getBlock({ blockNumber: mined.blockNumber });
    expect(Number(timestamp)).toBeGreaterThanOrEqual(sentAt - 1);
    await second.close();

    // 4. A third start finds that block too.
    const third = railIn(dataDir);
    expect((await (await third.connect()).publicClient.getTransactionReceipt({ hash: next })).blockHash).toBe(mined.blockHash);
    await third.close();
  }, 120_000);

  it('drops a last line cut by a crash, and starts afresh from a journal cut during the deployment', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'srg-journal-'));
    const first = railIn(dataDir);
    const { contracts } = await first.connect();
    await first.close();
    const journal = journalIn(dataDir);
    appendFileSync(journal, '{"block":{"number":9');
    const second = railIn(dataDir);
    expect((await second.connect()).contracts).toEqual(contracts);
    await second.close();
    expect(readFileSync(journal, 'utf8').endsWith('\n')).toBe(true);

    // Only the genesis and two blocks of a deployment: no deployment line, so no payment can name them.
    const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    writeFileSync(journal, `${lines.slice(0, 3).join('\n')}\n`);
    const third = railIn(dataDir);
    const fresh = await third.connect();
    expect(fresh.contracts.token).toBe(contracts.token);
    expect(readFileSync(journal, 'utf8').split('\n').filter((line) => line.startsWith('{"deployment"'))).toHaveLength(1);
    await third.close();
  }, 120_000);

  it('refuses what a replay could not make again, and a second process on the same folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'srg-journal-'));
    const chain = railIn(dataDir);
    const { embedded } = await chain.connect();
    const request = embedded!.provider.request.bind(embedded!.provider) as (call: { method: string; params: unknown[] }) => Promise<unknown>;
    await expect(request({ method: 'hardhat_setBalance', params: [embedded!.accounts[1]!.address, '0x1'] })).rejects.toMatchObject({ code: -32601 });
    await expect(request({ method: 'evm_increaseTime', params: [3600] })).rejects.toMatchObject({ code: -32601 });
    await expect(railIn(dataDir).connect()).rejects.toThrow(/is in use by process/);
    await chain.close();
  }, 120_000);
});
