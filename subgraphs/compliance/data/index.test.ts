import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  dataSources,
  fatfLists,
  formatDigitalCurrencyAddresses,
  leiRecords,
  OfacDataError,
  ofacPrograms,
  parseOfacCsv,
  parseOfacFiles,
  pepDatasets,
  pepRecords,
  readDataFile,
  regulatoryKeyDates,
  sdnList,
} from './index.js';

/** How many items fall under each key. */
function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

const sha256 = (path: string) =>
  createHash('sha256')
    .update(readFileSync(new URL(`./${path}`, import.meta.url)))
    .digest('hex');

describe('OFAC SDN snapshot (2023-12-28 release)', () => {
  const { records, provenance } = sdnList();
  const byEntNum = new Map(records.map((entry) => [entry.entNum, entry]));

  it('has the row counts PROVENANCE.md gives', () => {
    expect(records).toHaveLength(13_821);
    expect(records.reduce((sum, entry) => sum + entry.aliases.length, 0)).toBe(17_091);
    // 18,990 address rows, of which 2,652 are all `-0-` placeholders.
    expect(records.reduce((sum, entry) => sum + entry.addresses.length, 0)).toBe(18_990 - 2_652);
    expect(countBy(records, (entry) => entry.type)).toEqual({ individual: 6_646, entity: 6_033, vessel: 764, aircraft: 378 });
    expect(
      countBy(
        records.flatMap((entry) => entry.aliases),
        (alias) => alias.type,
      ),
    ).toEqual({ aka: 16_507, fka: 567, nka: 17 });
  });

  it('has 578 digital-currency address rows: 49 entities, 576 distinct currency and address pairs', () => {
    const rows = records.flatMap((entry) => entry.digitalCurrencyAddresses.map((a) => ({ entNum: entry.entNum, ...a })));
    expect(rows).toHaveLength(578);
    expect(new Set(rows.map((row) => row.entNum)).size).toBe(49);
    expect(new Set(rows.map((row) => `${row.currency} ${row.address}`)).size).toBe(576);
  });

  it('reads known records', () => {
    expect(byEntNum.get(306)).toMatchObject({ name: 'BANCO NACIONAL DE CUBA', type: 'entity', programs: ['CUBA'], remarks: "a.k.a. 'BNC'." });
    expect(byEntNum.get(306)!.aliases.map((alias) => alias.name)).toContain('NATIONAL BANK OF CUBA');
    expect(byEntNum.get(306)!.addresses).toContainEqual({ addNum: 199, address: 'Zweierstrasse 35', cityStateZip: 'Zurich CH-8022', country: 'Switzerland' });
    expect(byEntNum.get(2674)).toMatchObject({ name: 'ABBAS, Abu', type: 'individual', programs: ['SDGT'], title: 'Director of PALESTINE LIBERATION FRONT - ABU ABBAS FACTION' });
    expect(byEntNum.get(25308)!.digitalCurrencyAddresses).toContainEqual({ currency: 'XBT', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' });
    expect(byEntNum.get(173)).toMatchObject({ name: 'ANGLO-CARIBBEAN CO., LTD.', type: 'entity' });
  });

  it('joins remarks cut at 1,000 characters to their sdn_comments.csv continuation, even when the cut falls after a space', () => {
    const entry = byEntNum.get(39593)!;
    expect(entry.remarks).toContain('Digital Currency Address - XBT 194xmrZA53UBsZau2PnJLdmVVW9m5feeS');
    expect(entry.remarks!.length).toBeGreaterThan(1_000);
  });

  it('derives from the remarks exactly the shipped digital_currency_addresses.csv (the derivation refresh.ts uses)', () => {
    const derived = parseOfacFiles({
      sdn: readDataFile('ofac/sdn.csv'),
      add: readDataFile('ofac/add.csv'),
      alt: readDataFile('ofac/alt.csv'),
      comments: readDataFile('ofac/sdn_comments.csv'),
    });
    expect(formatDigitalCurrencyAddresses(derived)).toBe(readDataFile('ofac/digital_currency_addresses.csv'));
  });

  it('ships the OFAC files byte for byte as copied (CRLF, trailing 0x1A)', () => {
    const sdn = readFileSync(new URL('./ofac/sdn.csv', import.meta.url));
    expect(sdn.at(-1)).toBe(0x1a);
    expect(sdn.subarray(-3, -1).toString('latin1')).toBe('\r\n');
    expect({
      sdn: sha256('ofac/sdn.csv'),
      alt: sha256('ofac/alt.csv'),
      add: sha256('ofac/add.csv'),
      dca: sha256('ofac/digital_currency_addresses.csv'),
    }).toMatchInlineSnapshot(`
      {
        "add": "c9706ac0aacaabc8f6a2f8c66e07d0932161354f67772ddc41ed2e1328561ea5",
        "alt": "72a3520a9544b965cfa1e3301143a67cdf9d6b1588e55b5273c9d2faa4725957",
        "dca": "f0766e1d3d970d64fbfd0767af631091fb6b7d5808672f8d94c891c362cd7ddf",
        "sdn": "d768d28ee9e3ac7b27f9a956c922bf97dc286ebd39eff63faa4ef231f1ef668b",
      }
    `);
  });

  it('carries its provenance', () => {
    expect(provenance).toMatchObject({ asOf: '2023-12-28', licence: expect.stringContaining('Public domain') });
    expect(provenance.url).toMatch(/^https:\/\/sanctionslistservice\.ofac\.treas\.gov\//);
  });
});

describe('OFAC CSV quirks', () => {
  it('reads -0- as empty, packed programs, quoted commas, and the Ctrl-Z end marker', () => {
    const rows = parseOfacCsv('1,"A, B",-0- ,"SDNTK] [FTO"\r\n\x1a', 4, 'test.csv');
    expect(rows).toEqual([['1', 'A, B', '-0- ', 'SDNTK] [FTO']]);
    expect(ofacPrograms(rows[0]![3])).toEqual(['SDNTK', 'FTO']);
    expect(ofacPrograms('-0- ')).toEqual([]);
  });

  it('rejects a row with the wrong number of fields, and aliases of entries the list does not have', () => {
    expect(() => parseOfacCsv('1,"A"\r\n', 3, 'test.csv')).toThrow(OfacDataError);
    const sdn = '1,"ONE",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n\x1a';
    expect(() => parseOfacFiles({ sdn, add: '', alt: '2,1,"aka","TWO",-0- \r\n', comments: '' })).toThrow(/ent_num 2 is not in sdn.csv/);
    expect(() => parseOfacFiles({ sdn: sdn.replace('-0- ,"CUBA"', '"ship","CUBA"'), add: '', alt: '', comments: '' })).toThrow(/SDN_Type "ship"/);
  });
});

describe('PEP snapshots', () => {
  const { usFederal, headsOfState, meps } = pepDatasets();

  it('has the counts PROVENANCE.md gives', () => {
    expect(usFederal.records).toHaveLength(617);
    expect(usFederal.records.filter((r) => r.current)).toHaveLength(539);
    // 424 rows; one officeholder has no English label (the label is its QID) and is left out.
    expect(readDataFile('pep/world_heads_of_state_government_wikidata_2022-10-10.csv').trim().split('\n')).toHaveLength(425);
    expect(headsOfState.records).toHaveLength(423);
    expect(headsOfState.records.filter((r) => r.current)).toHaveLength(355 - 1);
    expect(meps.records).toHaveLength(701);
    expect(meps.records.every((r) => !r.current)).toBe(true);
    expect(pepRecords()).toHaveLength(617 + 423 + 701);
  });

  it('reads known records, with ISO country codes', () => {
    expect(usFederal.records.find((r) => r.id === 'us-congress-C000127')).toMatchObject({
      name: 'Maria Cantwell',
      country: 'US',
      current: true,
      position: 'United States Senator from Washington (Class 1)',
    });
    expect(headsOfState.records.find((r) => r.name === 'Edi Rama')).toMatchObject({ position: 'Prime Minister of Albania', country: 'AL', current: true });
    expect(headsOfState.records.find((r) => r.name === 'Ilir Meta')).toMatchObject({ country: 'AL', current: false });
    expect(meps.records.find((r) => r.name === 'Andreas Schieder')).toMatchObject({ country: 'AT', countryName: 'Austria' });
    expect(headsOfState.records.filter((r) => r.country === null).map((r) => r.countryName)).not.toContain('Germany');
  });

  it('carries each source’s provenance', () => {
    expect([usFederal.provenance.asOf, headsOfState.provenance.asOf, meps.provenance.asOf]).toEqual(['2026-06-15', '2022-10-10', '2022-11-21']);
    expect(usFederal.provenance.licence).toBe('CC0-1.0');
  });
});

describe('LEI snapshot', () => {
  const { records, relationships, provenance } = leiRecords();
  const byLei = new Map(records.map((record) => [record.lei, record]));

  it('has 699 records, 128 relationships, and the parents PROVENANCE.md counts', () => {
    expect(records).toHaveLength(699);
    expect(relationships).toHaveLength(128);
    expect(records.filter((r) => r.directParent !== null)).toHaveLength(62);
    expect(records.filter((r) => r.ultimateParent !== null)).toHaveLength(68);
    expect(countBy(records, (r) => r.registrationStatus)).toEqual({ ISSUED: 348, LAPSED: 350, RETIRED: 1 });
    expect(provenance.licence).toContain('CC0');
  });

  it('reads the Citigroup chain of the GLEIF sample', () => {
    expect(byLei.get('549300Z97UQPIB27EY09')?.directParent).toBe('E57ODZWZ7FF32TWEFA76');
    expect(byLei.get('E57ODZWZ7FF32TWEFA76')?.directParent).toBe('549300PSHWOM1D1JVL23');
    expect(byLei.get('549300PSHWOM1D1JVL23')?.directParent).toBe('6SHGI4ZSSLCXXQSBB395');
  });

  it('gives ACTIVE only to an active entity with a current registration', () => {
    expect(byLei.get('2138001KPMR6PD83HC08')).toMatchObject({ legalName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.', status: 'ACTIVE', jurisdiction: 'SG' });
    expect(byLei.get('2138001KPMR6PD83HC08')!.otherNames).toContainEqual({ name: 'CRI/CRITERION MARKETING ASIA PACIFIC PTE LTD', type: 'PREVIOUS_LEGAL_NAME' });
    expect(records.filter((r) => r.status === 'ACTIVE')).toHaveLength(348);
    expect(records.filter((r) => r.registrationStatus === 'LAPSED').every((r) => r.status === 'LAPSED')).toBe(true);
  });
});

describe('FATF lists and regulatory dates', () => {
  it('has the June 2026 black list (3) and grey list (22), and two earlier lists', () => {
    const { current, history, provenance } = fatfLists();
    expect(current.statementDate).toBe('2026-06-19');
    expect(current.blacklist.map((j) => j.code)).toEqual(['KP', 'IR', 'MM']);
    expect(current.greylist).toHaveLength(22);
    expect(current.greylist).toContainEqual({ code: 'VG', name: 'Virgin Islands (UK)' });
    expect(history.map((list) => list.statementDate)).toEqual(['2026-02-13', '2025-10-24']);
    expect(provenance.licence).toContain('FATF/OECD');
  });

  it('has 20 dated, cited milestones', () => {
    const { records } = regulatoryKeyDates();
    expect(records).toHaveLength(20);
    expect(records[0]).toMatchObject({ regime: 'MiCA', date: '2023-06-09', citation: { publisher: 'MiCA Papers' } });
  });

  it('names a source, URL, as-of date and licence for every dataset', () => {
    for (const provenance of Object.values(dataSources())) {
      expect(provenance.source.length).toBeGreaterThan(10);
      expect(provenance.licence.length).toBeGreaterThan(2);
    }
  });
});
