import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sourceManifests } from '../data/dataset.js';
import parametersJson from '../data/parameters/biodiversity.json' with { type: 'json' };
import type { BiodiversityParameters } from './domain/index.js';
import { dependencyTable, tippingPointTable } from './reference.js';

const parameters = parametersJson as BiodiversityParameters;

describe('the planetary reference tables carry their provenance', () => {
  it.each([
    ['tipping points', tippingPointTable().source],
    ['ENCORE dependency ratings', dependencyTable().source],
  ])('%s: publisher, https URL, licence and as-of', (_, source) => {
    expect(source).toMatchObject({
      publisher: expect.stringMatching(/\S/),
      url: expect.stringMatching(/^https:\/\//),
      licence: expect.stringMatching(/\S/),
      asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      live: false,
    });
  });

  it('holds the nine global core tipping elements, each with minimum <= central <= maximum', () => {
    const elements = tippingPointTable().elements;
    expect(elements.map((element) => element.id)).toEqual(['GrIS', 'WAIS', 'LABC', 'EASB', 'AMAZ', 'PFTP', 'AMOC', 'ASSI', 'EAIS']);
    for (const element of elements) expect(element.minC <= element.centralC && element.centralC <= element.maxC).toBe(true);
  });

  it('holds an ENCORE row for every sector the biodiversity signal scores, each rating on the ENCORE scale', () => {
    const processes = dependencyTable().processes;
    for (const sector of Object.values(parameters.sectors))
      expect(processes.some((row) => row.isicCode === sector.isicCode && (sector.isicClass === undefined || row.isicClass === sector.isicClass))).toBe(true);
    const scale = new Set([...Object.keys(parameters.ratingScale), 'ND']);
    for (const row of processes) for (const rating of Object.values(row.ratings)) expect(scale.has(rating)).toBe(true);
  });

  it('ships the Living Planet Index with its repository commit', () => {
    const planetary = sourceManifests().find(({ folder }) => folder.pathname.endsWith('/planetary/'));
    const entry = planetary!.entries.lpi_owid!;
    expect(entry).toMatchObject({ layout: 'long', copiedFrom: { repository: 'no9hh/repo1', commit: '276464f81882ebb6c8ecafb965981680ac872e39' } });
    const rows = readFileSync(new URL(entry.file, planetary!.folder), 'utf8').trim().split('\n').slice(1);
    expect(rows).toHaveLength(entry.rows);
    expect(
      rows
        .map((row) => row.slice(0, 10))
        .sort()
        .at(-1),
    ).toBe(entry.asOf);
  });
});
