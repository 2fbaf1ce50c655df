import { type Clock, epochSeconds } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { AppError } from '../../../platform/errors.js';
import type { Synthesiser } from '../../../platform/synthesis.js';
import { withTimeout } from '../../../platform/timeout.js';
import { entityEsgParameters, leiGovernanceFacts } from '../data/entity-esg.js';
import { dataSources, fatfLists } from '../data/index.js';
import { type DatasetProvenance, type FatfLists, isValidLei } from '../domain/index.js';
import { type CachedResult, HeldResults } from '../shared/cache.js';
import type { ComplianceStore } from '../vop/store.js';
import { assessEntityEsg, type EntityEsgAssessment, type EntityEsgParameters, type LeiGovernanceFacts, narrateEntityEsg } from './domain/index.js';
import { createEntityEsgStore, type EntityEsgStore } from './store.js';

/** Document 2 §8: entity ESG scores are kept 7 days. */
export const ENTITY_ESG_TTL_SECONDS = 7 * 24 * 3600;
/** Document 2 §8: the ESG narration has an 8 second timeout (then it is omitted). */
export const ESG_NARRATION_TIMEOUT_MS = 8000;
/** Document 2 §4, GET /esg/score/:lei query defaults. */
export const DEFAULT_ESG_COUNTRY = 'US';
export const DEFAULT_LEI_STATUS = 'ISSUED';

export interface EntityEsgOptions {
  /** Legal name; required unless the LEI is in the registry snapshot or registered to a wallet. */
  name?: string | undefined;
  /** ISO 3166-1 alpha-2; default US. Used only when the registry snapshot lacks the LEI. */
  country?: string | undefined;
  /** GLEIF registration status as declared; default ISSUED. Used only when the snapshot lacks the LEI. */
  leiStatus?: string | undefined;
  /** Recompute and replace the cached score. */
  refresh?: boolean | undefined;
  /** Add the 2-3 sentence narration (omitted when the synthesiser fails or takes over 8 s). */
  narrate?: boolean | undefined;
}

/** The stored part of an answer: the assessment and where its data came from. */
type StoredEsg = EntityEsgAssessment & { dataSources: { lei: DatasetProvenance; fatf: DatasetProvenance & { plenary: string } } };

export type EntityEsgScore = StoredEsg & {
  computedAt: number;
  expiresAt: number;
  fromCache: boolean;
  narration?: string;
  narrationModel?: string;
};

export interface EntityEsgServiceDeps {
  clock: Clock;
  cache: EntityEsgStore;
  /** The wallet registry, read only through the compliance store's lookups. */
  registry: Pick<ComplianceStore, 'activeRegistrations' | 'walletsByLei'>;
  isValidLei(lei: string): boolean;
  /** The GLEIF snapshot's governance facts of an LEI. */
  governanceFacts(lei: string): LeiGovernanceFacts | undefined;
  leiProvenance: DatasetProvenance;
  fatf(): FatfLists;
  parameters: EntityEsgParameters;
  synthesiser: Synthesiser;
  /** Default 8 s (Document 2 §8). */
  narrationTimeoutMs?: number;
}

/** The country part of a stored country (a registry jurisdiction may read US-DE). */
const countryPart = (code: string | null | undefined) => (code && /^[A-Za-z]{2}(-|$)/.test(code) ? code.slice(0, 2).toUpperCase() : undefined);

/** Entity ESG scores (GET /esg/score/:lei, /esg/score/wallet/:wallet), called alike by routes, resolvers and vendor risk. */
export function createEntityEsgService(deps: EntityEsgServiceDeps) {
  const narrationTimeoutMs = deps.narrationTimeoutMs ?? ESG_NARRATION_TIMEOUT_MS;
  const dataVersion = () => `${deps.parameters.version}|lei:${deps.leiProvenance.asOf}|fatf:${deps.fatf().provenance.asOf}`;
  // The cache table held in memory (decision 0096): a score held here is served without a query until its expiry.
  const held = new HeldResults<StoredEsg>();

  async function narrate(assessment: EntityEsgAssessment): Promise<{ narration: string; narrationModel: string } | undefined> {
    try {
      const result = await withTimeout(
        deps.synthesiser.synthesise({ topic: 'entity-esg', facts: { ...assessment }, ruleBasedText: narrateEntityEsg(assessment) }),
        narrationTimeoutMs,
        'entity ESG narration',
      );
      return result ? { narration: result.text, narrationModel: result.model } : undefined;
    } catch {
      return undefined;
    }
  }

  async function entityEsg(lei: string, options: EntityEsgOptions = {}): Promise<EntityEsgScore> {
    const upper = lei.toUpperCase();
    if (!deps.isValidLei(upper)) throw new AppError('CMP_ERR_INVALID_LEI');
    const record = deps.governanceFacts(upper) ?? null;
    let declared = { name: options.name ?? '', country: options.country ?? DEFAULT_ESG_COUNTRY, leiStatus: options.leiStatus ?? DEFAULT_LEI_STATUS };
    if (!record) {
      // "name: yes unless the entity is registered" (Document 2 §4): a wallet registered under the LEI names it.
      const [registered] = options.name === undefined ? await deps.registry.walletsByLei([upper]) : [];
      const name = options.name ?? registered?.legalName;
      if (name === undefined) throw new AppError('CMP_ERR_ESG_NAME_REQUIRED');
      declared = { name, country: options.country ?? countryPart(registered?.country) ?? DEFAULT_ESG_COUNTRY, leiStatus: options.leiStatus ?? DEFAULT_LEI_STATUS };
    }
    const inputsKey = record ? 'registry' : `declared|${declared.country}|${declared.leiStatus}|${declared.name}`;
    const heldKey = `${upper}|${inputsKey}`;
    const version = dataVersion();
    const now = deps.clock.now();

    const local = options.refresh ? undefined : held.fresh(heldKey, version, now);
    const cached = local ?? (options.refresh ? undefined : await deps.cache.entityEsg<StoredEsg>(upper, inputsKey, version, now));
    let entry: CachedResult<StoredEsg>;
    if (cached) {
      entry = cached;
    } else {
      const fatf = deps.fatf();
      const assessment = assessEntityEsg({ lei: upper, record, declared, fatf: fatf.current }, deps.parameters);
      const stored: StoredEsg = { ...assessment, dataSources: { lei: deps.leiProvenance, fatf: { ...fatf.provenance, plenary: fatf.current.plenary } } };
      entry = { result: stored, computedAt: now, expiresAt: new Date(now.getTime() + ENTITY_ESG_TTL_SECONDS * 1000) };
      await deps.cache.saveEntityEsg(upper, inputsKey, version, entry);
    }
    if (!local) held.hold(heldKey, version, entry);
    const score: EntityEsgScore = { ...entry.result, computedAt: epochSeconds(entry.computedAt), expiresAt: epochSeconds(entry.expiresAt), fromCache: cached !== undefined };
    if (options.narrate) {
      const narration = await narrate(score);
      if (narration) Object.assign(score, narration);
    }
    return score;
  }

  return {
    entityEsg,

    /** The score of a wallet's registered entity: 404 when the wallet is not registered or has no LEI (Document 2 §7). */
    async entityEsgForWallet(walletAddress: string, options: Pick<EntityEsgOptions, 'narrate' | 'refresh'> = {}): Promise<EntityEsgScore> {
      const registration = (await deps.registry.activeRegistrations([walletAddress])).get(walletAddress.toLowerCase());
      if (!registration) throw new AppError('CMP_ERR_WALLET_NOT_REGISTERED');
      if (!registration.lei) throw new AppError('CMP_ERR_WALLET_HAS_NO_LEI');
      return entityEsg(registration.lei, { ...options, name: registration.legalName, country: countryPart(registration.country), leiStatus: registration.leiStatus ?? undefined });
    },
  };
}

export type EntityEsgService = ReturnType<typeof createEntityEsgService>;

export interface ShippedEntityEsgDeps {
  clock: Clock;
  db: Database;
  /** The wallet registry's lookups (GET /esg/score/wallet/:wallet, names of registered LEIs). */
  registry: Pick<ComplianceStore, 'activeRegistrations' | 'walletsByLei'>;
  synthesiser: Synthesiser;
  /** Default 8 s (Document 2 §8); tests shorten it. */
  narrationTimeoutMs?: number;
}

/**
 * The entity ESG service over the shipped snapshots, built alike by index.ts and the tests: GLEIF
 * governance facts, the FATF lists and the model parameters.
 */
export function shippedEntityEsgService(deps: ShippedEntityEsgDeps): EntityEsgService {
  return createEntityEsgService({
    clock: deps.clock,
    cache: createEntityEsgStore(deps.db),
    registry: deps.registry,
    isValidLei,
    governanceFacts: (lei) => leiGovernanceFacts().get(lei),
    leiProvenance: dataSources().lei,
    fatf: fatfLists,
    parameters: entityEsgParameters(),
    synthesiser: deps.synthesiser,
    ...(deps.narrationTimeoutMs === undefined ? {} : { narrationTimeoutMs: deps.narrationTimeoutMs }),
  });
}
