import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { HttpServer } from '../http.js';
import { type ApiKeyRecord, type ApiKeys, DEFAULT_REQUESTS_PER_MINUTE, type InstitutionRecord, UnknownInstitution } from './api-keys.js';
import { requireAdminKey } from './shared-secret.js';

/**
 * Key administration over HTTP, for `npm run keys` while a server holds the embedded data folder
 * (decision 0058): the same four commands as the CLI, on the server's own database.
 *   POST   /admin/keys         {kind, label, institution?, limit?}  -> 201 the record and the key (shown once)
 *   GET    /admin/keys                                              -> {keys}
 *   DELETE /admin/keys/:id                                          -> {id, revoked}
 *   GET    /admin/institutions                                      -> {institutions}
 * Only `Authorization: Bearer <ADMIN_KEY>` opens them (401 before the body is parsed, with
 * WWW-Authenticate: Bearer). While ADMIN_KEY is unset they are not registered at all: 404, as for
 * any path the server does not have.
 */
export const ADMIN_KEYS_PATH = '/admin/keys';
export const ADMIN_INSTITUTIONS_PATH = '/admin/institutions';

const institutionIdPattern = /^inst_[A-Za-z0-9_-]{1,64}$/;

export const keyCreationSchema = z.strictObject({
  kind: z.enum(['api', 'bearer']),
  label: z.string().min(1).max(200),
  institution: z.string().regex(institutionIdPattern, 'must be an institution id (inst_...)').optional(),
  limit: z.number().int().min(1).max(2_147_483_647).default(DEFAULT_REQUESTS_PER_MINUTE).describe('requests per minute'),
});

const keyRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(['api', 'bearer']),
  label: z.string(),
  requestsPerMinute: z.number(),
  institutionId: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type KeyRecordBody = z.infer<typeof keyRecordSchema>;

export const createdKeySchema = keyRecordSchema.extend({
  /** True when the bearer key founded its institution. */
  institutionCreated: z.boolean(),
  /** The key itself: in this answer only, never stored. */
  key: z.string(),
});
export const keyListSchema = z.object({ keys: z.array(keyRecordSchema) });
export const revocationSchema = z.object({ id: z.string(), revoked: z.boolean() });
const institutionSchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string() });
export const institutionListSchema = z.object({ institutions: z.array(institutionSchema) });
const refusalSchema = z.object({ error: z.string(), code: z.string() });

export function keyRecordBody(record: ApiKeyRecord): KeyRecordBody {
  return {
    id: record.id,
    kind: record.kind,
    label: record.label,
    requestsPerMinute: record.requestsPerMinute,
    institutionId: record.institutionId,
    createdAt: record.createdAt.toISOString(),
    revokedAt: record.revokedAt ? record.revokedAt.toISOString() : null,
  };
}

function institutionBody(institution: InstitutionRecord) {
  return { id: institution.id, name: institution.name, createdAt: institution.createdAt.toISOString() };
}

/** Issues a key as the CLI does; a bearer key joining an institution that does not exist is refused (400). */
async function createKey(keys: ApiKeys, body: z.output<typeof keyCreationSchema>) {
  if (body.kind === 'api' && body.institution !== undefined) throw new AppError('GEN_ERR_BAD_REQUEST', { message: 'an API key belongs to no institution' });
  try {
    const { record, key } = await keys.create(body.kind, body.label, body.limit, body.institution === undefined ? {} : { institutionId: body.institution });
    return { ...keyRecordBody(record), institutionCreated: record.institutionId !== null && body.institution === undefined, key };
  } catch (error) {
    if (error instanceof UnknownInstitution) throw new AppError('GEN_ERR_BAD_REQUEST', { message: error.message });
    throw error;
  }
}

export function registerAdminKeyRoutes(app: HttpServer, keys: ApiKeys, adminKey: string | undefined): void {
  if (adminKey === undefined) return;
  const admin = {
    // onRequest: refused before the body is even parsed, so an outsider learns nothing about it.
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        requireAdminKey(request.requestContext, adminKey);
      } catch (error) {
        reply.header('www-authenticate', 'Bearer');
        throw error;
      }
    },
  };
  const refused = { 400: refusalSchema, 401: refusalSchema };
  app.post(
    ADMIN_KEYS_PATH,
    { ...admin, schema: { summary: 'Issue an API key or an institution bearer key (admin)', body: keyCreationSchema, response: { 201: createdKeySchema, ...refused } } },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await createKey(keys, request.body)),
  );
  app.get(ADMIN_KEYS_PATH, { ...admin, schema: { summary: 'Every key, active and revoked, oldest first (admin)', response: { 200: keyListSchema, 401: refusalSchema } } }, async () => ({
    keys: (await keys.list()).map(keyRecordBody),
  }));
  app.delete(
    `${ADMIN_KEYS_PATH}/:id`,
    {
      ...admin,
      schema: {
        summary: 'Revoke a key (admin); revoked is false when no active key has this id',
        params: z.strictObject({ id: z.string().min(1).max(128) }),
        response: { 200: revocationSchema, ...refused },
      },
    },
    async (request) => ({ id: request.params.id, revoked: await keys.revoke(request.params.id) }),
  );
  app.get(ADMIN_INSTITUTIONS_PATH, { ...admin, schema: { summary: 'Every institution, oldest first (admin)', response: { 200: institutionListSchema, 401: refusalSchema } } }, async () => ({
    institutions: (await keys.institutions()).map(institutionBody),
  }));
}
