import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { english, generateMnemonic, type HDAccount, HDKey, hdKeyToAccount } from 'viem/accounts';
import { ChainJournalError } from './chain-journal.js';

/**
 * The secret the embedded rail's accounts are derived from (decision 0052 §"The rail's accounts").
 * They hold the treasury's deposits and own the token and the contracts, so their keys must be
 * known to this process only: a mnemonic generated at the chain's first start and kept beside its
 * journal, owner-only. Never printed nor logged.
 */
export const MNEMONIC_FILE = 'mnemonic';

export interface ChainMnemonicOptions {
  /** The chain's folder (DATA_DIR/chain, claimed by this process). */
  folder: string;
  /** EMBEDDED_CHAIN_MNEMONIC, when set: used as given, not written anywhere. */
  configured: string | undefined;
  /** Whether the journal already holds a chain (its genesis was made with some mnemonic). */
  journalHasChain: boolean;
}

/** A fresh BIP-39 mnemonic (12 words, 128 bits of entropy from the platform's CSPRNG). */
export function generateChainMnemonic(): string {
  return generateMnemonic(english);
}

/**
 * The first `count` accounts of a mnemonic, as viem's mnemonicToAccount derives each one
 * (m/44'/60'/0'/0/i). The seed is derived once: its PBKDF2 (2,048 rounds of HMAC-SHA512) cost about
 * 0.1 s a call, paid again for every account at every start.
 */
export function accountsOfMnemonic(mnemonic: string, count: number): HDAccount[] {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  return Array.from({ length: count }, (_, addressIndex) => hdKeyToAccount(root, { addressIndex }));
}

/**
 * The mnemonic of the chain kept in `folder`: the configured one, else the one kept there, else,
 * for a new chain, a generated one written (0600, fsynced, renamed into place) before the journal
 * records the genesis it funds. A journal without a mnemonic beside it is a chain made before
 * decision 0052 gave the rail secret accounts: its accounts are the public development mnemonic's,
 * whose keys anyone has, so it is refused rather than served.
 */
export function loadOrCreateChainMnemonic({ folder, configured, journalHasChain }: ChainMnemonicOptions): string {
  if (configured !== undefined) return configured;
  const path = join(folder, MNEMONIC_FILE);
  const kept = readKept(path);
  if (kept !== undefined) return kept;
  if (journalHasChain) {
    throw new ChainJournalError(
      `the chain journal in ${folder} has no ${MNEMONIC_FILE} beside it: it was made before the rail's accounts became secret (decision 0052), ` +
        'with the public development mnemonic, so anyone can sign for its treasury. Remove that folder to start a new chain with secret accounts, ' +
        'or set EMBEDDED_CHAIN_MNEMONIC to the public development mnemonic to keep serving it knowingly (development only).',
    );
  }
  const mnemonic = generateChainMnemonic();
  writeDurably(folder, path, `${mnemonic}\n`);
  return mnemonic;
}

function readKept(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const mnemonic = text.trim().split(/\s+/).join(' ');
  if (!validateMnemonic(mnemonic, english)) throw new ChainJournalError(`${path} does not hold a BIP-39 mnemonic (damaged?): the chain's accounts cannot be derived`);
  return mnemonic;
}

/** Written to a temporary file, fsynced, renamed into place, and the rename fsynced: a crash leaves no file or a whole one. */
function writeDurably(folder: string, path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const descriptor = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(descriptor, text);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, path);
    const directory = openSync(folder, 'r');
    try {
      fsyncSync(directory);
    } finally {
      closeSync(directory);
    }
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new ChainJournalError(`could not write the chain's mnemonic to ${path}`, { cause: error });
  }
}
