import type { z } from 'zod';
import type { ApiKeys, KeyKind } from './api-keys.js';
import { ADMIN_INSTITUTIONS_PATH, ADMIN_KEYS_PATH, createdKeySchema, institutionListSchema, keyListSchema, type KeyRecordBody, keyRecordBody, revocationSchema } from './keys-route.js';

/**
 * The four commands of `npm run keys`, on the database (directAdministration) or through a running
 * server's admin routes (remoteAdministration, decision 0058): both answer the same shapes, the
 * routes' bodies, so the CLI prints the same lines either way.
 */
export interface KeyAdministration {
  create(kind: KeyKind, label: string, requestsPerMinute: number, institutionId: string | undefined): Promise<z.infer<typeof createdKeySchema>>;
  revoke(id: string): Promise<boolean>;
  list(): Promise<KeyRecordBody[]>;
  institutions(): Promise<z.infer<typeof institutionListSchema>['institutions']>;
}

export function directAdministration(keys: ApiKeys): KeyAdministration {
  return {
    async create(kind, label, requestsPerMinute, institutionId) {
      const { record, key } = await keys.create(kind, label, requestsPerMinute, institutionId === undefined ? {} : { institutionId });
      return { ...keyRecordBody(record), institutionCreated: record.institutionId !== null && institutionId === undefined, key };
    },
    revoke: (id) => keys.revoke(id),
    list: async () => (await keys.list()).map(keyRecordBody),
    institutions: async () => (await keys.institutions()).map((institution) => ({ id: institution.id, name: institution.name, createdAt: institution.createdAt.toISOString() })),
  };
}

const REMOTE_TIMEOUT_MS = 15_000;

/** One admin call: the parsed answer, or an error with the server's own message. */
async function call<S extends z.ZodType>(baseUrl: string, adminKey: string, method: string, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
  }).catch((error: unknown) => {
    throw new Error(`the server at ${baseUrl} did not answer (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  });
  const answer = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  if (response.status === 401) throw new Error(`the server at ${baseUrl} refused ADMIN_KEY: it is not that server's admin key`);
  if (response.status === 404) throw new Error(`the server at ${baseUrl} has no key administration (its ADMIN_KEY is unset, or it is an older version)`);
  if (!response.ok) throw new Error(typeof answer?.error === 'string' ? answer.error : `the server at ${baseUrl} answered ${response.status}`);
  return schema.parse(answer);
}

export function remoteAdministration(baseUrl: string, adminKey: string): KeyAdministration {
  return {
    create: (kind, label, limit, institution) => call(baseUrl, adminKey, 'POST', ADMIN_KEYS_PATH, createdKeySchema, { kind, label, limit, ...(institution === undefined ? {} : { institution }) }),
    revoke: async (id) => (await call(baseUrl, adminKey, 'DELETE', `${ADMIN_KEYS_PATH}/${encodeURIComponent(id)}`, revocationSchema)).revoked,
    list: async () => (await call(baseUrl, adminKey, 'GET', ADMIN_KEYS_PATH, keyListSchema)).keys,
    institutions: async () => (await call(baseUrl, adminKey, 'GET', ADMIN_INSTITUTIONS_PATH, institutionListSchema)).institutions,
  };
}
