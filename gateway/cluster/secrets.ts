import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { generateChainMnemonic } from '../../platform/chain/chain-mnemonic.js';

/**
 * What every process of one cluster must share (docs/configuration.md: "give every replica the
 * same"), made once per data folder and kept there with mode 0600: a restarted cluster keeps its
 * quotes, credentials and webhook signatures valid, and its chain's accounts (the chain's journal
 * in the same folder was made with this mnemonic).
 */
export const clusterSecretsSchema = z.object({
  chainMnemonic: z.string().min(1),
  internalKey: z.string().min(32),
  adminKey: z.string().min(32),
  quoteSigningKey: z.string().min(32),
  webhookSigningKey: z.string().min(32),
  issuerSigningJwk: z.string().min(1),
});

export type ClusterSecrets = z.infer<typeof clusterSecretsSchema>;

export const CLUSTER_SECRETS_FILE = 'cluster-secrets.json';

const randomKey = () => randomBytes(32).toString('base64url');

function newSecrets(): ClusterSecrets {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    chainMnemonic: generateChainMnemonic(),
    internalKey: randomKey(),
    adminKey: randomKey(),
    quoteSigningKey: randomKey(),
    webhookSigningKey: randomKey(),
    issuerSigningJwk: JSON.stringify(privateKey.export({ format: 'jwk' })),
  };
}

/** The secrets kept in `dataDir`, made and written (0600) on the first start. */
export function loadOrCreateClusterSecrets(dataDir: string): ClusterSecrets {
  const path = join(dataDir, CLUSTER_SECRETS_FILE);
  if (existsSync(path)) {
    const parsed = clusterSecretsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!parsed.success) throw new Error(`${path} is not a cluster's secrets file (${parsed.error.issues[0]?.message ?? 'invalid'}); move it away to make new secrets`);
    return parsed.data;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secrets = newSecrets();
  writeFileSync(path, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return secrets;
}
