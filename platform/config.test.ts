import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('defaults to the embedded mode: port 4000, PGlite in ./data, nothing live', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 4000, dataDir: './data', databaseUrl: undefined, subgraphUrls: {}, forecast: { live: false } });
  });

  it('reads subgraph URLs for the distributed layout', () => {
    expect(loadConfig({ SUBGRAPH_URLS: 'fees=http://10.0.0.5:4001/graphql' }).subgraphUrls).toEqual({ fees: 'http://10.0.0.5:4001/graphql' });
  });

  it.each([
    { env: { PORT: 'eighty' }, problem: /PORT/ },
    { env: { DATABASE_URL: 'not a url' }, problem: /DATABASE_URL/ },
    { env: { QUOTE_SIGNING_KEY: 'short' }, problem: /QUOTE_SIGNING_KEY/ },
    { env: { SUBGRAPH_URLS: 'billing=http://x' }, problem: /SUBGRAPH_URLS/ },
    { env: { DATABASE_SCHEMA: 'Robert"); DROP' }, problem: /DATABASE_SCHEMA/ },
  ])('refuses $env with a message naming the variable', ({ env, problem }) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(problem);
  });
});
