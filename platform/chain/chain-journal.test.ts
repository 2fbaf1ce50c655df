import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseUnits } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { createConfiguredRailChain } from '../../gateway/platform-services.js';
import { testConfig } from '../../test/helpers.js';
import { MNEMONIC_FILE } from './chain-mnemonic.js';
import { DEVELOPMENT_MNEMONIC } from './embedded-chain.js';
import { EMBEDDED_CHAIN_FOLDER } from './index.js';

const journalIn = (dataDir: string) => join(dataDir, EMBEDDED_CHAIN_FOLDER, 'journal.jsonl');
const mnemonicIn = (dataDir: string) => join(dataDir, EMBEDDED_CHAIN_FOLDER, MNEMONIC_FILE);
const railIn = (dataDir: string, environment: Record<string, string> = {}) => createConfiguredRailChain(testConfig({ DATA_DIR: dataDir, ...environment }));
const publicAccount = (addressIndex: number) => mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex }).address;

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

  it("makes the rail's accounts from a secret mnemonic kept owner-only in DATA_DIR/chain, not the public development one, and keeps them across restarts", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'srg-journal-'));
    const first = railIn(dataDir);
    const accounts = (await first.connect()).embedded!.accounts.map((account) => account.address);
    await first.close();
    expect(accounts).toHaveLength(10);
    // Not one of them is the public mnemonic's: its keys sign for nothing the rail holds.
    expect(accounts.filter((address) => Array.from({ length: 20 }, (_, index) => publicAccount(index)).includes(address))).toEqual([]);
    expect(statSync(mnemonicIn(dataDir)).mode & 0o777).toBe(0o600);
    expect(readFileSync(mnemonicIn(dataDir), 'utf8').trim().split(' ')).toHaveLength(12);

    const second = railIn(dataDir);
    expect((await second.connect()).embedded!.accounts.map((account) => account.address)).toEqual(accounts);
    await second.close();

    // Another data folder: other accounts.
    const elsewhere = railIn(mkdtempSync(join(tmpdir(), 'srg-journal-')));
    expect((await elsewhere.connect()).embedded!.accounts[8]!.address).not.toBe(accounts[8]);
    await elsewhere.close();
  }, 120_000);

  it('uses EMBEDDED_CHAIN_MNEMONIC as given, writes it nowhere, and refuses a chain made with the public mnemonic before decision 0052 unless it is given so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'srg-journal-'));
    const given = { EMBEDDED_CHAIN_MNEMONIC: DEVELOPMENT_MNEMONIC };
    const first = railIn(dataDir, given);
    const { contracts, embedded } = await first.connect();
    expect(embedded!.accounts[8]!.address).toBe(publicAccount(8));
    await first.close();
    expect(existsSync(mnemonicIn(dataDir))).toBe(false);

    // A journal without a mnemonic beside it: what a chain made before this change left.
    await expect(railIn(dataDir).connect()).rejects.toThrow(/has no mnemonic beside it: it was made before the rail's accounts became secret \(decision 0052\), with the public development mnemonic/);
    expect(existsSync(mnemonicIn(dataDir))).toBe(false);
    const kept = railIn(dataDir, given);
    expect((await kept.connect()).contracts).toEqual(contracts);
    await kept.close();
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
    expect(
      readFileSync(journal, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{"deployment"')),
    ).toHaveLength(1);
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
