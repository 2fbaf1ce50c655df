// The entity ESG and PEP screening services over the shipped snapshots, built alike by index.ts and
// the tests: GLEIF governance facts, the FATF lists and the model parameters for ESG; the PEP index
// (built on first use, about 20 ms) and the three PEP lists' provenance for the screen.

import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db.js';
import type { Synthesiser } from '../../platform/synthesis.js';
import { entityEsgParameters, leiGovernanceFacts } from './data/entity-esg.js';
import { dataSources, fatfLists, pepDatasets, pepRecords } from './data/index.js';
import { buildPepIndex, type PepIndex } from './pep/domain/index.js';
import { isValidLei } from './shared/domain/index.js';
import { createEntityEsgService, type EntityEsgService } from './esg/service.js';
import { createPepScreenService, type PepList, type PepScreenService } from './pep/service.js';
import { createScreeningCacheStore } from './esg/store.js';
import type { ComplianceStore } from './vop/store.js';

export interface ScreeningServicesDeps {
  clock: Clock;
  db: Database;
  /** The wallet registry's lookups (GET /esg/score/wallet/:wallet, names of registered LEIs). */
  registry: Pick<ComplianceStore, 'activeRegistrations' | 'walletsByLei'>;
  synthesiser: Synthesiser;
  /** Default 8 s (Document 2 §8); tests shorten it. */
  narrationTimeoutMs?: number;
}

export interface ScreeningServices {
  esg: EntityEsgService;
  pep: PepScreenService;
}

/** The shipped PEP lists with their record counts. */
export function shippedPepLists(): PepList[] {
  const { usFederal, headsOfState, meps } = pepDatasets();
  return [
    { list: 'us-congress-legislators', records: usFederal.records.length, provenance: usFederal.provenance },
    { list: 'wikidata-heads-of-state-government', records: headsOfState.records.length, provenance: headsOfState.provenance },
    { list: 'wikidata-european-parliament', records: meps.records.length, provenance: meps.provenance },
  ];
}

export function createScreeningServices(deps: ScreeningServicesDeps): ScreeningServices {
  const cache = createScreeningCacheStore(deps.db);
  let pepIndex: PepIndex | undefined;
  return {
    esg: createEntityEsgService({
      clock: deps.clock,
      cache,
      registry: deps.registry,
      isValidLei,
      governanceFacts: (lei) => leiGovernanceFacts().get(lei),
      leiProvenance: dataSources().lei,
      fatf: fatfLists,
      parameters: entityEsgParameters(),
      synthesiser: deps.synthesiser,
      ...(deps.narrationTimeoutMs === undefined ? {} : { narrationTimeoutMs: deps.narrationTimeoutMs }),
    }),
    pep: createPepScreenService({ clock: deps.clock, cache, index: () => (pepIndex ??= buildPepIndex(pepRecords())), lists: shippedPepLists }),
  };
}
