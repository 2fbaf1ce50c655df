import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, renderConfigurationMarkdown } from './config.js';

describe('configuration', () => {
  it('defaults to the embedded mode: port 4000, PGlite in ./data, nothing live, not production', () => {
    const config = loadConfig({});
    expect(config.server).toMatchObject({ port: 4000, host: '127.0.0.1', production: false, requestTimeoutMs: 15_000 });
    expect(config.database).toMatchObject({ dataDir: './data', url: undefined, statementTimeoutMs: 5_000 });
    expect(config.gateway.subgraphUrls).toEqual({});
    expect(config.forecast.live).toBe(false);
  });

  it('NODE_ENV=production is the one production switch', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).server.production).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).server.production).toBe(false);
  });

  it('reads subgraph URLs for the distributed layout', () => {
    expect(loadConfig({ SUBGRAPH_URLS: 'fees=http://10.0.0.5:4001/graphql' }).gateway.subgraphUrls).toEqual({ fees: 'http://10.0.0.5:4001/graphql' });
  });

  it.each([
    { env: { PORT: 'eighty' }, problem: /PORT/ },
    { env: { DATABASE_URL: 'not a url' }, problem: /DATABASE_URL/ },
    { env: { QUOTE_SIGNING_KEY: 'short' }, problem: /QUOTE_SIGNING_KEY/ },
    { env: { SUBGRAPH_URLS: 'fees' }, problem: /SUBGRAPH_URLS/ },
    { env: { SUBGRAPH_URLS: 'fees=not a url' }, problem: /SUBGRAPH_URLS/ },
    { env: { DATABASE_SCHEMA: 'Robert"); DROP' }, problem: /DATABASE_SCHEMA/ },
    { env: { REQUEST_TIMEOUT_MS: '0' }, problem: /REQUEST_TIMEOUT_MS/ },
  ])('refuses $env with a message naming the variable', ({ env, problem }) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(problem);
  });

  it('docs/configuration.md is generated from the one declaration of each variable (npm run docs:config)', () => {
    const doc = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    expect(doc).toBe(renderConfigurationMarkdown());
  });
});

describe('chain and contract configuration', () => {
  it.each([
    ['0x5FbDB2315678afecb367f032d93F642f64180aa3', '0x5FbDB2315678afecb367f032d93F642f64180aa3'],
    ['0x5fbdb2315678afecb367f032d93f642f64180aa3', '0x5FbDB2315678afecb367f032d93F642f64180aa3'],
  ])('accepts the address %s and keeps its checksummed form', (given, kept) => {
    expect(loadConfig({ CONTRACT_ROUTER: given }).contracts.router).toBe(kept);
  });

  it.each(['0x123', 'router', '0x5FBdb2315678afecb367f032d93F642f64180aa3', '5FbDB2315678afecb367f032d93F642f64180aa3'])('refuses the malformed address %s at start, naming the variable', (given) => {
    expect(() => loadConfig({ CONTRACT_TOKEN: given })).toThrow(ConfigError);
    expect(() => loadConfig({ CONTRACT_TOKEN: given })).toThrow(/CONTRACT_TOKEN: must be an EVM address/);
  });

  it('takes EMBEDDED_CHAIN_MNEMONIC as a BIP-39 mnemonic, its words however spaced, and refuses a wrong checksum or word without echoing it', () => {
    const mnemonic = 'test test test test test test test test test test test junk';
    expect(loadConfig({ EMBEDDED_CHAIN_MNEMONIC: ` ${mnemonic.replaceAll(' ', '  ')}\n` }).chain.embeddedMnemonic).toBe(mnemonic);
    expect(loadConfig({}).chain.embeddedMnemonic).toBeUndefined();
    for (const given of ['test test test test test test test test test test test test', 'test test test test test test test test test test test junky']) {
      expect(() => loadConfig({ EMBEDDED_CHAIN_MNEMONIC: given })).toThrow(
        'Invalid configuration: EMBEDDED_CHAIN_MNEMONIC: must be a BIP-39 mnemonic of the english wordlist (12 to 24 words, checksum valid)',
      );
    }
  });
});
