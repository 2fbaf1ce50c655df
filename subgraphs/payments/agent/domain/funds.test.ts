import { describe, expect, it } from 'vitest';
import { agentFundsOf, depositsIn, fundingWalletMessage, fundsCover, type TransferLog } from './funds.js';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const TREASURY = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f';
const OWNER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const STRANGER = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
const log = (overrides: Partial<TransferLog>): TransferLog => ({ address: TOKEN, logIndex: 0, from: OWNER, to: TREASURY, value: 1_000_000n, ...overrides });
const rules = { token: TOKEN, treasury: TREASURY, fundingWallets: new Set([OWNER.toLowerCase()]) };

describe('depositsIn', () => {
  it.each<[string, TransferLog, boolean]>([
    ['the owner to the treasury, in the rail token', log({}), true],
    ['letter case is only a checksum', log({ address: TOKEN.toLowerCase(), to: TREASURY.toUpperCase().replace('0X', '0x') }), true],
    ['another token', log({ address: STRANGER }), false],
    ['to someone else', log({ to: STRANGER }), false],
    ['from a wallet not bound to the agent', log({ from: STRANGER }), false],
    ['nothing moved', log({ value: 0n }), false],
  ])('%s', (_case, transfer, credited) => {
    expect(depositsIn([transfer], rules).length).toBe(credited ? 1 : 0);
  });

  it('each transfer of a transaction is its own deposit, in USD with 6 decimals', () => {
    // 1,250,500,000 units / 10^6 = 1,250.5 USD; 1 unit = 0.000001 USD.
    expect(depositsIn([log({ logIndex: 2, value: 1_250_500_000n }), log({ logIndex: 5, value: 1n })], rules)).toEqual([
      { logIndex: 2, fromWallet: OWNER.toLowerCase(), amountUsd: '1250.5' },
      { logIndex: 5, fromWallet: OWNER.toLowerCase(), amountUsd: '0.000001' },
    ]);
  });
});

describe('agentFundsOf and fundsCover', () => {
  it.each<[string, string, string, string, boolean]>([
    // deposited, spent, amount: available = deposited - spent; covered when amount <= available.
    ['100', '60', '40', '40', true],
    ['100', '60', '40.000001', '40', false],
    ['100', '0', '100', '100', true],
    ['0', '0', '0.01', '0', false],
    // Spent above deposited (an operator's release under decision 0047 before this rule): never below 0.
    ['10', '12.5', '0.01', '0', false],
  ])('deposited %s, spent %s: %s is covered? available %s', (deposited, spent, amount, available, covered) => {
    const funds = agentFundsOf(deposited, spent);
    expect(funds.availableUsd).toBe(available);
    expect(fundsCover(funds, amount)).toBe(covered);
  });
});

it('the funding message names the wallet, the agent and the chain', () => {
  expect(fundingWalletMessage('agt_AAAAAAAAAAAAAAAAAAAAAA', OWNER, 8453)).toBe(`Settlement rail: wallet ${OWNER} funds settlement agent agt_AAAAAAAAAAAAAAAAAAAAAA on chain 8453.`);
});
