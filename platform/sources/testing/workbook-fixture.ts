// Test-only: a recorded workbook fixture is kept as its XML parts (readable, reviewable text under
// platform/sources/<publisher>/fixtures/<name>/) and zipped with JSZip into an .xlsx, deflated as
// Excel writes them. Every such folder (one holding [Content_Types].xml) is zipped once, when this
// module loads, so that workbookFixture can answer synchronously.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';

const SOURCES = fileURLToPath(new URL('../', import.meta.url));
const WORKBOOKS = new Map(await Promise.all(workbookFolders().map(async ({ key, root }) => [key, await zipFolder(root)] as const)));

/** The .xlsx bytes of the fixture folder `platform/sources/<source>/fixtures/<folder>`. */
export function workbookFixture(source: string, folder: string): Uint8Array {
  const bytes = WORKBOOKS.get(`${source}/${folder}`);
  if (bytes === undefined) throw new Error(`no workbook fixture folder ${source}/fixtures/${folder}`);
  return bytes;
}

function partsUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? partsUnder(join(folder, entry.name)) : [join(folder, entry.name)]))
    .sort();
}

function workbookFolders(): Array<{ key: string; root: string }> {
  return readdirSync(SOURCES, { withFileTypes: true })
    .filter((source) => source.isDirectory() && existsSync(join(SOURCES, source.name, 'fixtures')))
    .flatMap((source) =>
      readdirSync(join(SOURCES, source.name, 'fixtures'), { withFileTypes: true })
        .filter((folder) => folder.isDirectory() && existsSync(join(SOURCES, source.name, 'fixtures', folder.name, '[Content_Types].xml')))
        .map((folder) => ({ key: `${source.name}/${folder.name}`, root: join(SOURCES, source.name, 'fixtures', folder.name) })),
    );
}

async function zipFolder(root: string): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const path of partsUnder(root)) zip.file(relative(root, path).split(sep).join('/'), readFileSync(path));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}
