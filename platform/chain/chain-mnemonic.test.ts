import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { accountsOfMnemonic, generateChainMnemonic } from './chain-mnemonic.js';
import { DEVELOPMENT_MNEMONIC } from './embedded-chain.js';

describe('the rail accounts of a mnemonic, its seed derived once (issue 27: a second of every start)', () => {
  it.each([
    ['the public development mnemonic', DEVELOPMENT_MNEMONIC],
    ['a generated one', generateChainMnemonic()],
  ])('are the accounts viem derives one by one from %s, in order', async (_, mnemonic) => {
    const accounts = accountsOfMnemonic(mnemonic, 10);
    expect(accounts.map((account) => account.address)).toEqual(Array.from({ length: 10 }, (__, addressIndex) => mnemonicToAccount(mnemonic, { addressIndex }).address));
    const message = 'settlement-rail';
    expect(await accounts[3]!.signMessage({ message })).toBe(await mnemonicToAccount(mnemonic, { addressIndex: 3 }).signMessage({ message }));
  });
});
