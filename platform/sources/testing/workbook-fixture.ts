// Test-only: a recorded workbook fixture is kept as its XML parts (readable, reviewable text under
// platform/sources/<publisher>/fixtures/<name>/) and zipped here, deflated as Excel writes them.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

/** The .xlsx bytes of the fixture folder `platform/sources/<source>/fixtures/<folder>`. */
export function workbookFixture(source: string, folder: string): Uint8Array {
  const root = fileURLToPath(new URL(`../${source}/fixtures/${folder}/`, import.meta.url));
  return zipArchive(partsUnder(root).map((path) => ({ name: relative(root, path).split(sep).join('/'), data: readFileSync(path) })));
}

function partsUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? partsUnder(join(folder, entry.name)) : [join(folder, entry.name)]))
    .sort();
}

/** A ZIP archive of deflated entries: local headers, then the central directory, then its end record. */
export function zipArchive(entries: ReadonlyArray<{ name: string; data: Uint8Array }>): Uint8Array {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const compressed = deflateRawSync(data);
    const fields = { crc: crc32(data), compressedSize: compressed.length, size: data.length, nameLength: nameBytes.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    writeSizes(local, 14, fields);
    locals.push(local, nameBytes, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    writeSizes(central, 16, fields);
    central.writeUInt32LE(offset, 42);
    directory.push(central, nameBytes);
    offset += local.length + nameBytes.length + compressed.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, ...directory, end]));
}

/** CRC, compressed size, size, name length: the same run of fields in a local header and a directory entry. */
function writeSizes(header: Buffer, at: number, fields: { crc: number; compressedSize: number; size: number; nameLength: number }): void {
  header.writeUInt32LE(fields.crc, at);
  header.writeUInt32LE(fields.compressedSize, at + 4);
  header.writeUInt32LE(fields.size, at + 8);
  header.writeUInt16LE(fields.nameLength, at + 12);
}
