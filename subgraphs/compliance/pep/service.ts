import type { Clock } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { pepDatasets, pepRecords } from '../data/index.js';
import { type DatasetProvenance, nameTokens, normaliseName, PEP_MATCH_THRESHOLD, type PepSource } from '../domain/index.js';
import { type CachedResult, HeldResults } from '../shared/cache.js';
import { assessPepMatches, buildPepIndex, type PepIndex, type PepMatchConfidence, type PepRiskLevel, type PepScreenMatch } from './domain/index.js';
import { createPepScreenStore, type PepScreenStore } from './store.js';

/** Document 2 §8: PEP screens are kept 6 hours. */
export const PEP_SCREEN_TTL_SECONDS = 6 * 3600;
/** The most matches one screen answers (best first). */
export const MAX_PEP_MATCHES = 25;

export interface PepScreenInput {
  name: string;
  /** ISO 3166-1 alpha-2: only office holders of this country. */
  country?: string | undefined;
  /** Moves each match's confidence one step (domain/pep-screen.ts). */
  position?: string | undefined;
}

/** One PEP list the screen covers. */
export interface PepList {
  list: PepSource;
  records: number;
  provenance: DatasetProvenance;
}

/** The FATF Recommendation 12 attestation (inner fields "not shown" in the spec; decision 0016). */
export interface FatfR12Attestation {
  recommendation: 'R.12';
  screened: true;
  listsScreened: { list: PepSource; records: number; source: string; asOf: string }[];
  matchThreshold: number;
  countryFilter: string | null;
  pepIdentified: boolean;
  highestConfidence: PepMatchConfidence | null;
  eddRequired: boolean;
  note: string;
}

export interface PepScreenResult {
  riskLevel: PepRiskLevel;
  pepMatches: PepScreenMatch[];
  eddRequired: boolean;
  fatfR12: FatfR12Attestation;
  /** ISO 8601: when the screen was computed (and cached). */
  cachedAt: string;
  expiresAt: string;
  fromCache: boolean;
}

type StoredScreen = Omit<PepScreenResult, 'cachedAt' | 'expiresAt' | 'fromCache'>;

export interface PepScreenServiceDeps {
  clock: Clock;
  cache: PepScreenStore;
  /** Built once, on first use: the name index over every PEP record. */
  index(): PepIndex;
  lists(): readonly PepList[];
}

const CONFIDENCE_RANK: Record<PepMatchConfidence, number> = { HIGH: 3, MEDIUM: 2, LOW: 1 };

/** The cache key: the normalised name, the country and the normalised position words, which is all the screen reads. */
export function pepScreenKey(input: PepScreenInput): string {
  return [normaliseName(input.name), input.country?.toUpperCase() ?? '', input.position === undefined ? '' : nameTokens(input.position).join(' ')].join('|');
}

function attestation(lists: readonly PepList[], input: PepScreenInput, matches: readonly PepScreenMatch[], eddRequired: boolean): FatfR12Attestation {
  const highest = matches.reduce<PepMatchConfidence | null>((best, match) => (best === null || CONFIDENCE_RANK[match.matchConfidence] > CONFIDENCE_RANK[best] ? match.matchConfidence : best), null);
  return {
    recommendation: 'R.12',
    screened: true,
    listsScreened: lists.map((list) => ({ list: list.list, records: list.records, source: list.provenance.source, asOf: list.provenance.asOf })),
    matchThreshold: PEP_MATCH_THRESHOLD,
    countryFilter: input.country?.toUpperCase() ?? null,
    pepIdentified: matches.length > 0,
    highestConfidence: highest,
    eddRequired,
    note:
      'Screened by name against the listed PEP sources at similarity 0.60 or above. EDD (FATF R.12) is required when a person in office matches with at least MEDIUM confidence or a former office holder with HIGH. ' +
      'Coverage is limited to these lists and their as-of dates: heads of state and government as of 2022-10-10, European Parliament members of the 9th term (all former), US federal office holders; family members and close associates are not screened.',
  };
}

/** POST /compliance/pep-screen, called alike by routes, resolvers and vendor risk. */
export function createPepScreenService(deps: PepScreenServiceDeps) {
  const dataVersion = () =>
    deps
      .lists()
      .map((list) => `${list.list}:${list.provenance.asOf}:${list.records}`)
      .join('|');

  // The cache table held in memory (decision 0096): a screen held here is served without a query until its expiry.
  const held = new HeldResults<StoredScreen>();
  const present = (entry: CachedResult<StoredScreen>, fromCache: boolean): PepScreenResult => ({
    ...entry.result,
    cachedAt: entry.computedAt.toISOString(),
    expiresAt: entry.expiresAt.toISOString(),
    fromCache,
  });

  return {
    async pepScreen(input: PepScreenInput): Promise<PepScreenResult> {
      const key = pepScreenKey(input);
      const version = dataVersion();
      const now = deps.clock.now();
      const local = held.fresh(key, version, now);
      if (local) return present(local, true);
      const cached = await deps.cache.pepScreen<StoredScreen>(key, version, now);
      if (cached) {
        held.hold(key, version, cached);
        return present(cached, true);
      }

      const country = input.country?.toUpperCase();
      const { matches } = deps.index().screen(input.name, { limit: MAX_PEP_MATCHES, ...(country ? { country } : {}) });
      const { riskLevel, pepMatches, eddRequired } = assessPepMatches(matches, input.position);
      const stored: StoredScreen = { riskLevel, pepMatches, eddRequired, fatfR12: attestation(deps.lists(), input, pepMatches, eddRequired) };
      const entry = { result: stored, computedAt: now, expiresAt: new Date(now.getTime() + PEP_SCREEN_TTL_SECONDS * 1000) };
      await deps.cache.savePepScreen(key, version, entry);
      held.hold(key, version, entry);
      return present(entry, false);
    },
  };
}

export type PepScreenService = ReturnType<typeof createPepScreenService>;

/** The shipped PEP lists with their record counts. */
export function shippedPepLists(): PepList[] {
  const { usFederal, headsOfState, meps } = pepDatasets();
  return [
    { list: 'us-congress-legislators', records: usFederal.records.length, provenance: usFederal.provenance },
    { list: 'wikidata-heads-of-state-government', records: headsOfState.records.length, provenance: headsOfState.provenance },
    { list: 'wikidata-european-parliament', records: meps.records.length, provenance: meps.provenance },
  ];
}

/**
 * The PEP screen over the shipped lists, built alike by index.ts and the tests: the PEP index is
 * built on first use (about 20 ms), and the three lists' provenance goes into the attestation.
 */
export function shippedPepScreenService(deps: { clock: Clock; db: Database }): PepScreenService {
  let pepIndex: PepIndex | undefined;
  return createPepScreenService({ clock: deps.clock, cache: createPepScreenStore(deps.db), index: () => (pepIndex ??= buildPepIndex(pepRecords())), lists: shippedPepLists });
}
