import type { Address, Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../../platform/errors.js';
import type { PlatformServices } from '../../../platform/subgraph.js';
import { railTreasuryOf } from '../rail/settlement.js';
import type { FundsRail } from './funds.js';

// The rail as the settlement agent sees it: the treasury its settlements pay from, and the chain its
// owners' and issuers' deposits are read on.

/** The wallet the rail settles from (decision 0025): the one rail/settlement.ts settles from, whether or not x402 payments are taken. */
export async function treasuryWallet(platform: PlatformServices): Promise<string> {
  const connection = await platform.chain.connect();
  const { settlerKey } = platform.config.access;
  const address = railTreasuryOf(connection, settlerKey ? privateKeyToAccount(settlerKey as Hash) : undefined)?.address;
  if (!address) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'The rail has no settling account (RAIL_SETTLER_KEY is not configured).' });
  return address;
}

/** The rail as an agent's deposits are read on it (decision 0049): its token and the treasury they are paid to. */
export async function fundsRail(platform: PlatformServices): Promise<FundsRail> {
  const connection = await platform.chain.connect();
  const token = connection.contracts.token;
  if (!token) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'The rail has no token configured: deposits cannot be read.' });
  return { publicClient: connection.publicClient, token, treasury: (await treasuryWallet(platform)) as Address, chainId: await connection.publicClient.getChainId() };
}
