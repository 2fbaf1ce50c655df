// What every family of the fees subgraph shares: its two REST services' prefixes and the network.

/** The stability oracle's base URL in the all-in-one server ({stability_url}): the quotes, the stability oracle, the corridors widget. */
export const STABILITY_PREFIX = '/stability';
/** The ESG oracle's base URL ({esg_url}): the ESG fee quotes, the ESG oracle, the entity ESG widget. */
export const ESG_PREFIX = '/esg';

/** The network the rail settles on, as the manifests and the health answers name it. */
export const BASE_NETWORK = { name: 'base', chainId: 8453 } as const;
