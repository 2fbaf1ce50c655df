import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers.js';
import { sourceManifests } from '../data/dataset.js';
import { catalogEntry } from './catalog.js';
import { callSignal, listedSignalEndpoints, startSignalServer } from './testing.js';

// Every input figure traceable (issue 23): each input an answer names is a shipped series with a
// publisher, URL, licence, as-of and the public repository commit it was copied from.

const manifests = sourceManifests();
const declared = new Map(manifests.flatMap(({ entries }) => Object.entries(entries)));
const dataFolder = new URL('../data/', import.meta.url);
/** Published tables that are not time series (data/<family>/reference/*.json), each with its source block. */
const referenceSources = readdirSync(dataFolder, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(new URL(`${entry.name}/`, dataFolder)).includes('reference'))
  .flatMap((entry) => {
    const folder = new URL(`${entry.name}/reference/`, dataFolder);
    return readdirSync(folder).map((file) => (JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as { source: { publisher: string; url: string; licence: string; asOf: string } }).source);
  });
const EXAMPLE_PARAMETERS: Record<string, string> = { address: '0x000000000000000000000000000000000000dEaD' };

describe('the shipped input data', () => {
  it.each(manifests.map(({ folder, entries }) => ({ folder: folder.pathname.split('/').at(-2)!, folderUrl: folder, entries })))(
    'data/$folder: every CSV is declared in sources.json, every declared file exists, and its last row is the as-of',
    ({ folderUrl, entries }) => {
      const files = readdirSync(folderUrl).filter((file) => file.endsWith('.csv'));
      expect(files.sort()).toEqual(
        Object.values(entries)
          .map((entry) => entry.file)
          .sort(),
      );
      for (const entry of Object.values(entries)) {
        const lines = readFileSync(new URL(entry.file, folderUrl), 'utf8').trim().split('\n');
        expect(lines.at(-1)!.slice(0, 10), entry.file).toBe(entry.asOf);
        expect(lines.length - 1, entry.file).toBe(entry.rows);
      }
    },
  );
});

describe('every input of every answer', () => {
  let server: TestServer;
  let key: string;
  let referenceData: Map<string, { url: string; licence: string }>;
  beforeAll(async () => {
    ({ server, key } = await startSignalServer({ subgraphs: ['intelligence', 'compliance'] }));
    const datasets = (await server.app.inject({ method: 'GET', url: '/compliance/reference-data' })).json().datasets as Array<{ dataset: string; url: string; licence: string }>;
    referenceData = new Map(datasets.map((dataset) => [dataset.dataset, dataset]));
  }, 90_000);
  afterAll(async () => {
    await server?.close();
  });

  it.each(listedSignalEndpoints().map((endpoint) => ({ endpoint, entry: catalogEntry(endpoint.id, endpoint.summary) })))(
    '$entry.path: has a source, URL, licence and as-of in the shipped data',
    async ({ endpoint, entry }) => {
      const answer = await callSignal(
        server,
        endpoint,
        entry.path.replace(/:(\w+)/g, (_, name: string) => EXAMPLE_PARAMETERS[name]!),
        key,
      );
      expect(answer.status).toBe(200);
      const inputs = answer.body.inputs as Array<{ id: string; publisher: string; url: string; licence: string; asOf: string }>;
      // A simulation (a POST) computes over its shipped node and edge catalogue only (decision 0071): it reads no input.
      if (entry.method === 'GET') expect(inputs.length + (answer.body.missingInputs as string[]).length).toBeGreaterThan(0);
      for (const input of inputs) {
        const seriesId = input.id.split(':')[0]!;
        if (seriesId === 'compliance') {
          // esg/:address reads the compliance subgraph's reference datasets: their provenance is compliance's, as GET /compliance/reference-data publishes it.
          expect(referenceData.get(input.id.slice('compliance:'.length)), `${input.id} is not one of compliance's reference datasets`).toMatchObject({ url: input.url, licence: input.licence });
          continue;
        }
        const source = declared.get(seriesId);
        if (!source) {
          const table = referenceSources.find((reference) => reference.url === input.url && reference.publisher === input.publisher);
          expect(table, `${input.id} is neither a shipped series nor a shipped reference table`).toBeDefined();
          expect({ licence: input.licence, asOf: input.asOf }).toEqual({ licence: table!.licence, asOf: table!.asOf });
          continue;
        }
        expect({ publisher: input.publisher, url: input.url, licence: input.licence }).toEqual({ publisher: source!.publisher, url: source!.url, licence: source!.licence });
        expect(input.asOf <= source!.asOf).toBe(true);
        expect(source!.copiedFrom.commit).toMatch(/^[0-9a-f]{40}$/);
      }
    },
  );
});
