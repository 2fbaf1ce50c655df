import { isAddress } from 'viem';
import { z } from 'zod';
import parametersJson from '../data/parameters/esg.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import type { ComplianceClient, EntityEsgAnswer, ReferenceDataset } from '../upstream/compliance.js';
import {
  computeEntityEsg,
  type EntityEsg,
  ESG_RISK_LEVELS,
  ESG_TIERS,
  type EsgEvidence,
  type EsgParameters,
  type EsgSubject,
  esgSubjectOf,
  hasAddressForm,
  RECOMMENDED_TIERS,
  type ReferenceProvenance,
  subjectKey,
} from './domain/index.js';

const parameters = parametersJson as EsgParameters;

/** Longer than any address (42) or LEI (20): anything longer is refused before it is read. */
const MAX_SUBJECT_LENGTH = 64;
/** The reference datasets the vendor screen reads: sanctions (names, owners, wallets), PEP lists and FATF. */
const SCREENING_DATASETS = ['ofacSdn', 'pepUsFederal', 'pepHeadsOfState', 'pepMeps', 'fatf'];

/**
 * `:address`: an EVM address (any case; a mixed-case one must carry its EIP-55 checksum) or an LEI
 * with valid ISO 17442 check digits (any case). Anything else is 400 INT_ERR_INVALID_SUBJECT.
 */
const isMixedCase = (address: string) => /[a-f]/.test(address.slice(2)) && /[A-F]/.test(address.slice(2));
export const esgParamsSchema = z.object({ address: z.string().max(MAX_SUBJECT_LENGTH, `must be at most ${MAX_SUBJECT_LENGTH} characters`) }).transform((params, context): EsgSubject => {
  const subject = esgSubjectOf(params.address);
  const checksumWrong = subject?.kind === 'wallet' && isMixedCase(params.address) && !isAddress(params.address, { strict: true });
  if (subject && !checksumWrong) return subject;
  context.addIssue({
    code: 'custom',
    path: ['address'],
    message: hasAddressForm(params.address) ? 'a mixed-case address must carry its EIP-55 checksum' : 'must be an EVM address (0x and 40 hex digits) or an LEI with valid ISO 17442 check digits',
  });
  return z.NEVER;
});

const riskLevel = z.enum(ESG_RISK_LEVELS);
export const entityEsgSchema = z.object({
  esgScore: z.number().describe('0-100, environmental-weighted composite'),
  tier: z.enum(ESG_TIERS),
  components: z.object({
    environmental: z.object({ score: z.number(), violations: z.number().int().nullable().describe('null: no open dataset of the entity’s environmental violations'), riskLevel }),
    governance: z.object({ score: z.number(), riskLevel }),
    social: z.object({ score: z.number(), incidents: z.number().int().nullable().describe('null: no open dataset of the entity’s social incidents'), riskLevel }),
  }),
  flags: z.array(z.string()),
  recommendedTier: z.enum(RECOMMENDED_TIERS).describe('the counterparty treatment the answer recommends'),
  entity: z.object({ lei: z.string().nullable(), legalName: z.string() }).nullable().describe('null: no entity is registered to the wallet'),
});

const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text);

/** The provenance of the datasets read, as the oracle states it (dated ones only). */
function provenanceOf(entity: EntityEsgAnswer | null, screened: boolean, reference: readonly ReferenceDataset[]): ReferenceProvenance[] {
  const found = new Map<string, ReferenceProvenance>();
  if (entity) {
    found.set('lei', { dataset: 'lei', ...entity.dataSources.lei });
    found.set('fatf', { dataset: 'fatf', ...entity.dataSources.fatf });
  }
  if (screened) for (const dataset of reference.filter((row) => SCREENING_DATASETS.includes(row.dataset) && !found.has(row.dataset))) found.set(dataset.dataset, dataset);
  return [...found.values()].filter((row) => isDate(row.asOf)).map(({ dataset, url, asOf, licence }) => ({ dataset, url, asOf, licence }));
}

const countryOf = (code: string | null | undefined) => (code && /^[A-Za-z]{2}(-|$)/.test(code) ? code.slice(0, 2).toUpperCase() : undefined);

/**
 * What the compliance oracle holds on the subject, through its public interface: a wallet's
 * registration, the entity ESG of its LEI, the vendor screen of its name (for a wallet no entity is
 * registered to, the address itself is screened: only its wallet screen can speak), and the
 * provenance of the reference datasets.
 */
export async function esgEvidenceOf(compliance: ComplianceClient, subject: EsgSubject): Promise<EsgEvidence> {
  if (subject.kind === 'lei') {
    const [entity, reference] = await Promise.all([compliance.entityEsg(subject.lei), compliance.referenceData()]);
    const screen = entity ? await compliance.vendorScreen({ name: entity.entityName, lei: entity.lei }) : null;
    return { subject, entity, screening: screen?.compliance ?? null, datasets: provenanceOf(entity, screen !== null, reference) };
  }
  const [registration, reference] = await Promise.all([compliance.walletRegistration(subject.address), compliance.referenceData()]);
  const entity = registration?.lei ? await compliance.entityEsg(registration.lei) : null;
  const country = countryOf(registration?.country);
  const screen = await compliance.vendorScreen({
    name: entity?.entityName ?? registration?.legalName ?? subject.address,
    wallet: subject.address,
    ...(registration?.lei ? { lei: registration.lei } : {}),
    ...(country ? { country } : {}),
  });
  return {
    subject,
    registration: registration ? { legalName: registration.legalName, lei: registration.lei } : null,
    entity,
    screening: screen.compliance,
    datasets: provenanceOf(entity, true, reference),
  };
}

/** GET /v1/intelligence/esg/:address (spec §2 shape 6), over the compliance oracle's client. */
export function esgEndpoint(compliance: ComplianceClient): SignalEndpoint<EsgSubject, EntityEsg> {
  return {
    id: 'esg/:address',
    summary: 'Entity ESG of a wallet or an LEI from public compliance records, environmental-weighted',
    params: esgParamsSchema,
    invalidParamsCode: 'INT_ERR_INVALID_SUBJECT',
    cacheKey: (subject) => `esg:${subjectKey(subject)}`,
    response: entityEsgSchema,
    compute: async ({ params }) => computeEntityEsg(await esgEvidenceOf(compliance, params), parameters),
    headers: (body) => ({ 'x-rail-esg-score': String(body.esgScore), 'x-rail-esg-tier': body.tier }),
    graphql: { field: 'entityEsg' },
  };
}
