import { type FeeParameters, listPriceTotalBps } from '../../domain/index.js';

export const MANIFEST_SCHEMA = 'srg-manifest/1.0';
export const STABILITY_API_VERSION = '2.1.0';

export interface ContractAddresses {
  token: string | null;
  esgOracle: string | null;
  redistribution: string | null;
  stabilityPID: string | null;
  basketPeg: string | null;
}

/** The paths a client may call, relative to the service's base URL (name → method and path, e.g. quote: `GET /quote`), generated from the routes (decision 0033). */
export type StabilityEndpoints = Record<string, string>;

export interface ManifestFees {
  coreBps: number;
  fxBps: number;
  licenseBps: number;
  esgMaxBps: number;
  esgFormula: string;
  typicalTotalBps: number;
  worstCaseTotalBps: number;
  bestCaseTotalBps: number;
}

/** The protocol manifest (Document 1 §2, Manifest). */
export interface Manifest {
  schema: string;
  name: string;
  version: string;
  description: string;
  category: string;
  network: string;
  chainId: number;
  capabilities: string[];
  fees: ManifestFees;
  contracts: ContractAddresses;
  endpoints: StabilityEndpoints;
  onboarding: { humanRequired: boolean };
  timestamp: string;
}

export interface ManifestContext {
  now: Date;
  parameters: FeeParameters;
  network: { name: string; chainId: number };
  contracts: ContractAddresses;
  /** The routes actually served. */
  endpoints: StabilityEndpoints;
  capabilities: string[];
}

/** The typical (score 75, cross-currency), best and worst all-in rates of Document 1 rule 3. */
export function summariseListFees(parameters: FeeParameters): ManifestFees {
  return {
    coreBps: parameters.coreBps,
    fxBps: parameters.fxBps,
    licenseBps: parameters.licenseBps,
    esgMaxBps: parameters.esgMaxBps,
    esgFormula: parameters.esgFormula,
    typicalTotalBps: listPriceTotalBps(parameters, true, 75),
    worstCaseTotalBps: listPriceTotalBps(parameters, true, 0),
    bestCaseTotalBps: listPriceTotalBps(parameters, false, 100),
  };
}

export function buildManifest(context: ManifestContext): Manifest {
  return {
    schema: MANIFEST_SCHEMA,
    name: 'Settlement Rail Stability Oracle',
    version: STABILITY_API_VERSION,
    description:
      'Exact fee quotes, fee schedule and stability signals for stablecoin settlement on the rail. ' +
      'Call the manifest once, read the fee schedule, request a quote, then settle on-chain with its quoteId.',
    category: 'stablecoin-settlement-rail',
    network: context.network.name,
    chainId: context.network.chainId,
    capabilities: context.capabilities,
    fees: summariseListFees(context.parameters),
    contracts: context.contracts,
    endpoints: context.endpoints,
    onboarding: { humanRequired: false },
    timestamp: context.now.toISOString(),
  };
}

export const ESG_MANIFEST_SCHEMA = 'srg-esg-manifest/1.0';

/** GET /esg/manifest (shape "not shown"; decision 0033): the stability manifest's conventions for the ESG oracle. */
export function buildEsgManifest(context: {
  now: Date;
  parameters: FeeParameters;
  network: { name: string; chainId: number };
  esgOracle: string | null;
  endpoints: StabilityEndpoints;
  methodology: string;
}) {
  return {
    schema: ESG_MANIFEST_SCHEMA,
    name: 'Settlement Rail ESG Oracle',
    version: STABILITY_API_VERSION,
    description:
      "Live E, S and G scores of the rail over its corridor jurisdictions, and the ESG fee component derived from their average. Read /esg-score; use scores.average as the stability quote's esgScore.",
    category: 'stablecoin-settlement-rail',
    network: context.network.name,
    chainId: context.network.chainId,
    capabilities: ['esg-score', 'esg-fee-schedule', 'esg-quote', 'reliability', 'widget'],
    fee: { esgMaxBps: context.parameters.esgMaxBps, esgFormula: context.parameters.esgFormula },
    methodology: context.methodology,
    contracts: { esgOracle: context.esgOracle },
    endpoints: context.endpoints,
    onboarding: { humanRequired: false },
    timestamp: context.now.toISOString(),
  };
}

export type EsgManifest = ReturnType<typeof buildEsgManifest>;
