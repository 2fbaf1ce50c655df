import { type Address, isAddressEqual } from 'viem';
import type { EmbeddedChain } from './embedded-chain.js';

/**
 * What the rail's deployment returned, kept in the chain journal so that a restored chain answers
 * the same without deploying again (decision 0052). It is whatever the deploy function gives
 * (contracts/deploy.ts decides; addresses added there are kept too), as long as it is made of
 * JSON values, bigints, and wallet clients of the chain's own development accounts (x402's
 * settler): a wallet is kept as its account's address and made again on the restored chain.
 */
type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

function isWalletClient(value: object): value is { type: 'walletClient'; account: { address: Address } } {
  return 'type' in value && value.type === 'walletClient' && 'account' in value && typeof (value.account as { address?: unknown } | undefined)?.address === 'string';
}

export function encodeDeployment(value: unknown, path = 'deployment'): Encoded {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (Array.isArray(value)) return value.map((item, index) => encodeDeployment(item, `${path}[${index}]`));
  if (typeof value === 'object') {
    if (isWalletClient(value)) return { $walletOf: value.account.address };
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new TypeError(`${path} cannot be kept in the chain journal (a ${value.constructor.name})`);
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return Object.fromEntries(entries.map(([key, item]) => [key, encodeDeployment(item, `${path}.${key}`)]));
  }
  throw new TypeError(`${path} cannot be kept in the chain journal (a ${typeof value})`);
}

export function decodeDeployment(value: unknown, chain: EmbeddedChain): unknown {
  if (Array.isArray(value)) return value.map((item) => decodeDeployment(item, chain));
  if (value === null || typeof value !== 'object') return value;
  if ('$bigint' in value && typeof value.$bigint === 'string') return BigInt(value.$bigint);
  if ('$walletOf' in value && typeof value.$walletOf === 'string') {
    const address = value.$walletOf as Address;
    const account = chain.accounts.find((candidate) => isAddressEqual(candidate.address, address));
    if (!account) throw new TypeError(`the chain journal names a wallet of ${address}, not a development account`);
    return chain.walletFor(account);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, decodeDeployment(item, chain)]));
}
