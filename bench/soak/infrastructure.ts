import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cluster, startCluster } from '../../gateway/cluster/cluster.js';
import { dropSchema } from '../../platform/db.js';
import { startTcpProxy, type TcpProxy } from '../../platform/testing/tcp-proxy.js';
import { clusterEnvironment } from './cluster-environment.js';
import { loopbackTarget, type SoakOptions } from './options.js';

/** The cluster under test, behind the two proxies the faults cut. */
export interface Infrastructure {
  cluster: Cluster;
  postgresProxy: TcpProxy;
  redisProxy: TcpProxy;
  schema: string;
  dataDir: string;
  /** PostgreSQL as the soak itself reaches it (not through the proxy): the reconciliation must not depend on the fault. */
  databaseUrl: string;
  /** Seconds the cluster took to start. */
  startSeconds: number;
  close(): Promise<void>;
}

/** The same URL through the proxy on 127.0.0.1:port. */
function throughProxy(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}

export async function startInfrastructure(options: SoakOptions, log: (line: string) => void): Promise<Infrastructure> {
  const postgres = loopbackTarget(options.databaseUrl, 5432, 'DATABASE_URL');
  const redis = loopbackTarget(options.redisUrl, 6379, 'REDIS_URL');
  const schema = `soak_${Date.now().toString(36)}_${process.pid}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'srg-soak-'));
  const postgresProxy = await startTcpProxy(postgres.port, postgres.host);
  const redisProxy = await startTcpProxy(redis.port, redis.host);
  const started = Date.now();
  const close = async (cluster?: Cluster) => {
    await cluster?.stop();
    await Promise.all([postgresProxy.close(), redisProxy.close()]);
    if (options.keep) return log(`kept: schema ${schema}, data folder ${dataDir}`);
    await dropSchema(options.databaseUrl, schema);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const cluster = await startCluster({
      gateways: options.gateways,
      replicas: options.replicas,
      databaseUrl: throughProxy(options.databaseUrl, postgresProxy.port),
      databaseSchema: schema,
      redisUrl: throughProxy(options.redisUrl, redisProxy.port),
      port: 0,
      dataDir,
      environment: clusterEnvironment(),
      log,
    });
    const startSeconds = (Date.now() - started) / 1000;
    return { cluster, postgresProxy, redisProxy, schema, dataDir, databaseUrl: options.databaseUrl, startSeconds, close: () => close(cluster) };
  } catch (error) {
    await close();
    throw error;
  }
}
