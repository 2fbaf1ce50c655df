import { randomBytes } from 'node:crypto';
import { type Address, getAddress } from 'viem';
import { type HDAccount, mnemonicToAccount } from 'viem/accounts';
import type { PaymentRequirements } from 'x402/types';
import type { Cluster } from '../../gateway/cluster/cluster.js';
import { ACTIVE_LEI_ENTRY } from '../../test/fixtures/lei-entries.js';
import { jsonOf, send } from './http.js';

/** The paid route of the mix: a cached intelligence signal, paid by an API key or an x402 payment. */
export const PAID_PATH = '/v1/intelligence/macro-stress';
/** Per-minute limit of the soak's keys: far above what a run sends, so a 429 is a finding. */
const KEY_LIMIT_PER_MINUTE = 1_000_000;
/** Creditor wallets the payments spread over. */
const CREDITORS = 8;
/** The funded accounts of the cluster's mnemonic that pay x402 (#0 settles, #8 and #9 are the rail's). */
const PAYER_INDEXES = [1, 2, 3, 4, 5, 6, 7];

/** What the workload needs from the cluster before the load: its keys, registered creditors, the paid route's requirements and the payers. */
export interface SoakAccounts {
  apiKey: string;
  apiKeyId: string;
  /** The institution's bearer key: the payments' owner. */
  bearer: string;
  institutionId: string;
  creditors: Address[];
  creditorName: string;
  creditorLei: string;
  requirements: PaymentRequirements;
  payers: HDAccount[];
}

export const freshAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

async function createKey(cluster: Cluster, kind: 'api' | 'bearer', label: string): Promise<{ id: string; key: string; institutionId: string | null }> {
  const answer = await send(`${cluster.url}/admin/keys`, {
    headers: { authorization: `Bearer ${cluster.secrets.adminKey}` },
    json: { kind, label, limit: KEY_LIMIT_PER_MINUTE },
  });
  const body = jsonOf(answer);
  if (answer.outcome !== 201 || typeof body?.key !== 'string') throw new Error(`POST /admin/keys (${kind}) answered ${answer.outcome}: ${answer.text.slice(0, 300)}`);
  return { id: String(body.id), key: body.key, institutionId: typeof body.institutionId === 'string' ? body.institutionId : null };
}

async function registerCreditor(cluster: Cluster): Promise<Address> {
  const wallet = freshAddress();
  const answer = await send(`${cluster.url}/compliance/register`, {
    headers: { authorization: `Bearer ${cluster.secrets.adminKey}` },
    json: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei },
  });
  if (answer.outcome !== 201) throw new Error(`POST /compliance/register answered ${answer.outcome}: ${answer.text.slice(0, 300)}`);
  return wallet;
}

async function paymentRequirements(cluster: Cluster): Promise<PaymentRequirements> {
  const answer = await send(`${cluster.url}${PAID_PATH}`);
  const requirements = (jsonOf(answer)?.accepts as PaymentRequirements[] | undefined)?.[0];
  if (answer.outcome !== 402 || !requirements) throw new Error(`GET ${PAID_PATH} without payment answered ${answer.outcome}, not a 402 naming its requirements: ${answer.text.slice(0, 300)}`);
  return requirements;
}

export async function prepareAccounts(cluster: Cluster): Promise<SoakAccounts> {
  const mnemonic = cluster.mnemonic;
  if (!mnemonic) throw new Error('the soak needs the embedded chain (its funded accounts pay x402): start the cluster without RPC_URL');
  const api = await createKey(cluster, 'api', 'soak paid calls');
  const bearer = await createKey(cluster, 'bearer', 'soak treasury desk');
  if (!bearer.institutionId) throw new Error('the bearer key founded no institution');
  const creditors: Address[] = [];
  for (let index = 0; index < CREDITORS; index += 1) creditors.push(await registerCreditor(cluster));
  return {
    apiKey: api.key,
    apiKeyId: api.id,
    bearer: bearer.key,
    institutionId: bearer.institutionId,
    creditors,
    creditorName: ACTIVE_LEI_ENTRY.legalName,
    creditorLei: ACTIVE_LEI_ENTRY.lei,
    requirements: await paymentRequirements(cluster),
    payers: PAYER_INDEXES.map((addressIndex) => mnemonicToAccount(mnemonic, { addressIndex })),
  };
}
