import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, hangingFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import { fetchDefillamaStablecoins } from './fetch.js';
import { mapStablecoinQuotes } from './map.js';
import { parseDefillamaStablecoins } from './parse.js';

// The answer's shape, trimmed to the basket's three coins and one coin without figures.
const FIXTURE = readFixture('defillama', 'stablecoins-usdt-usdc-dai.json');
const STABLECOINS = pathIs('stablecoins.llama.fi', '/stablecoins');

describe('fetchDefillamaStablecoins', () => {
  it('asks for every stablecoin with its price', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: STABLECOINS, body: FIXTURE }]);
    await fetchDefillamaStablecoins(testOptions(fetch));
    expect(requests[0]?.href).toBe('https://stablecoins.llama.fi/stablecoins?includePrices=true');
  });

  it('gives up with a timeout error naming DefiLlama', async () => {
    const error = await failureOf(fetchDefillamaStablecoins(testOptions(hangingFetch, { timeoutMs: 20 })));
    expect([error.kind, error.source, error.detail]).toEqual(['timeout', 'defillama', 'no answer within 20 ms from stablecoins.llama.fi/stablecoins']);
  });
});

describe('fixture through parse and map', () => {
  it('gives each asked symbol its price and circulating supply, and nothing it does not publish', async () => {
    const { fetch } = fixtureFetch([{ matches: STABLECOINS, body: FIXTURE }]);
    const assets = parseDefillamaStablecoins(await fetchDefillamaStablecoins(testOptions(fetch)));
    expect(mapStablecoinQuotes(assets, ['USDT', 'USDC', 'DAI', 'FRAX', 'PYUSD'])).toEqual({
      USDT: { price: 1.0004, circulatingUsd: 180_000_000_000 },
      USDC: { price: 0.9998, circulatingUsd: 75_000_000_000 },
      DAI: { price: 1.0001, circulatingUsd: 5_000_000_000 },
      FRAX: {},
      PYUSD: {},
    });
  });
});

describe('parseDefillamaStablecoins', () => {
  it.each([
    { name: 'a body without peggedAssets', body: { stablecoins: [] } },
    { name: 'a price that is not a number', body: { peggedAssets: [{ symbol: 'USDT', price: '1.00' }] } },
  ])('rejects $name as malformed', async ({ body }) => {
    const error = await failureOf(Promise.resolve().then(() => parseDefillamaStablecoins(body)));
    expect(error.kind).toBe('malformed-body');
    expect(error.source).toBe('defillama');
  });
});
