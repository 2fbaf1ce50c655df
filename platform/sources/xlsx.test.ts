import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnLetters, MAX_WORKBOOK_BYTES, readWorksheet } from './xlsx.js';

const SHEET = 'Data & notes';

/** The .xlsx bytes of a one-sheet workbook written by exceljs; `fill` sets its cells. */
async function workbook(fill: (sheet: ExcelJS.Worksheet) => void, options: { date1904?: boolean } = {}): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  if (options.date1904 === true) book.properties.date1904 = true;
  fill(book.addWorksheet(SHEET));
  return new Uint8Array(await book.xlsx.writeBuffer());
}

describe('readWorksheet', () => {
  it('reads strings, rich text, booleans, formula results, hyperlinks, errors and numbers, by column letters', async () => {
    const bytes = await workbook((sheet) => {
      sheet.getCell('A2').value = 'Q&A';
      sheet.getCell('B2').value = true;
      sheet.getCell('C2').value = { formula: 'A2', result: 'x < y' };
      sheet.getCell('D2').value = { richText: [{ text: 'NEW YORK FED  ' }, { text: 'ECONOMIC RESEARCH', font: { bold: true } }] };
      sheet.getCell('E2').value = { text: 'research', hyperlink: 'https://www.newyorkfed.org/research' };
      sheet.getCell('F2').value = { error: '#N/A' };
      sheet.getCell('G2').value = { formula: 'AB2*2' };
      sheet.getCell('AB2').value = -0.078;
    });
    expect(await readWorksheet(bytes, SHEET)).toEqual([
      {
        row: 2,
        cells: new Map<string, unknown>([
          ['A', 'Q&A'],
          ['B', true],
          ['C', 'x < y'],
          ['D', 'NEW YORK FED  ECONOMIC RESEARCH'],
          ['E', 'research'],
          ['F', '#N/A'],
          ['AB', -0.078],
        ]),
      },
    ]);
  });

  it('gives a date-formatted cell back as its Excel day serial, as the workbook stores it (1900 and 1904 systems)', async () => {
    const fill = (sheet: ExcelJS.Worksheet) => {
      sheet.getCell('A1').value = new Date(Date.UTC(2025, 1, 28));
      sheet.getCell('A1').numFmt = 'dd-mmm-yyyy';
      sheet.getCell('B1').value = new Date(Date.UTC(1998, 0, 31, 12));
      sheet.getCell('B1').numFmt = 'yyyy-mm-dd hh:mm';
    };
    const [row] = await readWorksheet(await workbook(fill), SHEET);
    expect([...row!.cells]).toEqual([
      ['A', 45716],
      ['B', 35826.5],
    ]);
    const [row1904] = await readWorksheet(await workbook(fill, { date1904: true }), SHEET);
    expect(row1904!.cells.get('A')).toBe(45716 - 1462);
  });

  it('keeps each row at its sheet row number and leaves out empty rows and cells', async () => {
    const bytes = await workbook((sheet) => {
      sheet.getCell('A1').value = 1;
      sheet.getCell('B1').value = 2;
      sheet.getCell('C1').value = null;
      sheet.getCell('A4').value = 3;
    });
    expect((await readWorksheet(bytes, SHEET)).map((row) => [row.row, [...row.cells]])).toEqual([
      [
        1,
        [
          ['A', 1],
          ['B', 2],
        ],
      ],
      [4, [['A', 3]]],
    ]);
  });

  it('says what is wrong: no such sheet, not a workbook, larger than the limit', async () => {
    await expect(readWorksheet(await workbook(() => {}), 'Other')).rejects.toThrow('no sheet named "Other"');
    await expect(readWorksheet(new TextEncoder().encode('<html>moved</html>'), SHEET)).rejects.toThrow('not a readable .xlsx workbook');
    await expect(readWorksheet(new Uint8Array(MAX_WORKBOOK_BYTES + 1), SHEET)).rejects.toThrow(`larger than ${MAX_WORKBOOK_BYTES} bytes`);
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
