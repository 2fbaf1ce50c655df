import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readDataFile } from './files.js';
import { RefreshError, refreshOfacFiles } from './refresh.js';

// A local fixture server on 127.0.0.1 serves the shipped files as if they were OFAC's exports.
const served: Record<string, { status: number; body: string }> = {};
let server: Server;
let baseUrl: string;
let dataDir: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const file = served[(request.url ?? '').replace(/^\/exports\//, '')];
    response.writeHead(file?.status ?? 404, { 'last-modified': 'Thu, 28 Dec 2023 18:43:24 GMT' });
    response.end(file?.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/exports/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'compliance-refresh-'));
  await cp(new URL('./ofac', import.meta.url), join(dataDir, 'ofac'), { recursive: true });
  await cp(new URL('./sources.json', import.meta.url), join(dataDir, 'sources.json'));
  served['SDN.CSV'] = { status: 200, body: readDataFile('ofac/sdn.csv') };
  served['ADD.CSV'] = { status: 200, body: readDataFile('ofac/add.csv') };
  served['ALT.CSV'] = { status: 200, body: readDataFile('ofac/alt.csv') };
  served['SDN_COMMENTS.CSV'] = { status: 200, body: readDataFile('ofac/sdn_comments.csv') };
  return () => rm(dataDir, { recursive: true, force: true });
});

async function snapshot(): Promise<Record<string, string>> {
  const files = [...(await readdir(join(dataDir, 'ofac'))).map((f) => `ofac/${f}`), 'sources.json'];
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(join(dataDir, f), 'utf8')] as const)));
}

describe('refreshOfacFiles', () => {
  it('writes the downloaded files, the derived addresses and the new as-of date', async () => {
    served['ALT.CSV'] = { status: 200, body: readDataFile('ofac/alt.csv').replace('"AERO-CARIBBEAN"', '"AERO CARIBBEAN"') };
    const result = await refreshOfacFiles({ baseUrl, dataDir, now: () => new Date('2026-07-01T12:00:00Z') });
    expect(result).toEqual({ entries: 13_821, aliases: 17_091, digitalCurrencyAddresses: 578, asOf: '2023-12-28' });
    const files = await snapshot();
    expect(files['ofac/alt.csv']).toContain('"AERO CARIBBEAN"');
    expect(files['ofac/digital_currency_addresses.csv']).toBe(readDataFile('ofac/digital_currency_addresses.csv'));
    const sources = JSON.parse(files['sources.json']!) as { ofacSdn: { asOf: string; source: string; url: string }; lei: unknown };
    expect(sources.ofacSdn).toMatchObject({ asOf: '2023-12-28', url: `${baseUrl}SDN.CSV` });
    expect(sources.ofacSdn.source).toContain('downloaded 2026-07-01T12:00:00.000Z');
    expect(sources.lei).toEqual(JSON.parse(readDataFile('sources.json')).lei);
    expect(Object.keys(files).filter((f) => f.includes('.refresh-'))).toEqual([]);
  });

  it.each([
    [
      'a download fails',
      () => {
        served['ADD.CSV'] = { status: 500, body: '' };
      },
      /ADD\.CSV: HTTP 500/,
    ],
    [
      'a file is not OFAC CSV',
      () => {
        served['ALT.CSV'] = { status: 200, body: '1,2,"aka"\r\n' };
      },
      /not a consistent OFAC release/,
    ],
    [
      'an alias names an unknown entry',
      () => {
        served['ALT.CSV'] = { status: 200, body: '99999999,1,"aka","X",-0- \r\n' };
      },
      /ent_num 99999999 is not in sdn.csv/,
    ],
    [
      'the list is truncated (a consistent but small release)',
      () => {
        served['SDN.CSV'] = { status: 200, body: readDataFile('ofac/sdn.csv').split('\r\n').slice(0, 100).join('\r\n') };
        for (const file of ['ADD.CSV', 'ALT.CSV', 'SDN_COMMENTS.CSV']) served[file] = { status: 200, body: '' };
      },
      /fewer than 5000/,
    ],
  ])('changes nothing when %s', async (_, breakIt, message) => {
    const before = await snapshot();
    breakIt();
    await expect(refreshOfacFiles({ baseUrl, dataDir })).rejects.toThrow(message);
    expect(await snapshot()).toEqual(before);
  });

  it('fails with a clear message and changes nothing without a network', async () => {
    const before = await snapshot();
    const offline: typeof fetch = () => Promise.reject(new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND sanctionslistservice.ofac.treas.gov') }));
    await expect(refreshOfacFiles({ dataDir, fetch: offline })).rejects.toThrow(
      new RefreshError('could not download https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV: getaddrinfo ENOTFOUND sanctionslistservice.ofac.treas.gov'),
    );
    expect(await snapshot()).toEqual(before);
  });

  it('gives up on a download after its time limit', async () => {
    const hanging: typeof fetch = (_url, init) => new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    await expect(refreshOfacFiles({ dataDir, fetch: hanging, timeoutMs: 50 })).rejects.toThrow(/could not download .*SDN\.CSV/);
  });
});
