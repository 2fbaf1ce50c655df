import { z } from 'zod';
import { AppError } from '../../../platform/errors.js';
import { UpstreamAnswerError, upstreamErrorText, type UpstreamRequest, type UpstreamTransport } from '../../../platform/upstream.js';

/**
 * The intelligence subgraph's client of the compliance oracle's public REST interface (Document 2
 * §4; DESIGN.md §3), in-process or over HTTP alike: the wallet registry, the LEI registry, the
 * entity ESG score, the vendor screen (sanctions by name, owners and wallet; PEP; FATF), the PEP
 * screen and the provenance of the reference datasets. Each schema lists the fields read.
 * An answer that says "nothing on record" (the codes each call names) is null; anything else that
 * is not a 200 of the documented shape (no oracle in reach, another status) is 503
 * GEN_ERR_UNAVAILABLE with the UpstreamAnswerError as its cause, never a 500 and never cached.
 */

export const COMPLIANCE_SERVICE = 'compliance';
const RETRY_AFTER_SECONDS = 30;

const pillar = z.enum(['environmental', 'social', 'governance']);
const provenance = z.object({ source: z.string(), url: z.string(), asOf: z.string(), licence: z.string() });

const registrationSchema = z.object({ walletAddress: z.string(), legalName: z.string(), lei: z.string().nullable(), country: z.string().nullable() });
/** GET /compliance/esg/score/:lei, as the ESG signal and the ESG report read it. */
export const entityEsgSchema = z.object({
  lei: z.string(),
  entityName: z.string(),
  composite: z.number(),
  environmental: z.number(),
  social: z.number(),
  governance: z.number(),
  feeTier: z.string(),
  coverage: z.string(),
  assessedPillars: z.array(pillar),
  inputs: z.array(z.object({ pillar, input: z.string(), value: z.string(), score: z.number(), weight: z.number(), source: z.string(), asOf: z.string() })),
  missingInputs: z.array(z.string()),
  dataSources: z.object({ lei: provenance, fatf: provenance.extend({ plenary: z.string() }) }),
});
const vendorScreenSchema = z.object({
  entity: z.object({ name: z.string(), lei: z.string().nullable() }),
  compliance: z.object({ verdict: z.enum(['APPROVED', 'FLAGGED', 'BLOCKED']), signals: z.array(z.string()), sanctions: z.boolean(), pep: z.boolean(), fatfBlacklist: z.boolean() }),
});
const pepScreenSchema = z.object({
  riskLevel: z.string(),
  pepMatches: z.array(z.object({ matchedName: z.string(), position: z.string(), countryName: z.string(), current: z.boolean(), matchConfidence: z.string(), score: z.number(), source: z.string() })),
  eddRequired: z.boolean(),
  fatfR12: z.object({ note: z.string(), listsScreened: z.array(z.object({ list: z.string(), records: z.number(), asOf: z.string() })) }),
});
const leiRecordSchema = z.object({
  lei: z.string(),
  legalName: z.string(),
  leiStatus: z.string(),
  jurisdiction: z.string().nullable(),
  wallets: z.array(z.object({ registrationType: z.string(), leiStatus: z.string().nullable() })),
});
const leiSearchSchema = z.object({ matches: z.array(z.object({ lei: z.string(), legalName: z.string(), leiStatus: z.string(), jurisdiction: z.string().nullable(), score: z.number() })) });
const referenceDataSchema = z.object({
  datasets: z.array(z.object({ dataset: z.string(), source: z.string(), url: z.string(), asOf: z.string(), licence: z.string(), records: z.number(), inUse: z.boolean() })),
});

export type WalletRegistration = z.infer<typeof registrationSchema>;
export type EntityEsgAnswer = z.infer<typeof entityEsgSchema>;
export type VendorScreenAnswer = z.infer<typeof vendorScreenSchema>;
export type PepScreenAnswer = z.infer<typeof pepScreenSchema>;
export type LeiRecordAnswer = z.infer<typeof leiRecordSchema>;
export type LeiSearchAnswer = z.infer<typeof leiSearchSchema>;
export type ReferenceDataset = z.infer<typeof referenceDataSchema>['datasets'][number];

function unavailable(cause: unknown): AppError {
  return new AppError('GEN_ERR_UNAVAILABLE', { message: 'The compliance oracle is unavailable; retry later.', retryAfterSeconds: RETRY_AFTER_SECONDS, cause });
}

const codeOf = (body: unknown) => (typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { code?: unknown }).code : undefined);

/** One call: the parsed 200, null for an answer with one of `nothingOnRecord` codes, else 503. */
async function call<T>(transport: UpstreamTransport, request: UpstreamRequest, schema: z.ZodType<T>, nothingOnRecord: readonly string[] = []): Promise<T | null> {
  const response = await transport(request).catch((error: unknown) => {
    throw unavailable(error);
  });
  const code = codeOf(response.body);
  if (response.status !== 200 && typeof code === 'string' && nothingOnRecord.includes(code)) return null;
  const path = request.path.split('?')[0];
  if (response.status !== 200) throw unavailable(new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, `${path}: ${upstreamErrorText(response)}`));
  const parsed = schema.safeParse(response.body);
  if (!parsed.success) throw unavailable(new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, `${path}: the answer does not have the documented shape`));
  return parsed.data;
}

/** Like call, for a path that always answers. */
async function required<T>(transport: UpstreamTransport, request: UpstreamRequest, schema: z.ZodType<T>): Promise<T> {
  return (await call(transport, request, schema))!;
}

export interface ComplianceClient {
  /** GET /compliance/vop/lookup/:wallet; null when the wallet is not registered. */
  walletRegistration(address: string): Promise<WalletRegistration | null>;
  /** GET /compliance/esg/score/:lei; null when the LEI is neither in the registry snapshot nor registered to a wallet. */
  entityEsg(lei: string): Promise<EntityEsgAnswer | null>;
  /** POST /compliance/vendor-risk: the screens of a name (and LEI, wallet, country). */
  vendorScreen(subject: { name: string; lei?: string; wallet?: string; country?: string }): Promise<VendorScreenAnswer>;
  /** POST /compliance/compliance/pep-screen. */
  pepScreen(subject: { name: string; country?: string }): Promise<PepScreenAnswer>;
  /** GET /compliance/lei/:lei; null when the LEI is not in the registry snapshot. */
  leiRecord(lei: string): Promise<LeiRecordAnswer | null>;
  /** GET /compliance/lei/search?name=. */
  leiSearch(name: string): Promise<LeiSearchAnswer>;
  /** GET /compliance/reference-data: the reference datasets loaded, with their provenance. */
  referenceData(): Promise<ReferenceDataset[]>;
}

export function createComplianceClient(options: { transport: UpstreamTransport; internalKey: string | undefined }): ComplianceClient {
  const { transport } = options;
  const headers: Record<string, string> = options.internalKey ? { 'x-internal-key': options.internalKey } : {};
  const get = (path: string): UpstreamRequest => ({ method: 'GET', path, headers });
  const post = (path: string, body: unknown): UpstreamRequest => ({ method: 'POST', path, headers, body });
  return {
    walletRegistration: (address) => call(transport, get(`/compliance/vop/lookup/${encodeURIComponent(address)}`), registrationSchema, ['CMP_ERR_WALLET_NOT_REGISTERED']),
    entityEsg: (lei) => call(transport, get(`/compliance/esg/score/${encodeURIComponent(lei)}`), entityEsgSchema, ['CMP_ERR_ESG_NAME_REQUIRED']),
    vendorScreen: (subject) => required(transport, post('/compliance/vendor-risk', subject), vendorScreenSchema),
    pepScreen: (subject) => required(transport, post('/compliance/compliance/pep-screen', subject), pepScreenSchema),
    leiRecord: (lei) => call(transport, get(`/compliance/lei/${encodeURIComponent(lei)}`), leiRecordSchema, ['CMP_ERR_LEI_NOT_FOUND']),
    leiSearch: (name) => required(transport, get(`/compliance/lei/search?name=${encodeURIComponent(name)}`), leiSearchSchema),
    referenceData: async () => (await required(transport, get('/compliance/reference-data'), referenceDataSchema)).datasets,
  };
}
