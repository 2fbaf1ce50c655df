#!/usr/bin/env python3
"""Extract columns of the World Bank Pink Sheet monthly workbook into date,value CSV files.

Used once for subgraphs/forecast/data/series (see its sources.json): the workbook is
CMO-Historical-Data-Monthly.xlsx, sheet "Monthly Prices", one row per month labelled YYYYMmm, a
header row naming each column and a row of units under it. Standard library only.

    python3 scripts/extract-pink-sheet-columns.py CMO-Historical-Data-Monthly.xlsx OUT_DIR \
        "Coffee, Arabica=wb_coffee_arabica_monthly.csv" "Cocoa=wb_cocoa_monthly.csv"

Each value is written rounded to 6 significant digits (the workbook stores binary floats such as
66.459999999999994 for 66.46), the rounding the series in ../shared/data/series were extracted
with; cells holding "…" (not available) are left out.
"""

import re
import sys
import xml.etree.ElementTree as ET
import zipfile

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
SHEET = "Monthly Prices"
MONTH = re.compile(r"^(\d{4})M(\d{2})$")


def shared_strings(book):
    root = ET.fromstring(book.read("xl/sharedStrings.xml"))
    return ["".join(t.text or "" for t in si.iter(MAIN + "t")) for si in root.findall(MAIN + "si")]


def sheet_path(book, name):
    targets = {r.get("Id"): r.get("Target") for r in ET.fromstring(book.read("xl/_rels/workbook.xml.rels"))}
    for sheet in ET.fromstring(book.read("xl/workbook.xml")).find(MAIN + "sheets"):
        if sheet.get("name") == name:
            return "xl/" + targets[sheet.get(REL)]
    raise SystemExit(f"no sheet {name!r}")


def rows(book, name):
    strings = shared_strings(book)
    for row in ET.fromstring(book.read(sheet_path(book, name))).find(MAIN + "sheetData"):
        cells = {}
        for cell in row:
            column = re.match(r"[A-Z]+", cell.get("r")).group()
            value = cell.find(MAIN + "v")
            if value is not None:
                cells[column] = strings[int(value.text)] if cell.get("t") == "s" else value.text
        yield cells


def six_significant(text):
    return f"{float(text):.6g}"


def main(workbook, out_dir, *mappings):
    table = list(rows(zipfile.ZipFile(workbook), SHEET))
    header = next(cells for cells in table if any(v == "Crude oil, WTI" for v in cells.values()))
    for mapping in mappings:
        title, file = mapping.split("=", 1)
        column = next(c for c, v in header.items() if v == title)
        lines = ["date,value"]
        for cells in table:
            month = MONTH.match(cells.get("A", ""))
            value = cells.get(column)
            if month and value not in (None, "", "…"):
                lines.append(f"{month.group(1)}-{month.group(2)}-01,{six_significant(value)}")
        with open(f"{out_dir}/{file}", "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        print(f"{file}: {title}, {len(lines) - 1} rows, {lines[1]} .. {lines[-1]}")


if __name__ == "__main__":
    main(*sys.argv[1:])
