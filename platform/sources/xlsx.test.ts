import { describe, expect, it } from 'vitest';
import { zipArchive } from './testing/workbook-fixture.js';
import { columnLetters, readWorksheet } from './xlsx.js';
import { MAX_ENTRY_BYTES, openZip } from './zip.js';

const encode = (text: string) => new TextEncoder().encode(text);
const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

/** A one-sheet workbook whose sheet XML is `sheetData` (no shared strings part). */
function workbook(sheetData: string): Uint8Array {
  return zipArchive([
    { name: 'xl/workbook.xml', data: encode(`<workbook ${MAIN} xmlns:r="r"><sheets><sheet r:id="rId1" name="Data &amp; notes" sheetId="1"/></sheets></workbook>`) },
    { name: 'xl/_rels/workbook.xml.rels', data: encode('<Relationships><Relationship Target="/xl/worksheets/data.xml" Id="rId1" Type="x/worksheet"/></Relationships>') },
    { name: 'xl/worksheets/data.xml', data: encode(`<worksheet ${MAIN}><sheetData>${sheetData}</sheetData></worksheet>`) },
  ]);
}

describe('readWorksheet', () => {
  it('reads inline strings, booleans, formula strings and numbers, by column letters, attributes in any order', () => {
    const rows = readWorksheet(
      workbook(
        '<row r="2"><c t="inlineStr" r="A2"><is><t>Q&amp;A</t></is></c><c r="B2" t="b"><v>1</v></c><c r="C2" t="str"><f>A2</f><v>x &lt; y</v></c><c r="AB2"><v>-7.8E-2</v></c><c r="AC2"/></row>',
      ),
      'Data & notes',
    );
    expect(rows).toEqual([
      {
        row: 2,
        cells: new Map<string, unknown>([
          ['A', 'Q&A'],
          ['B', true],
          ['C', 'x < y'],
          ['AB', -0.078],
        ]),
      },
    ]);
  });

  it('numbers rows and cells that omit their reference by position', () => {
    const rows = readWorksheet(workbook('<row><c><v>1</v></c><c><v>2</v></c></row><row><c><v>3</v></c></row>'), 'Data & notes');
    expect(rows.map((row) => [row.row, [...row.cells]])).toEqual([
      [
        1,
        [
          ['A', 1],
          ['B', 2],
        ],
      ],
      [2, [['A', 3]]],
    ]);
  });

  it('names what is missing when the sheet or a part is absent', () => {
    expect(() => readWorksheet(workbook(''), 'Other')).toThrow('no sheet named "Other"');
    expect(() => readWorksheet(zipArchive([{ name: 'xl/workbook.xml', data: encode('<workbook/>') }]), 'x')).toThrow('xl/_rels/workbook.xml.rels');
  });

  it('refuses a numeric cell that holds text', () => {
    expect(() => readWorksheet(workbook('<row r="1"><c r="A1"><v>n/a</v></c></row>'), 'Data & notes')).toThrow('numeric cell');
  });
});

describe('openZip', () => {
  it('lists and inflates deflated entries', () => {
    const archive = openZip(zipArchive([{ name: 'a/b.txt', data: encode('hello hello hello') }]));
    expect(archive.names).toEqual(['a/b.txt']);
    expect(new TextDecoder().decode(archive.read('a/b.txt'))).toBe('hello hello hello');
    expect(archive.read('missing')).toBeUndefined();
  });

  it('refuses what is not a ZIP archive, and an entry claiming more than the size limit', () => {
    expect(() => openZip(encode('PK but not really a zip file at all'))).toThrow('not a ZIP archive');
    const bytes = zipArchive([{ name: 'big', data: encode('x') }]);
    const view = new DataView(bytes.buffer);
    const directory = view.getUint32(bytes.length - 6, true);
    view.setUint32(directory + 24, MAX_ENTRY_BYTES + 1, true);
    expect(() => openZip(bytes).read('big')).toThrow('larger than');
  });
});

describe('columnLetters', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [27, 'AB'],
    [88, 'CK'],
  ])('column %i is %s', (index, letters) => {
    expect(columnLetters(index)).toBe(letters);
  });
});
